/**
 * Issue 31 (round three), the built binary against the fault server of our
 * own (test/helpers/fault-server.ts), for the cases of findings 1, 2 and 12
 * and "must hold" 1 and 8 that test/export/write-errors.test.ts and
 * test/bulk/signals.test.ts do not reach:
 *
 * - finding 1: the service killed while the export writes into a real pipe
 *   (exit 1 and the incomplete mark, not 13);
 * - must hold 1: an export that cannot finish into a regular file ends with
 *   the mark too;
 * - finding 2: a full disk under `> FILE` for the test-taker, scorecard and
 *   job-fit exports, and under `scorecard --out` (the old file kept);
 * - must hold 1: a sync database on a full disk is one sentence naming the
 *   file and the cause;
 * - finding 12 / must hold 8: SIGTERM and SIGHUP end an export to a file like
 *   Ctrl-C: 143/129, a message, and the mark.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INCOMPLETE_MARK } from '../../src/export/target.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { FAULT_KEY, type FaultServer, seed, startFaultServer } from '../helpers/fault-server.js';
import { type Ended, fullDisk, mountTmpfs, runBuilt, runIntoFullFile } from '../helpers/full-disk.js';
import { query } from '../sync/helpers.js';
import { until } from '../helpers/until.js';
import { invItem, jobFitRoute, lyingList } from './lists.js';

let tmp: string;
let cli: BuiltCli;
let server: FaultServer | undefined;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-faults-e2e-'));
  cli = buildCli();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * The built CLI against `s`, stdout to a real pipe(2) (`| cat`, as a shell
 * makes; the code is the CLI's own) or to a file descriptor. `started` gets
 * the child once it runs (to signal it).
 */
function runTo(s: FaultServer, args: string[], stdout: 'pipe' | number, extraEnv: Record<string, string> = {}, started?: (pid: number) => void): Promise<Ended> {
  return runBuilt(cli, args, { stdout, env: { JOBFIT_BASE_URL: s.url, JOBFIT_API_KEY: FAULT_KEY, JOBFIT_MAX_RETRIES: '0', ...extraEnv }, killAfterMs: 90_000, started });
}

/** A list answer delayed by `ms`, so that a run is still reading when the test acts. */
const slowLists = (s: FaultServer, ms: number) =>
  s.faults.push(async (req) => {
    if (req.method === 'GET' && (req.path === '/invitations' || req.path === '/test-takers')) await new Promise((r) => setTimeout(r, ms));
    return false;
  });

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe('finding 1: the service killed while the export writes into a pipe', () => {
  it('invitations list --all -o ndjson | cat: exit 1 and the incomplete mark, not 13', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 2500, { team: () => 1 });
    slowLists(s, 10);
    let killed = false;
    // Killed once a dozen pages (well over 64 KiB of rows) have been answered.
    s.afterList = () => {
      if (!killed && s.log.filter((l) => l.startsWith('GET /invitations')).length >= 12) {
        killed = true;
        void s.close();
      }
    };
    const r = await runTo(s, ['invitations', 'list', '--all', '-o', 'ndjson'], 'pipe', { JOBFIT_BREAKER_SECONDS: '2' });
    expect(killed).toBe(true);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.length).toBeGreaterThan(65_536);
    expect(lastLine(r.stdout)).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ invitations written before the run stopped`));
    expect(r.stderr).toMatch(/The output is incomplete/);
  }, 90_000);
});

describe('must hold 1: an export that cannot finish into a regular file', () => {
  it('> FILE with a total_count one too high: exit 1, and FILE ends with the incomplete mark', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 400);
    lyingList(s, '/invitations', invItem, 1);
    const file = join(tmp, 'lie.ndjson');
    const fd = openSync(file, 'w');
    try {
      const r = await runTo(s, ['invitations', 'list', '--all', '-o', 'ndjson'], fd);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/The output is incomplete/);
    } finally {
      closeSync(fd);
    }
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').length).toBeGreaterThan(100);
    expect(lastLine(text)).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ invitations written before the run stopped`));
  }, 60_000);
});

describe('finding 12 / must hold 8: SIGTERM and SIGHUP behave like SIGINT', () => {
  for (const [sig, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${sig} during invitations list --all > FILE: exit ${code}, a message, and FILE ends with the mark`, async () => {
      server = await startFaultServer();
      const s = server;
      seed(s, 2000);
      slowLists(s, 150);
      const file = join(tmp, `${sig}.ndjson`);
      const fd = openSync(file, 'w');
      let pid = 0;
      try {
        const ended = runTo(s, ['invitations', 'list', '--all', '-o', 'ndjson'], fd, {}, (p) => (pid = p));
        await until(() => statSync(file).size > 0, 'rows in the file', 30_000);
        process.kill(pid, sig);
        const r = await ended;
        expect(r.code, r.stderr).toBe(code);
        expect(r.stderr).toContain(`Interrupted (${sig})`);
        expect(r.stderr).toMatch(/^Stopped after /m);
      } finally {
        closeSync(fd);
      }
      expect(lastLine(readFileSync(file, 'utf8'))).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ invitations written before the run stopped`));
    }, 60_000);
  }
});

describe('finding 2 and must hold 1: a full disk', () => {
  const { onTmpfs, emptied } = fullDisk(() => tmp);
  /** 1,000 accepted test takers with results: every export is well over 64 KiB. */
  async function people(): Promise<FaultServer> {
    server = await startFaultServer();
    seed(server, 1000, { accepted: 1000 });
    jobFitRoute(server);
    return server;
  }

  for (const args of [
    ['test-takers', 'list', '--all', '-o', 'ndjson'],
    ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv'],
    ['job-fit', '--all', '-o', 'csv'],
  ]) {
    onTmpfs(`${args.slice(0, 2).join(' ')} > FULL/out: exit 1, one sentence naming the file and ENOSPC`, async () => {
      const s = await people();
      const file = join(emptied(), 'out');
      const r = await runIntoFullFile(file, (fd) => runTo(s, args, fd));
      expect(r.stderr).toMatch(/^1,000 test takers \(total_count 1,000\): 1,000 handed to the output, 0 failed, in [\d.]+s \([\d,]+\/s\); a write to the output failed, so it is incomplete\.$/m);
    }, 60_000);
  }

  onTmpfs('scorecard --all --out FULL/out: exit 1, the old file kept, nothing left beside it', async () => {
    const s = await people();
    const dir = emptied();
    const file = join(dir, 'cards.csv');
    writeFileSync(file, 'yesterday\n');
    const r = await runTo(s, ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', file], 'pipe');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Error: Could not write ${file}: the disk is full (ENOSPC); it was left as it was.`);
    expect(readFileSync(file, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(dir)).toEqual(['cards.csv']);
  }, 60_000);

  onTmpfs('sync --db FULL/sync.sqlite: exit 1, one sentence naming the database and that the disk is full', async () => {
    const s = await people();
    const db = join(emptied(), 'sync.sqlite');
    const r = await runTo(s, ['sync', '--db', db, '--sp', 'sales-rep'], 'pipe');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Error: Could not write the sync database ${db}: the disk is full (SQLITE_FULL).`);
    expect(r.stderr).not.toMatch(/looks like a bug/i);
  }, 60_000);

  onTmpfs('sync filling its disk mid-run (a 1 MiB tmpfs): exit 1, the people kept counted right, how to rerun', async () => {
    const s = await people();
    const dir = join(tmp, 'full-1m');
    mkdirSync(dir);
    const m = mountTmpfs(dir, '1m');
    expect(m.status, m.stderr).toBe(0);
    try {
      const db = join(dir, 'sync.sqlite');
      const r = await runTo(s, ['sync', '--db', db, '--sp', 'sales-rep'], 'pipe');
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`Error: Could not write the sync database ${db}: the disk is full (SQLITE_FULL).`);
      const kept = /Stopped: ([\d,]+) of 1,000 people were synced and kept; run the same command again once the database can be written/.exec(r.stderr);
      expect(kept, r.stderr).not.toBeNull();
      const n = Number(kept![1].replace(/,/g, ''));
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(1000);
      expect(Number((await query<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM invitations'))[0].n)).toBe(n);
    } finally {
      spawnSync('umount', [dir]);
    }
  }, 60_000);
});
