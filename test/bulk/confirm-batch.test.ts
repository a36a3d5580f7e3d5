/**
 * Issue 43, item 2's cost: bulk invite confirms its 201s' ids in batches
 * (src/bulk/confirm-batch.ts): one `GET /invitations` (the newest 50)
 * confirms every id it lists with the row's email; only the rest are read
 * back one at a time, then looked up by email. As strict as reading every
 * id back: an id is recorded only when an answer of the service states it
 * with exactly this row's email.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreatedBatch } from '../../src/bulk/confirm-batch.js';
import { type FaultServer, faultEnv, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { foldingEmailFilter, wrongCreatedId } from '../faults/hostile.js';
import { inviteArgs, people, results } from './helpers/no-id.js';

/** A list read that answers `data` (or throws), counting its calls. */
function lister(data: () => unknown) {
  const api = {
    calls: 0,
    listInvitations: async () => {
      api.calls++;
      const d = data();
      if (d instanceof Error) throw d;
      return { data: d };
    },
  };
  return api;
}

const item = (id: unknown, email: string, object: unknown = 'invitation_list_item') => ({ object, id, email });

describe('CreatedBatch', () => {
  it('is not used where a batch could not hold 8 rows (concurrency over 40)', () => {
    expect(CreatedBatch.forRun(lister(() => []), 41)).toBeUndefined();
    expect(CreatedBatch.forRun(lister(() => []), 40)).toBeDefined();
    expect(CreatedBatch.forRun(lister(() => []), 16)).toBeDefined();
  });

  it('one list confirms every id it states with the same email (case and spaces aside), nothing else', async () => {
    const api = lister(() => [item(1, 'a@x.example'), item('2', ' B@X.example '), item(3, 'other@x.example'), item(5, 'josé@x.example'), item(6, 'k@x.example', 'invitation'), item(null, 'n@x.example')]);
    const b = CreatedBatch.forRun(api, 16, 5)!;
    const got = await Promise.all([
      b.check(1, 'a@x.example'),
      b.check(2, 'b@x.example'),
      b.check(3, 'c@x.example'), // listed with another email
      b.check(4, 'd@x.example'), // not listed
      b.check(5, 'jose@x.example'), // listed with the accent: a folding service's "same", never ours
      b.check(6, 'k@x.example'), // an item of another kind
      b.check(7, 'n@x.example'), // listed without an id
    ]);
    expect(got).toEqual([true, true, false, false, false, false, false]);
    expect(api.calls).toBe(1);
    expect(b.stats).toEqual({ lists: 1, confirmed: 2, unconfirmed: 5 });
  });

  it('an id listed twice with two emails confirms neither; a failed list or no list confirms nothing', async () => {
    let answer: unknown = [item(1, 'a@x.example'), item(1, 'b@x.example')];
    const api = lister(() => answer);
    const b = CreatedBatch.forRun(api, 16, 5)!;
    expect(await Promise.all([b.check(1, 'a@x.example'), b.check(1, 'b@x.example')])).toEqual([false, false]);
    answer = new Error('503');
    expect(await b.check(1, 'a@x.example')).toBe(false);
    answer = 'not a list';
    expect(await b.check(1, 'a@x.example')).toBe(false);
  });

  it('a full batch is read at once; a part-full one after its wait', async () => {
    const api = lister(() => Array.from({ length: 50 }, (_, i) => item(i + 1, `p${i + 1}@x.example`)));
    const b = CreatedBatch.forRun(api, 16, 60_000)!;
    // 50 - 16 - 2 = 32 rows fill a batch: no wait.
    const all = await Promise.all(Array.from({ length: 32 }, (_, i) => b.check(i + 1, `p${i + 1}@x.example`)));
    expect(all.every(Boolean)).toBe(true);
    expect(api.calls).toBe(1);
    const soon = CreatedBatch.forRun(api, 16, 20)!;
    const t = performance.now();
    expect(await Promise.all([soon.check(3, 'p3@x.example'), soon.check(4, 'p4@x.example')])).toEqual([true, true]);
    expect(performance.now() - t).toBeGreaterThanOrEqual(15);
    expect(api.calls).toBe(2);
  });
});

describe('bulk invite against the fault server', () => {
  let server: FaultServer | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobfit-confirm-batch-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const reads = (s: FaultServer) => s.log.filter((l) => /^GET \/invitations\/\d+/.test(l)).length;
  const lists = (s: FaultServer) => s.log.filter((l) => l === 'GET /invitations').length;

  async function invite(n: number, concurrency: number) {
    const csv = people(dir, n);
    const out = join(dir, 'out.csv');
    const r = await runCli([...inviteArgs(csv, out), '--concurrency', String(concurrency)], { env: faultEnv(server!) });
    return { r, rows: results(out) };
  }

  const ownIds = (s: FaultServer, rows: Array<Record<string, string>>) => {
    for (const row of rows) expect(row.invitation_id, row.Email).toBe(String(s.invitations.find((i) => i.email === row.Email)!.id));
  };

  it('300 rows at concurrency 8: every id right, confirmed by a few lists instead of 300 reads', async () => {
    server = await startFaultServer();
    const { r, rows } = await invite(300, 8);
    expect(r.code, r.stderr).toBe(0);
    expect(rows.filter((x) => x.status === 'created')).toHaveLength(300);
    ownIds(server, rows);
    expect(reads(server), 'ids read back one at a time').toBeLessThan(30);
    expect(lists(server)).toBeLessThan(60);
    expect(lists(server)).toBeGreaterThan(0);
  });

  it("a 201 with another invitation's id (every tenth row): the list names that id with its own email, so the row is read back and looked up", async () => {
    server = await startFaultServer();
    const other = server.create({ email: 'someone.else@r3.example' });
    wrongCreatedId(server, (e) => /^p\d*0@/.test(e), () => other.id);
    const { r, rows } = await invite(200, 8);
    expect(r.code, r.stderr).toBe(0);
    ownIds(server, rows);
    expect(rows.map((x) => x.invitation_id)).not.toContain(String(other.id));
    expect(server.invitations).toHaveLength(201);
  });

  it('someone else inviting all the while (the newest 50 are mostly theirs): every id still right, by the read-back', async () => {
    server = await startFaultServer();
    const s = server;
    let k = 0;
    // Ten invitations of someone else's after every POST.
    s.faults.unshift((req) => {
      if (req.method === 'POST' && req.path === '/invitations') for (let i = 0; i < 10; i++) s.create({ email: `busy${k++}@else.example` });
      return false;
    });
    const { r, rows } = await invite(120, 8);
    expect(r.code, r.stderr).toBe(0);
    ownIds(s, rows);
    expect(reads(s)).toBeGreaterThan(0);
  });

  it("a 201 naming the row's accented twin (a folding service's same person): never confirmed by the list, the row records its own id", async () => {
    server = await startFaultServer();
    const s = server;
    foldingEmailFilter(s);
    // Made before the run, so among the newest 50: p1é@r3.example for p1@r3.example, and on.
    const twins = new Map<string, number>();
    for (let i = 1; i <= 30; i++) twins.set(`p${i}@r3.example`, s.create({ email: `p${i}é@r3.example` }).id);
    wrongCreatedId(s, () => true, (_created, email) => twins.get(email));
    const { r, rows } = await invite(30, 8);
    expect(r.code, r.stderr).toBe(0);
    ownIds(s, rows);
    for (const row of rows) expect(row.invitation_id).not.toBe(String(twins.get(row.Email)));
  });
});
