/**
 * The built binary against the stub in its own process, where the process
 * boundary is the point: the service stopped mid-run (the run ends, keeps what
 * was done, and --resume against the restarted stub completes it exactly), a
 * refused --resume that leaves every file as it was, and one writer per
 * results file.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countInvitations, INVITER, writePeople } from './helpers/data.js';
import { type StubProcess, startStubProcess } from './helpers/stub-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/jobfit.js');
let dir: string;
const stubs: StubProcess[] = [];

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/main.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  dir = mkdtempSync(join(tmpdir(), 'jobfit-bulk-stop-'));
}, 120_000);
afterAll(async () => {
  for (const s of stubs) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function stub(opts: { faults?: string; dataDir?: string } = {}): Promise<StubProcess> {
  const s = await startStubProcess({ ...opts, configDir: join(dir, 'config') });
  stubs.push(s);
  return s;
}

function jobfit(s: StubProcess, args: string[]) {
  return spawn(process.execPath, [BIN, 'invite', ...args], {
    env: { ...process.env, JOBFIT_BASE_URL: s.url, JOBFIT_API_KEY: s.liveKey, JOBFIT_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Milliseconds from start to exit. */
  ms: number;
}

function finish(child: ChildProcess): Promise<Ended> {
  const t0 = Date.now();
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  child.stdout!.resume();
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, stderr, ms: Date.now() - t0 })));
}

const count = (file: string, re: RegExp) => (existsSync(file) ? (readFileSync(file, 'utf8').match(re) ?? []).length : 0);

async function until(cond: () => boolean, child: ChildProcess): Promise<void> {
  while (!cond() && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
}

it('the service stopped after 500 of 3,000 rows: the run ends within 30 s (exit 1), keeps the 500, and --resume creates exactly the rest', async () => {
  const N = 3000;
  const s1 = await stub({ faults: 'latency=10' });
  const csv = join(dir, 'gone.csv');
  const out = join(dir, 'gone.results.csv');
  const journal = `${out}.journal.ndjson`;
  writePeople(csv, N, 'gone');
  const args = ['--csv', csv, '--out', out, '--created-by', INVITER];

  const run = jobfit(s1, args);
  const ended = finish(run);
  await until(() => count(journal, /"t":"done"/g) >= 500, run);
  s1.child.kill('SIGKILL');
  const stoppedAt = Date.now();
  const r = await ended;
  const after = Date.now() - stoppedAt;
  expect(r.code, r.stderr).toBe(1);
  expect(after, r.stderr).toBeLessThan(30_000);
  expect(r.stderr).toContain(`The service at ${s1.url}`);
  expect(r.stderr).toContain(`jobfit invite --csv ${csv} --out ${out} --resume --created-by ${INVITER}`);
  // Without a terminal the wait is not silent: a progress line every few seconds.
  expect((r.stderr.match(/^Inviting: [\d,]+ of 3,000 rows/gm) ?? []).length, r.stderr).toBeGreaterThanOrEqual(2);
  // Errors are summarised, not printed once per row.
  expect(r.stderr.split('\n').length, r.stderr).toBeLessThan(20);

  const done = count(journal, /"t":"done"/g);
  expect(done, r.stderr).toBeGreaterThanOrEqual(500);
  expect(done, r.stderr).toBeLessThan(N);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(N + 1);
  expect(lines.filter((l) => l.includes(',created,'))).toHaveLength(done);
  expect(lines.filter((l) => /,(not_sent|unknown),/.test(l))).toHaveLength(N - done);
  expect(count(journal, /"t":"end"/g)).toBe(0);
  const before = await countInvitations(s1.dataDir, 'gone');
  expect(before.total).toBe(before.distinct);
  expect(before.total).toBeGreaterThanOrEqual(done);

  // The stub is back on the same data: --resume completes the run, nothing twice.
  const s2 = await stub({ dataDir: s1.dataDir });
  const r2 = await finish(jobfit(s2, [...args, '--resume']));
  expect(r2.code, r2.stderr).toBe(0);
  await s2.kill();
  expect(await countInvitations(s1.dataDir, 'gone')).toEqual({ total: N, distinct: N });
  const resumed = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(resumed).toHaveLength(N + 1);
  expect(resumed.filter((l) => l.includes(',created,'))).toHaveLength(N);
  // From the earlier run: the rows it recorded, and those in flight at the stop that the service had stored (found by email).
  const m = /3,000 rows: 3,000 created, 0 exists, 0 invalid, 0 failed, 0 not sent \(([\d,]+) from the earlier run\)/.exec(r2.stderr);
  expect(m, r2.stderr).not.toBeNull();
  const earlier = Number(m![1].replace(/,/g, ''));
  const unanswered = lines.filter((l) => l.includes(',unknown,')).length;
  expect(earlier).toBeGreaterThanOrEqual(done);
  expect(earlier).toBeLessThanOrEqual(done + unanswered);
}, 90_000);

it('a service whose writes all fail (5xx) while reads work: the run stops after a few rows (exit 1), --resume completes it', async () => {
  const N = 300;
  const s1 = await stub({ faults: '5xx=1,only=writes' });
  const csv = join(dir, 'writes.csv');
  const out = join(dir, 'writes.results.csv');
  writePeople(csv, N, 'writes');
  const args = ['--csv', csv, '--out', out, '--created-by', INVITER];
  const r = await finish(jobfit(s1, args));
  expect(r.code, r.stderr).toBe(1);
  expect(r.ms, r.stderr).toBeLessThan(40_000);
  expect(r.stderr).toMatch(new RegExp(`The service at ${s1.url.replace(/[.]/g, '\\.')} did not answer 8 rows in a row \\(last: .+\\); stopped\\.`));
  expect(r.stderr).toContain(`jobfit invite --csv ${csv} --out ${out} --resume --created-by ${INVITER}`);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(N + 1);
  expect(lines.filter((l) => /,(failed|unknown),/.test(l)).length).toBeLessThan(30);
  expect(lines.filter((l) => l.includes(',not_sent,')).length).toBeGreaterThan(N - 30);
  await s1.kill();

  const s2 = await stub({ dataDir: s1.dataDir });
  const r2 = await finish(jobfit(s2, [...args, '--resume']));
  expect(r2.code, r2.stderr).toBe(0);
  await s2.kill();
  expect(await countInvitations(s1.dataDir, 'writes')).toEqual({ total: N, distinct: N });
}, 90_000);

it('a --resume refused because the CSV changed writes nothing: results and journal stay as they were', async () => {
  const s = await stub({ faults: 'latency=5' });
  const csv = join(dir, 'edited.csv');
  const out = join(dir, 'edited.results.csv');
  const journal = `${out}.journal.ndjson`;
  writePeople(csv, 1500, 'edited');
  const args = ['--csv', csv, '--out', out, '--created-by', INVITER];
  const run = jobfit(s, args);
  const ended = finish(run);
  await until(() => count(journal, /"t":"done"/g) >= 300, run);
  run.kill('SIGINT');
  const r1 = await ended;
  expect(r1.code, r1.stderr).toBe(130);
  const results = readFileSync(out);
  const journalBytes = readFileSync(journal);
  expect(results.toString().trimEnd().split('\n')).toHaveLength(1501);

  writeFileSync(csv, readFileSync(csv, 'utf8').replace('p5.edited@example.com', 'someone.else@example.com'));
  const r2 = await finish(jobfit(s, [...args, '--resume']));
  expect(r2.code).toBe(2);
  expect(r2.stderr).toContain('The file changed since the interrupted run: row 5 was p5.edited@example.com, now someone.else@example.com');
  expect(readFileSync(out).equals(results)).toBe(true);
  expect(readFileSync(journal).equals(journalBytes)).toBe(true);
}, 60_000);

it('one writer per results file: a second run, with or without --resume, exits 2 within 3 s naming the first; the first is exact', async () => {
  const N = 2000;
  const s = await stub({ faults: 'latency=5' });
  const csv = join(dir, 'twice.csv');
  const out = join(dir, 'twice.results.csv');
  const journal = `${out}.journal.ndjson`;
  writePeople(csv, N, 'twice');
  const args = ['--csv', csv, '--out', out, '--created-by', INVITER];
  const first = jobfit(s, args);
  const ended = finish(first);
  await until(() => count(journal, /"t":"done"/g) >= 100, first);
  expect(first.exitCode).toBe(null);
  for (const more of [[], ['--resume']]) {
    const r = await finish(jobfit(s, [...args, ...more]));
    expect(r.code, r.stderr).toBe(2);
    expect(r.ms).toBeLessThan(3000);
    expect(r.stderr).toContain(`${out} is in use by process ${first.pid}`);
    expect(r.stderr).not.toContain('did not finish');
  }
  expect(first.exitCode).toBe(null);
  const r1 = await ended;
  expect(r1.code, r1.stderr).toBe(0);
  expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(N + 1);
  expect(count(journal, /"t":"end"/g)).toBe(1);
  expect(count(journal, /"t":"begin"/g)).toBe(1);
  expect(existsSync(`${out}.lock`)).toBe(false);
  expect(statSync(out).mode & 0o777).toBe(0o600);
  await s.kill();
  expect(await countInvitations(s.dataDir, 'twice')).toEqual({ total: N, distinct: N });
}, 60_000);
