/**
 * `sync --watch`: syncs again every interval, picking up what happened in
 * between, until Ctrl-C (exit 130, the database kept). Run once per backend.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { complete } from '../../src/stub/lifecycle.js';
import type { StubEnv } from '../commands/stub-env.js';
import { runCli } from '../helpers/cli.js';
import { type Backend, count, lastRun, query, seededStub } from './helpers.js';

export function watchSuite(backend: Backend): void {
  let env: StubEnv;
  beforeAll(async () => {
    await backend.setup();
    env = await seededStub(120);
  }, 30_000);
  afterAll(async () => {
    await env?.close();
    await backend.teardown();
  });

  it('--watch 10s: a second round fetches what changed meanwhile; Ctrl-C ends it with 130', async () => {
    const db = await backend.target(env, 'watch');
    const ac = new AbortController();
    const runs = async () => {
      try {
        return Number((await query<{ n: number }>(db, `SELECT COUNT(*) AS n FROM sync_runs WHERE status = 'ok'`))[0].n);
      } catch {
        return 0;
      }
    };
    const watching = runCli(['sync', '--db', db, '--sp', 'sales-rep', '--watch', '10s'], { env: env.env, signal: ac.signal });
    for (let i = 0; i < 200 && (await runs()) < 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await runs()).toBe(1);
    // Someone finishes between the rounds.
    const open = (await query<{ id: number }>(db, 'SELECT id FROM test_takers WHERE assessments_open > 0 ORDER BY id LIMIT 1'))[0].id;
    complete(env.stub.store, open);
    for (let i = 0; i < 400 && (await runs()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await runs()).toBe(2);
    ac.abort(new Error('interrupted'));
    const res = await watching;
    expect(res.code).toBe(130);
    expect(res.stderr.match(/^Synced /gm)?.length).toBe(2);
    expect(res.stderr).toMatch(/^Next sync in 10\.0s \(Ctrl-C stops\)\.$/m);
    expect(res.stderr).toMatch(/Stopped watching; the database holds the last sync\./);
    expect((await lastRun(db)).by.scorecard).toBe(1);
    // The lock went with the watch.
    expect(await count(db, 'sync_lock WHERE pid <> 0')).toBe(0);
  }, 40_000);
}
