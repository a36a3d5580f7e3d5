/**
 * `sync --watch`: syncs again every interval, picking up what happened in
 * between, until Ctrl-C (exit 130, the database kept).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { complete } from '../../src/stub/lifecycle.js';
import type { StubEnv } from '../commands/stub-env.js';
import { runCli } from '../helpers/cli.js';
import { lastRun, readDb, seededStub } from './helpers.js';

let env: StubEnv;
beforeAll(async () => {
  env = await seededStub(120);
}, 30_000);
afterAll(async () => {
  await env?.close();
});

it('--watch 10s: a second round fetches what changed meanwhile; Ctrl-C ends it with 130', async () => {
  const db = `${env.tmp()}/watch.sqlite`;
  const ac = new AbortController();
  const runs = () => {
    try {
      return readDb(db, (d) => d.prepare(`SELECT COUNT(*) FROM sync_runs WHERE status = 'ok'`).pluck().get() as number);
    } catch {
      return 0;
    }
  };
  const watching = runCli(['sync', '--db', db, '--sp', 'sales-rep', '--watch', '10s'], { env: env.env, signal: ac.signal });
  for (let i = 0; i < 200 && runs() < 1; i++) await new Promise((r) => setTimeout(r, 50));
  expect(runs()).toBe(1);
  // Someone finishes between the rounds.
  const open = readDb(db, (d) => d.prepare('SELECT id FROM test_takers WHERE assessments_open > 0 ORDER BY id LIMIT 1').pluck().get() as number);
  complete(env.stub.store, open);
  for (let i = 0; i < 400 && runs() < 2; i++) await new Promise((r) => setTimeout(r, 50));
  expect(runs()).toBe(2);
  ac.abort(new Error('interrupted'));
  const res = await watching;
  expect(res.code).toBe(130);
  expect(res.stderr.match(/^Synced /gm)?.length).toBe(2);
  expect(res.stderr).toMatch(/^Next sync in 10\.0s \(Ctrl-C stops\)\.$/m);
  expect(res.stderr).toMatch(/Stopped watching; the database holds the last sync\./);
  expect((await lastRun(db)).by.scorecard).toBe(1);
  // The lock went with the watch.
  expect(readDb(db, (d) => d.prepare('SELECT COUNT(*) FROM sync_lock').pluck().get())).toBe(0);
}, 40_000);
