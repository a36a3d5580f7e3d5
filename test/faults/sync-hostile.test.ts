/**
 * Issue 43, item 1: `sync` (and `sync --watch`) against the round-four
 * hostile servers of our own: a stale answer on a reused connection (a broken
 * proxy), another person's object in an item answer, an email filter that
 * folds case and accents (MySQL 8's collation), and a held SQLite write lock.
 * Each run is exact (its tables equal those of a sync of the same service
 * without the fault) or loud (a non-zero exit, a sentence, no stack trace);
 * never exit 0 with wrong data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FaultServer, faultEnv, seed, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { run } from '../../src/cli/main.js';
import { holdWriteLock } from '../helpers/sqlite-lock.js';
import { until } from '../helpers/until.js';
import { query } from '../sync/helpers.js';
import { jobFitRoute, takerItemRoute } from './lists.js';
import { anyGet, foldingEmailFilter, otherPerson, staleOnReuse } from './hostile.js';

let dir: string;
let server: FaultServer | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-sync-hostile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let dbs = 0;
const freshDb = () => join(dir, `s${++dbs}.sqlite`);

/** 400 invitations, 300 accepted with results; emails with an accented letter before the `@` for every 11th when `accents`. */
async function service(accents = false): Promise<FaultServer> {
  const s = await startFaultServer();
  const accented = 'áéíóúñ';
  seed(s, 400, { accepted: 300, email: (i) => `p${i}${accents && i % 11 === 0 ? accented[i % 6] : 'x'}@d${i % 7}.example` });
  jobFitRoute(s);
  takerItemRoute(s);
  return s;
}

/** What a sync keeps of the service: every mirrored table, its rows in key order, without the run's own columns. */
const TABLES: Record<string, string> = {
  invitations: 'id',
  test_takers: 'id',
  assigned_assessments: 'test_taker_id, id',
  scorecards: 'test_taker_id, score_profile',
  job_fit_reports: 'test_taker_id',
  job_fit_occupations: 'test_taker_id, rank',
};
async function tables(db: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [t, key] of Object.entries(TABLES)) out[t] = await query(db, `SELECT * FROM ${t} ORDER BY ${key}`);
  return out;
}

const sync = (s: FaultServer, db: string, ...more: string[]) => runCli(['sync', '--db', db, '--sp', 'sales-rep', ...more], { env: faultEnv(s) });

/** A sync of the service as it is, with no fault: what an exact run stores. */
async function clean(s: FaultServer): Promise<Record<string, unknown[]>> {
  const db = freshDb();
  const r = await sync(s, db);
  expect(r.code, r.stderr).toBe(0);
  const t = await tables(db);
  // Every accepted person has results: the faults below meet every route a sync reads.
  expect([t.scorecards.length, t.job_fit_reports.length]).toEqual([300, 300]);
  return t;
}

/** Exact (exit 0 and the clean tables) or loud (non-zero, a sentence, no stack trace); never 0 with other tables. */
async function exactOrLoud(s: FaultServer, want: Record<string, unknown[]>): Promise<{ code: number; stderr: string }> {
  const db = freshDb();
  const r = await sync(s, db);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  if (r.code === 0) expect(await tables(db)).toEqual(want);
  else expect(r.stderr).toMatch(/could not be fetched|another item/);
  return r;
}

describe('a broken proxy answering with the connection’s previous answer', () => {
  it('on 5% of the test-taker items: exit 0, every table as without the proxy', async () => {
    server = await service();
    const want = await clean(server);
    staleOnReuse(server, 0.05);
    const r = await exactOrLoud(server, want);
    expect(server.staleSent, 'the proxy sent stale answers').toBeGreaterThan(3);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it('on 3% of every GET (lists, invitations, reference data too): exact, or a non-zero exit', async () => {
    server = await service();
    const want = await clean(server);
    staleOnReuse(server, 0.03, 5, anyGet);
    await exactOrLoud(server, want);
    expect(server.staleSent).toBeGreaterThan(3);
  }, 60_000);
});

describe("another person's object in an item answer", () => {
  it('5% of the scorecards and job-fit reports: exit 0, every table as without it', async () => {
    server = await service();
    const want = await clean(server);
    otherPerson(server, { rate: 0.05 });
    const r = await exactOrLoud(server, want);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it('5% of the test taker and invitation items too, each once: exit 0, every table as without it', async () => {
    server = await service();
    const want = await clean(server);
    otherPerson(server, { rate: 0.05, items: true, seed: 5, once: true });
    const r = await exactOrLoud(server, want);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it('10% of every item answer, again on a fresh connection too: exact, or exit 3 naming what was answered twice with another', async () => {
    server = await service();
    const want = await clean(server);
    otherPerson(server, { rate: 0.1, items: true, seed: 9 });
    const r = await exactOrLoud(server, want);
    if (r.code !== 0) expect(r.code, r.stderr).toBe(3);
  }, 60_000);

  it("one person's scorecard always someone else's: exit 3 naming it, nothing of the other stored as theirs", async () => {
    server = await service();
    const victim = server.invitations.find((i) => i.completed)!.test_taker_id!;
    otherPerson(server, { always: victim });
    const db = freshDb();
    const r = await sync(server, db);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`GET /test-takers/${victim}/scorecard with another item twice`);
    expect(await query(db, `SELECT test_taker_id FROM scorecards WHERE test_taker_id = ${victim} OR invitation_id IS NOT (SELECT invitation_id FROM test_takers t WHERE t.id = test_taker_id)`)).toEqual([]);
    expect(await query(db, `SELECT test_taker_id FROM job_fit_reports WHERE invitation_id IS NOT (SELECT invitation_id FROM test_takers t WHERE t.id = test_taker_id)`)).toEqual([]);
  }, 60_000);

  it("one invitation always answered with another: exit 3, the other's fields never stored under its id", async () => {
    server = await service();
    const want = await clean(server);
    const victim = server.invitations[5].id;
    otherPerson(server, { always: victim, items: true });
    const db = freshDb();
    const r = await sync(server, db);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`GET /invitations/${victim} with another item twice`);
    const got = await tables(db);
    // Every row stored is the clean run's.
    for (const [t, rows] of Object.entries(got)) for (const row of rows) expect(want[t]).toContainEqual(row);
  }, 60_000);
});

it('an email filter that folds case and accents (MySQL 8): exit 0, every table as with an exact filter', async () => {
  server = await service(true);
  const want = await clean(server);
  foldingEmailFilter(server);
  const r = await exactOrLoud(server, want);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe('another process holding a write transaction on the database (the sqlite3 shell)', () => {
  it('sync: exit 1 and one sentence naming the busy database, nothing changed; a run after the lock is exact', async () => {
    server = await service();
    const want = await clean(server);
    const db = freshDb();
    expect((await sync(server, db)).code).toBe(0);
    const lock = await holdWriteLock(db);
    let r;
    try {
      r = await sync(server, db, '--full');
    } finally {
      await lock.release();
    }
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`The sync database ${db} is busy: another process held its write lock for more than 5 s (database is locked).`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await tables(db)).toEqual(want);
    const again = await sync(server, db);
    expect(again.code, again.stderr).toBe(0);
    expect(await tables(db)).toEqual(want);
  }, 90_000);

  it('sync --watch: the round that meets the lock says so, the watch goes on and the next round syncs; Ctrl-C ends it with 130', async () => {
    server = await service();
    const want = await clean(server);
    const db = freshDb();
    const ac = new AbortController();
    const m = memoryIO({ env: { ...faultEnv(server), JOBFIT_CONFIG_DIR: join(dir, 'config') }, signal: ac.signal });
    const watching = run(['sync', '--db', db, '--sp', 'sales-rep', '--full', '--watch', '10s'], m.io);
    const rounds = () => m.stderr().match(/^Synced /gm)?.length ?? 0;
    await until(() => rounds() === 1, 'the first round', 30_000);
    const lock = await holdWriteLock(db);
    try {
      await until(() => m.stderr().includes('is busy'), 'the round meeting the lock', 30_000);
    } finally {
      await lock.release();
    }
    expect(m.stderr()).toMatch(/is busy: another process held its write lock .*; trying again in 10\.0s\./);
    await until(() => rounds() === 2, 'the round after the lock', 30_000);
    ac.abort(new Error('interrupted'));
    expect(await watching, m.stderr()).toBe(130);
    expect(m.stderr()).not.toMatch(/\n\s+at /);
    expect(await tables(db)).toEqual(want);
  }, 90_000);
});
