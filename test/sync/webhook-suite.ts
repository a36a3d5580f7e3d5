/**
 * `webhook listen --sync DB` against the stub: the people the events name are
 * brought up to date as the events arrive, and the database ends equal to a
 * fresh full sync; a file that is not a sync database is refused before
 * listening starts. Run once per backend (webhook.test.ts, webhook-pg.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { RunningStub } from '../../src/stub/index.js';
import { accept, complete } from '../../src/stub/lifecycle.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { startStub } from '../helpers/stub.js';
import { type Backend, count, dumpOf, lastRun } from './helpers.js';

export function webhookSuite(backend: Backend): void {
  let dir: string;
  let dataDir: string;
  let stub: RunningStub;
  let env: Record<string, string>;

  beforeAll(async () => {
    await backend.setup();
    dir = mkdtempSync(join(tmpdir(), 'jobfit-sync-hook-'));
    dataDir = join(dir, 'stub');
    stub = (await startStub({ dataDir })).server!;
    const team = stub.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id')[0];
    await stub.store.seedPeople(1, team.id, 150, { mix: { pending: 0.2, accepted: 0.2, partial: 0.2, complete: 0.4 } });
    env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key, JOBFIT_CONFIG_DIR: join(dir, 'config') };
  }, 30_000);

  afterAll(async () => {
    await stub?.close();
    rmSync(dir, { recursive: true, force: true });
    await backend.teardown();
  });

  /** A target for --db: StubEnv-free, so a stub started here can be used. */
  const target = (name: string) => (backend.name === 'sqlite' ? Promise.resolve(join(dir, `${name}.sqlite`)) : backend.target(undefined as never, name));

  const until = async (cond: () => boolean, what: string) => {
    for (let i = 0; i < 300; i++) {
      if (cond()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it('applies what the events name as they arrive; the database equals a fresh sync', async () => {
    const db = await target('results');
    expect((await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env })).code).toBe(0);
    const runsBefore = await count(db, 'sync_runs');

    const ac = new AbortController();
    const m = memoryIO({ env, signal: ac.signal });
    const done = run(['webhook', 'listen', '--data', dataDir, '--sync', db], m.io);
    await until(() => m.stderr().includes('Press Ctrl-C'), 'the listener');

    const pending = stub.store.all<{ id: number }>('SELECT id FROM invitations WHERE account_id = 1 AND accepted_at IS NULL ORDER BY id LIMIT 2');
    const open = stub.store.all<{ id: number }>(
      `SELECT DISTINCT a.test_taker_id AS id FROM assigned_assessments a JOIN test_takers t ON t.id = a.test_taker_id
       WHERE t.account_id = 1 AND a.completed_at IS NULL ORDER BY id LIMIT 3`,
    );
    for (const p of pending) accept(stub.store, p.id);
    for (const t of open) complete(stub.store, t.id);
    await flushDeliveries();
    const changed = new Set([...pending.map((p) => p.id), ...open.map((t) => stub.store.all<{ i: number }>('SELECT invitation_id AS i FROM test_takers WHERE id = ?', t.id)[0].i)]);
    const synced = () => [...m.stderr().matchAll(/sync: (\d+) (?:person|people) brought up to date/g)].reduce((n, x) => n + Number(x[1]), 0);
    await until(() => synced() >= changed.size, 'the events to be applied');

    ac.abort();
    expect(await done).toBe(0);
    const runs = await count(db, 'sync_runs');
    expect(runs).toBeGreaterThan(runsBefore);
    // Event-driven runs list nothing: they fetch only the people named.
    expect((await lastRun(db)).by.invitation_list ?? 0).toBe(0);

    const fresh = await target('fresh');
    expect((await runCli(['sync', '--db', fresh, '--sp', 'sales-rep'], { env })).code).toBe(0);
    expect(await dumpOf(db)).toBe(await dumpOf(fresh));
  }, 40_000);

  it.runIf(backend.name === 'sqlite')('a file that is not a sync database is refused before listening', async () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a database\n'.repeat(50));
    const r = await runCli(['webhook', 'listen', '--no-stub', '--sync', notes], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/notes\.txt is not a SQLite database; nothing was changed\./);
    expect(r.stderr).not.toMatch(/Listening/);
  });
}
