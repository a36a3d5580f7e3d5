/**
 * The `email` and `custom_id` filters answered from the trigram index give
 * exactly what the old `LIKE '%…%'` scan gave: same total, same page, in the
 * same order, for random data and patterns full of what could go wrong (case
 * in and out of ASCII, `%`, `_`, `\`, quotes, non-ASCII letters that fold,
 * short patterns); every write path (create, v1 create, accept, update, seed)
 * keeps the index; the query plan reads the index, not the table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accept } from '../../src/stub/lifecycle.js';
import { mulberry32 } from '../../src/stub/random.js';
import { type Filters, peopleQueries } from '../../src/stub/routes/list-filters.js';
import { type PeopleTable, indexPerson, searchTable } from '../../src/stub/search-index.js';
import { type SeededStore, openStore } from '../../src/stub/seeded-store.js';
import { type TestStub, DANA, freshEmail, startTestStub } from './helpers.js';

/** The filters as they were before the index: a LIKE scan of the account's rows. */
function oldQueries(table: PeopleTable, f: Filters, accountId: number): { count: string; page: string; args: unknown[] } {
  const like = (s: string) => `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const parts: string[] = [];
  const args: unknown[] = [accountId];
  const add = (sql: string, arg: unknown) => {
    parts.push(sql);
    args.push(arg);
  };
  if (f.teamId !== undefined) add('x.team_id = ?', f.teamId);
  if (f.custom_id) add("x.custom_id LIKE ? ESCAPE '\\'", like(f.custom_id));
  if (f.email) add("x.email LIKE ? ESCAPE '\\'", like(f.email));
  const w = `WHERE x.account_id = ?${parts.map((p) => ` AND ${p}`).join('')}`;
  return {
    count: `SELECT COUNT(*) AS n FROM ${table} x ${w}`,
    page: `SELECT x.id FROM ${table} x ${w} ORDER BY x.created_at DESC, x.id DESC LIMIT ?`,
    args,
  };
}

function answer(store: SeededStore, q: { count: string; page: string; args: unknown[] }, cap: number) {
  const total = store.db.prepare(q.count).get(...q.args) as { n: number };
  const ids = (store.db.prepare(q.page).all(...q.args, cap) as Array<{ id: number }>).map((r) => r.id);
  return { total: total.n, ids };
}

// Characters chosen to collide: ASCII letters in both cases, LIKE's own
// wildcards and escape, FTS5's quote, letters whose case folds outside ASCII
// (É/é, ẞ/ß, Σ/σ/ς, the Kelvin sign K and k, İ/ı, ſ and s), an emoji.
const ALPHABET = [...'aAbBsS1_%\\"@. -', 'é', 'É', 'ß', 'ẞ', 'Σ', 'σ', 'ς', '\u212a', 'k', 'K', 'İ', 'ı', 'ſ', '😀'];

describe('filters from the trigram index', () => {
  let dir: string;
  let store: SeededStore;
  const rnd = mulberry32(47);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const word = (min: number, max: number) => Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => pick(ALPHABET)).join('');
  const flipCase = (s: string) => [...s].map((ch) => (rnd() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('');
  const values: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobfit-search-'));
    store = await openStore(dir);
    store.write(() => {
      for (let i = 0; i < 600; i++) {
        const email = `${word(1, 8)}@${word(1, 6)}`;
        const custom = rnd() < 0.2 ? null : word(0, 7);
        values.push(email, custom ?? '');
        const team = pick([11, 12]);
        const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(rnd() * 5) * 60_000).toISOString();
        for (const table of ['invitations', 'test_takers'] as const) {
          const r = store.run(
            table === 'invitations'
              ? `INSERT INTO invitations (account_id, team_id, created_at, first_name, last_name, email, email_lc, send_via_email, send_via_sms, custom_id, token)
                 VALUES (1, ?, ?, 'F', 'L', ?, ?, 1, 0, ?, ?)`
              : `INSERT INTO test_takers (account_id, team_id, invitation_id, created_at, first_name, last_name, email, email_lc, custom_id)
                 VALUES (1, ?, ?, ?, 'F', 'L', ?, ?, ?)`,
            ...(table === 'invitations' ? [team, at, email, email.toLowerCase(), custom, `tok-${i}`] : [team, 9_000_000 + i, at, email, email.toLowerCase(), custom]),
          );
          indexPerson(store, table, Number(r.lastInsertRowid), email, custom);
        }
      }
      // Some rows change after they were indexed (the update trigger's path).
      store.run(`UPDATE test_takers SET email = 'Changed.É%_@X' || id WHERE id % 7 = 0`);
      store.run(`UPDATE invitations SET custom_id = NULL WHERE id % 5 = 0`);
    });
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A pattern: mostly a piece of a stored value in random case, else random text; 1 to 8 characters. */
  function pattern(): string {
    if (rnd() < 0.3) return word(1, 6);
    const v = [...pick(values)];
    const from = Math.floor(rnd() * v.length);
    return flipCase(v.slice(from, from + 1 + Math.floor(rnd() * 8)).join('')) || word(1, 3);
  }

  it('gives the old scan’s total and page for 3,000 random filters', () => {
    let indexed = 0;
    let matched = 0;
    for (let i = 0; i < 3_000; i++) {
      const f: Filters = { cap: 150 };
      const which = rnd();
      if (which < 0.45) f.email = pattern();
      else if (which < 0.8) f.custom_id = pattern();
      else Object.assign(f, { email: pattern(), custom_id: pattern() });
      if (rnd() < 0.3) f.teamId = pick([11, 12]);
      if (rnd() < 0.2) f.cap = 3;
      const table = pick(['invitations', 'test_takers'] as const);
      const now = answer(store, peopleQueries(store, table, f, 1), f.cap);
      const then = answer(store, oldQueries(table, f, 1), f.cap);
      expect(now, JSON.stringify({ table, f })).toEqual(then);
      if ([f.email, f.custom_id].some((p) => p !== undefined && [...p].length >= 3)) indexed++;
      if (then.total > 0) matched++;
    }
    // The draw reaches both paths and finds rows often.
    expect(indexed).toBeGreaterThan(1_000);
    expect(matched).toBeGreaterThan(1_000);
  });

  it('the index agrees with its tables (FTS5 integrity-check)', () => {
    for (const t of ['invitations', 'test_takers'] as const) {
      expect(() => store.db.exec(`INSERT INTO ${searchTable(t)} (${searchTable(t)}, rank) VALUES ('integrity-check', 1)`)).not.toThrow();
    }
  });

  it('an email filter of three characters or more reads the index, not the table', () => {
    for (const t of ['invitations', 'test_takers'] as const) {
      const q = peopleQueries(store, t, { email: 'dana', cap: 150 }, 1);
      const plan = (sql: string, ...more: unknown[]) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...q.args, ...more) as Array<{ detail: string }>).map((r) => r.detail);
      for (const p of [plan(q.count), plan(q.page, 150)]) {
        expect(p.join('\n')).toMatch(new RegExp(`SCAN ${searchTable(t)} VIRTUAL TABLE INDEX`));
        expect(p.join('\n')).toMatch(/SEARCH x USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        expect(p.some((d) => /^SCAN x\b/.test(d) || /SEARCH x USING INDEX/.test(d))).toBe(false);
      }
    }
  });
});

describe('every write path keeps the index', () => {
  let stub: TestStub;
  beforeAll(async () => {
    stub = await startTestStub();
  });
  afterAll(() => stub.stop());

  const found = async (path: string, filter: string) => {
    const r = await stub.call('GET', `${path}?${filter}`);
    expect(r.status).toBe(200);
    return r.body.total_count as number;
  };

  it('create, v1 create, accept and update are found by email and custom_id', async () => {
    const email = freshEmail('Idx');
    const created = await stub.call('POST', '/invitations', {
      body: { first_name: 'In', last_name: 'Dex', email, custom_id: 'IDX-ÉTÉ-1', created_by_user_email: DANA },
    });
    expect(created.status, created.text).toBe(201);
    expect(await found('/invitations', `email=${encodeURIComponent(email.toUpperCase())}`)).toBe(1);
    expect(await found('/invitations', `custom_id=${encodeURIComponent('idx-ÉTÉ')}`)).toBe(1);
    // Non-ASCII letters match only as they are (LIKE's rule): é is not É.
    expect(await found('/invitations', `custom_id=${encodeURIComponent('idx-été')}`)).toBe(0);
    accept(stub.store, created.body.id);
    expect(await found('/test-takers', `email=${encodeURIComponent(email)}`)).toBe(1);
    const moved = freshEmail('moved');
    const put = await stub.call('PUT', `/invitations/${created.body.id}`, { body: { email: moved, custom_id: 'idx-moved-2' } });
    expect(put.status, put.text).toBe(200);
    for (const path of ['/invitations', '/test-takers']) {
      expect(await found(path, `email=${encodeURIComponent(email)}`)).toBe(0);
      expect(await found(path, `email=${encodeURIComponent(moved)}`)).toBe(1);
      expect(await found(path, 'custom_id=IDX-MOVED')).toBe(1);
    }
  });
});
