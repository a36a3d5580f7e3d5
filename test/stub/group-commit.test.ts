import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { GroupCommit } from '../../src/stub/group-commit.js';
import { Store } from '../../src/stub/store.js';
import { DANA, type TestStub, freshEmail, startTestStub } from './helpers.js';

describe('GroupCommit', () => {
  let dir: string;
  let store: Store;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobfit-gc-'));
    store = new Store(dir);
    store.db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const has = (k: string) => Boolean(store.get('SELECT 1 FROM t WHERE k = ?', k));
  /** A job that refuses a key already stored (the duplicate rule in small). */
  const insert = (k: string, boom = false) => ({
    check: () => {
      if (has(k)) throw new Error(`duplicate ${k}`);
    },
    apply: () => {
      store.run('INSERT INTO t (k) VALUES (?)', k);
      if (boom) throw new Error('apply failed');
      return k;
    },
  });

  it('runs the jobs of one turn in one transaction, in order, each check seeing the writes before it', async () => {
    const gc = new GroupCommit(store);
    const commitsBefore = store.get<{ v: number }>('SELECT total_changes() AS v')!.v;
    const results = await Promise.allSettled([gc.submit(insert('a')), gc.submit(insert('b')), gc.submit(insert('a')), gc.submit(insert('c'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('duplicate a');
    expect(['a', 'b', 'c'].every(has)).toBe(true);
    expect(gc.ownChanges).toBe(store.get<{ v: number }>('SELECT total_changes() AS v')!.v - commitsBefore);
  });

  it('answers only after the commit', async () => {
    const gc = new GroupCommit(store);
    const p = gc.submit(insert('late'));
    // Nothing runs before the turn ends.
    expect(has('late')).toBe(false);
    await p;
    expect(has('late')).toBe(true);
    expect(store.db.inTransaction).toBe(false);
  });

  it('keeps a failing write to its own job: the batch is rolled back and every job runs alone', async () => {
    const gc = new GroupCommit(store);
    const results = await Promise.allSettled([gc.submit(insert('x1')), gc.submit(insert('x2', true)), gc.submit(insert('x3'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(has('x1')).toBe(true);
    expect(has('x2')).toBe(false);
    expect(has('x3')).toBe(true);
  });
});

describe('POST /invitations under concurrency (group commit)', () => {
  let stub: TestStub;
  beforeAll(async () => {
    stub = await startTestStub();
  });
  afterAll(async () => {
    await stub?.stop();
  });

  it('creates every invitation once and refuses the second of two requests for one email', async () => {
    const dup = freshEmail('Same');
    const emails = [...Array.from({ length: 30 }, () => freshEmail('Many')), dup, dup.toUpperCase()];
    const answers = await Promise.all(
      emails.map((email) => stub.call('POST', '/invitations', { body: { first_name: 'Ana', last_name: 'Lopez', email, created_by_user_email: DANA } })),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(31);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused).toHaveLength(1);
    expect([MSG.duplicateInvitationSameTeam(dup), MSG.duplicateInvitationSameTeam(dup.toUpperCase())]).toContain(refused[0].body.error);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(31);
    // Each answer is the stored invitation.
    for (const a of created.slice(0, 5)) {
      const got = await stub.call('GET', `/invitations/${a.body.id}`);
      expect(got.body).toEqual(a.body);
    }
    const n = stub.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM invitations WHERE email_lc = ?', dup.toLowerCase())!.n;
    expect(n).toBe(1);
  });
});
