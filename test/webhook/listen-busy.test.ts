/**
 * Issue 43, item 5: a busy database never kills the listener. `webhook
 * listen --sync DB` while another process holds a write transaction on DB
 * (as the sqlite3 shell does): it died with an uncaught "database is locked"
 * about 5 s after its first batch, and the people of the events it had
 * answered 200 for were never synced. Now it waits (SQLite's busy timeout),
 * keeps them (DB.listen-pending.json) and tries again; stopped while the
 * database is still busy, the next listener on DB syncs them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { accept } from '../../src/stub/lifecycle.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { until } from '../helpers/until.js';
import { holdWriteLock } from '../helpers/sqlite-lock.js';
import { query } from '../sync/helpers.js';

let dir: string;
let stub: StartedStub;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-listen-busy-'));
  stub = await startStub({ dataDir: join(dir, 'stub') });
  const team = stub.server!.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id')[0];
  await stub.server!.store.seedPeople(1, team.id, 40, { mix: { pending: 0.5, accepted: 0.1, partial: 0.2, complete: 0.2 } });
  env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key, JOBFIT_CONFIG_DIR: join(dir, 'config') };
}, 30_000);

afterAll(async () => {
  await stub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function listener(db: string) {
  const ac = new AbortController();
  const m = memoryIO({ env, signal: ac.signal });
  let ended: number | undefined;
  const done = run(['webhook', 'listen', '--data', join(dir, 'stub'), '--sync', db], m.io).then((code) => (ended = code));
  return { m, done, stop: () => ac.abort(), ended: () => ended };
}

const acceptedIn = async (db: string, ids: number[]) =>
  (await query<{ id: number }>(db, `SELECT id FROM invitations WHERE accepted_at IS NOT NULL AND id IN (${ids.join(',')})`)).length;

it('keeps the people of the events it answered while another process holds the database, and a restarted listener syncs them', async () => {
  const db = join(dir, 'results.sqlite');
  expect((await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env })).code).toBe(0);
  const pending = stub.server!.store.all<{ id: number }>('SELECT id FROM invitations WHERE account_id = 1 AND accepted_at IS NULL ORDER BY id LIMIT 4').map((p) => p.id);

  const first = listener(db);
  await until(() => first.m.stderr().includes('Press Ctrl-C'), 'the listener', 20_000);
  const lock = await holdWriteLock(db);
  try {
    for (const id of pending) accept(stub.server!.store, id);
    await flushDeliveries();
    const queueFile = `${db}.listen-pending.json`;
    await until(() => existsSync(queueFile), 'the people kept on disk', 10_000);
    // Past the first batch, its busy wait (5 s) and a retry: the listener is still there.
    await new Promise((r) => setTimeout(r, 12_000));
    expect(first.ended(), first.m.stderr()).toBeUndefined();
    const kept = JSON.parse(readFileSync(queueFile, 'utf8')) as { invitations: number[] };
    expect(kept.invitations.sort()).toEqual([...pending].sort());
    first.stop();
    expect(await first.done, first.m.stderr()).toBe(0);
    expect(first.m.stderr()).toContain(`kept in ${queueFile}`);
    expect(first.m.stderr()).not.toMatch(/database is locked|\n\s+at /);
  } finally {
    await lock.release();
  }
  expect(await acceptedIn(db, pending)).toBe(0);

  const second = listener(db);
  await until(() => /sync: \d+ (person|people) brought up to date/.test(second.m.stderr()), 'the kept people to be synced', 30_000);
  second.stop();
  expect(await second.done, second.m.stderr()).toBe(0);
  expect(second.m.stderr()).toContain('from events an earlier listener answered are synced first');
  expect(await acceptedIn(db, pending)).toBe(pending.length);
  expect(existsSync(`${db}.listen-pending.json`)).toBe(false);
}, 90_000);
