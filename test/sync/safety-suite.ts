/**
 * What `jobfit sync` refuses, and what survives: kill -9 of the CLI process
 * mid-sync then a rerun equals one clean sync; a second sync while one runs
 * is refused in one sentence (the lock lives in the database); a newer schema,
 * a file that is not ours, the other mode's key are refused and nothing is
 * changed; items that fail are exit 3 and fetched by the next run. Run once
 * per backend (safety.test.ts, safety-pg.test.ts); the file checks are SQLite's.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StubEnv } from '../commands/stub-env.js';
import { ROOT } from '../e2e/built.js';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';
import { type Backend, count, dumpOf, exec, lastRun, query, seededStub } from './helpers.js';

export function safetySuite(backend: Backend): void {
  let big: StubEnv;
  /** A small account for the refusals: they need a database, not a long sync. */
  let env: StubEnv;

  const sqlite = backend.name === 'sqlite';
  beforeAll(async () => {
    await backend.setup();
    [big, env] = await Promise.all([seededStub(1000), seededStub(150)]);
  }, 60_000);

  afterAll(async () => {
    await big?.close();
    await env?.close();
    await backend.teardown();
  });

  const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // Two syncs of 1,000 people each: on PostgreSQL (keys checked, JSONB parsed) about 45 s alone on the shared VM.
  describe('kill -9 mid-sync, then again', () => {
    it('refuses a second sync while the first runs, and the rerun equals one clean sync', async () => {
      const db = await backend.target(big, 'results');
      // The CLI from source in its own process (a build here would race the e2e tests' builds of dist/).
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'sync', '--db', db, '--sp', 'sales-rep', '--concurrency', '2'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: big.tmp('jobfit-sync-home-'), JOBFIT_CONFIG_DIR: big.tmp('jobfit-sync-config-'), NO_COLOR: '1', ...big.env },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      try {
        for (let i = 0; i < 800 && (await count(db, 'test_takers')) < 200; i++) await sleep(25);
        expect(await count(db, 'test_takers')).toBeGreaterThanOrEqual(200);

        // The lock is a row in the database, no file beside it.
        if (sqlite) expect(existsSync(`${db}.lock`)).toBe(false);
        const second = await runCli(['sync', '--db', db], { env: big.env });
        expect(second.code).toBe(2);
        expect(second.stderr.trim().split('\n')[0]).toMatch(new RegExp(`^Error: .* is being synced by process ${child.pid} \\(started .*\\); try again when it has finished\\.$`));
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe(null);
      expect(await count(db, 'test_takers')).toBeLessThan(900);

      const rerun = await runCli(['sync', '--db', db], { env: big.env });
      expect(rerun.code, rerun.stderr).toBe(0);
      const clean = await backend.target(big, 'clean');
      const once = await runCli(['sync', '--db', clean, '--sp', 'sales-rep'], { env: big.env });
      expect(once.code, once.stderr).toBe(0);
      expect(await dumpOf(db)).toBe(await dumpOf(clean));
      // the killed run stays on record as never finished
      expect((await query<{ status: string }>(db, 'SELECT status FROM sync_runs ORDER BY id')).map((r) => r.status)).toEqual(['running', 'ok']);
      if (sqlite) expect(statSync(db).mode & 0o777).toBe(0o600);
    }, 120_000);
  });

  describe('Ctrl-C mid-sync', () => {
    it('stops with 130, says what was kept, records the run as interrupted; the rerun finishes', async () => {
      const db = await backend.target(big, 'interrupted');
      const ac = new AbortController();
      const running = runCli(['sync', '--db', db, '--sp', 'sales-rep', '--concurrency', '2'], { env: big.env, signal: ac.signal });
      for (let i = 0; i < 800 && (await count(db, 'test_takers')) < 100; i++) await sleep(25);
      ac.abort(new Error('interrupted'));
      const res = await running;
      expect(res.code).toBe(130);
      expect(res.stderr).toMatch(/^Error: Interrupted: [\d,]+ of [\d,]+ people were synced and kept; run the same command again to finish\.$/m);
      expect((await lastRun(db)).status).toBe('interrupted');
      const kept = await count(db, 'test_takers');
      expect(kept).toBeGreaterThanOrEqual(100);
      const rerun = await runCli(['sync', '--db', db], { env: big.env });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect((await lastRun(db)).by.test_taker).toBeLessThan(await count(db, 'test_takers'));
    }, 120_000);
  });

  describe('refusals change nothing', () => {
    it('a database written by a newer jobfit', async () => {
      const db = await backend.target(env, 'newer');
      expect((await runCli(['sync', '--db', db], { env: env.env })).code).toBe(0);
      const rows = await count(db, 'invitations');
      const version = (await query<{ value: string }>(db, `SELECT value FROM sync_meta WHERE key = 'schema_version'`))[0].value;
      await exec(db, `UPDATE sync_meta SET value = '99' WHERE key = 'schema_version'`);
      const before = sqlite ? sha(db) : '';
      const res = await runCli(['sync', '--db', db], { env: env.env });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/ was written by a newer jobfit \(database schema 99; this jobfit knows up to 2\); nothing was changed\./);
      if (sqlite) expect(sha(db)).toBe(before);
      await exec(db, `UPDATE sync_meta SET value = '${version}' WHERE key = 'schema_version'`);
      expect(await count(db, 'invitations')).toBe(rows);
      expect(await count(db, 'sync_runs')).toBe(1);
    }, 30_000);

    it.runIf(sqlite)('a file that is not a database, and a database sync did not create', async () => {
      const text = `${env.tmp()}/notes.sqlite`;
      writeFileSync(text, 'my notes, not a database\n'.repeat(100));
      const before = sha(text);
      const res = await runCli(['sync', '--db', text], { env: env.env });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/notes\.sqlite is not a SQLite database; nothing was changed\./);
      expect(sha(text)).toBe(before);

      const other = `${env.tmp()}/other.sqlite`;
      const d = new Database(other);
      d.exec('CREATE TABLE mine (x); INSERT INTO mine VALUES (1)');
      d.close();
      const otherBefore = sha(other);
      const res2 = await runCli(['sync', '--db', other], { env: env.env });
      expect(res2.code).toBe(2);
      expect(res2.stderr).toMatch(/other\.sqlite is a SQLite database that jobfit sync did not create; nothing was changed\./);
      expect(sha(other)).toBe(otherBefore);
    });

    it.runIf(!sqlite)('a database that already has tables of its own', async () => {
      const db = await backend.target(env, 'foreign');
      await exec(db, 'CREATE TABLE mine (x INTEGER)');
      const res = await runCli(['sync', '--db', db], { env: env.env });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/already has tables that jobfit sync did not create; nothing was changed\./);
      expect(res.stderr).not.toMatch(/:[^@/]*@/); // no password in messages
    });

    it('test keys sync their fakes into a database marked test; a live key is then refused (and the reverse)', async () => {
      const db = await backend.target(env, 'test-mode');
      const testEnv = { ...env.env, JOBFIT_API_KEY: env.test };
      const first = await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env: testEnv });
      expect(first.code, first.stderr).toBe(0);
      expect((await query<{ value: string }>(db, `SELECT value FROM sync_meta WHERE key = 'mode'`))[0].value).toBe('test');
      expect(await count(db, 'invitations')).toBeGreaterThan(0);
      // A test key's lists are fakes: no test-taker list is read to add them up.
      expect((await lastRun(db)).by.test_taker_list).toBeUndefined();
      const live = await runCli(['sync', '--db', db], { env: env.env });
      expect(live.code).toBe(4);
      expect(live.stderr).toMatch(/ holds test-mode data and this run uses a live key; one database never mixes modes\./);

      const liveDb = await backend.target(env, 'live');
      expect((await runCli(['sync', '--db', liveDb], { env: env.env })).code).toBe(0);
      const rows = await count(liveDb, 'invitations');
      const runs = await count(liveDb, 'sync_runs');
      const mixed = await runCli(['sync', '--db', liveDb], { env: testEnv });
      expect(mixed.code).toBe(4);
      expect(await count(liveDb, 'invitations')).toBe(rows);
      expect(await count(liveDb, 'sync_runs')).toBe(runs);
    }, 30_000);

    it.runIf(sqlite)('bad flags: one sentence, exit 2', async () => {
      const db = `${env.tmp()}/flags.sqlite`;
      const watch = await runCli(['sync', '--db', db, '--watch', 'soon'], { env: env.env });
      expect([watch.code, watch.stderr.trim().split('\n')[0]]).toEqual([2, 'Error: --watch: "soon" is not a duration such as 30s, 15m or 1h.']);
      const sp = await runCli(['sync', '--db', db, '--sp', 'no-such-profile'], { env: env.env });
      expect(sp.code).toBe(2);
      expect(sp.stderr).toMatch(/Unknown score profile for --sp: no-such-profile\./);
      const badKey = await runCli(['sync', '--db', db], { env: { ...env.env, JOBFIT_API_KEY: 'sk_live_not_a_key_of_this_service' } });
      expect(badKey.code).toBe(4);
      expect(badKey.stderr).not.toMatch(/Stopped/);
      const none = await runCli(['sync'], { env: env.env });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/--db: is required/);
    });
  });

  describe('items that fail', () => {
    let proxy: FaultServer;
    let failing = true;
    /** After this many requests every answer is a 503 (the service is gone). */
    let goneAfter = Number.POSITIVE_INFINITY;
    let seen = 0;
    beforeAll(async () => {
      // The real stub behind the fault server, refusing every job-fit report while `failing`.
      const target = new URL(env.stub.url);
      proxy = await startFaultServer({ upstream: target.origin });
      proxy.faults.push((req, res) => {
        if (++seen > goneAfter) {
          res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
          return true;
        }
        if (failing && /\/job-fit-report$/.test(req.url)) return send(res, 400, { error: 'Report temporarily unavailable' });
        return false;
      });
    });
    afterAll(() => proxy.close());

    it('exit 3 with the count; the next run fetches them', async () => {
      const db = await backend.target(env, 'partial');
      const base = `${proxy.url}${new URL(env.stub.url).pathname}`;
      const errorsFile = `${env.tmp()}/errors.ndjson`;
      const res = await runCli(['sync', '--db', db, '--sp', 'sales-rep', '--errors', errorsFile], { env: { ...env.env, JOBFIT_BASE_URL: base } });
      expect(res.code).toBe(3);
      const failed = (await lastRun(db)).errors;
      const records = readFileSync(errorsFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; status: string; error: string; http_status: number });
      expect(records).toHaveLength(failed);
      expect(records[0]).toMatchObject({ status: 'failed', error: 'Report temporarily unavailable (HTTP 400)', http_status: 400 });
      expect(records.every((r) => /^test taker \d+ \(job-fit report\)$/.test(r.id))).toBe(true);
      expect(failed).toBeGreaterThan(10);
      expect(res.stderr).toMatch(new RegExp(`Error: ${failed.toLocaleString('en-US')} items could not be fetched; everything else was stored, and the next run tries them again\\.\nHint: the failures are listed in `));
      expect(await count(db, 'job_fit_reports')).toBe(0);
      failing = false;
      const again = await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env: { ...env.env, JOBFIT_BASE_URL: base } });
      expect(again.code, again.stderr).toBe(0);
      expect((await lastRun(db)).by.job_fit_report).toBe(failed);
      expect(await count(db, 'job_fit_reports')).toBe(failed);
    }, 30_000);

    it('the service gone mid-sync: stops at once with what was kept and how to resume, exit 1; the rerun finishes', async () => {
      const db = await backend.target(env, 'gone');
      const base = `${proxy.url}${new URL(env.stub.url).pathname}`;
      failing = false;
      seen = 0;
      goneAfter = 80;
      const started = Date.now();
      const res = await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env: { ...env.env, JOBFIT_BASE_URL: base, JOBFIT_BREAKER_SECONDS: '1' } });
      expect(res.code).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(res.stderr).toMatch(/^Warning: Stopped: [\d,]+ of [\d,]+ people were synced and kept; run the same command again to resume\.$/m);
      expect(res.stderr).toMatch(/failed every request/);
      expect((await lastRun(db)).status).toBe('failed');
      goneAfter = Number.POSITIVE_INFINITY;
      const again = await runCli(['sync', '--db', db], { env: { ...env.env, JOBFIT_BASE_URL: base } });
      expect(again.code, again.stderr).toBe(0);
      expect(await count(db, 'test_takers')).toBe(env.stub.store.all<{ n: number }>('SELECT COUNT(*) AS n FROM test_takers WHERE account_id = 1')[0].n);
    }, 30_000);
  });
}
