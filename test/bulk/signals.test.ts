/**
 * An interrupt never loses what was done: SIGINT, SIGTERM and SIGHUP, sent by
 * another process to the built binary, on a bulk invite with a config file
 * present (conf then listens to the same signals and re-raises them). Each
 * ends with the results file holding the rows sent, the summary, the
 * `--resume` command and exit 130, 143 or 129; the resume leaves exactly N
 * distinct invitations. An export to --out stopped the same way leaves no
 * file, partial or not, and says it stopped.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countInvitations, INVITER, writePeople } from './helpers/data.js';
import { type StubProcess, startStubProcess } from './helpers/stub-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/jobfit.js');
/** Rows per run: enough that a run at concurrency 1 is still sending a second after it starts. */
const N = 1500;
let dir: string;
let stub: StubProcess;

const configDir = () => join(dir, 'config');
const env = (s: StubProcess) => ({
  PATH: process.env.PATH ?? '',
  HOME: dir,
  NO_COLOR: '1',
  JOBFIT_BASE_URL: s.url,
  JOBFIT_API_KEY: s.liveKey,
  JOBFIT_CONFIG_DIR: configDir(),
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-bulk-signals-'));
  stub = await startStubProcess({ faults: 'latency=2', configDir: configDir() });
  // The config file the README has a person write: the inviter is taken from it (no --created-by below).
  const set = spawnSync(process.execPath, [BIN, 'config', 'set', 'invite_defaults.created_by', INVITER], { env: env(stub), encoding: 'utf8' });
  expect(set.status, set.stderr).toBe(0);
  expect(existsSync(join(configDir(), 'config.json'))).toBe(true);
}, 60_000);

afterAll(async () => {
  await stub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function start(s: StubProcess, args: string[]): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: env(s), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout!.resume();
  const ended = new Promise<Ended>((res) => child.on('exit', (code, signal) => res({ code, signal, stderr })));
  return { child, ended };
}

const count = (file: string, re: RegExp) => (existsSync(file) ? (readFileSync(file, 'utf8').match(re) ?? []).length : 0);

async function until(cond: () => boolean, child: ChildProcess): Promise<void> {
  while (!cond() && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
}

it.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s during a bulk run with a config file: exit %i, the results hold the rows sent, stderr names --resume; the resume leaves exactly N', async (sig, code) => {
  const tag = `sig${sig.toLowerCase()}`;
  const csv = join(dir, `${tag}.csv`);
  const out = join(dir, `${tag}.results.csv`);
  const journal = `${out}.journal.ndjson`;
  writePeople(csv, N, tag);
  const args = ['invite', '--csv', csv, '--out', out, '--concurrency', '1'];

  const { child, ended } = start(stub, args);
  await until(() => count(journal, /"t":"done"/g) >= 100, child);
  expect(child.exitCode, 'the run ended before the signal').toBeNull();
  child.kill(sig);
  const r = await ended;
  expect(r.signal, r.stderr).toBeNull();
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr).toMatch(new RegExp(`^${N.toLocaleString('en-US')} rows: [\\d,]+ created, 0 exists, 0 invalid, 0 failed, [\\d,]+ not sent`, 'm'));
  expect(r.stderr).toContain(`Resume with:\n  jobfit invite --csv ${csv} --out ${out} --resume --concurrency 1`);

  const done = count(journal, /"t":"done"/g);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(N + 1);
  const created = lines.filter((l) => l.includes(',created,')).length;
  expect(created).toBe(done);
  expect(created).toBeGreaterThanOrEqual(100);
  expect(created).toBeLessThan(N);
  expect(await countInvitations(stub.dataDir, tag)).toEqual({ total: created, distinct: created });
  // Nothing half-written is left beside the results.
  expect(readdirSync(dir).filter((f) => f.startsWith(`.${tag}`) || (f.includes('.partial') || f.endsWith('.jobfit-tmp')))).toEqual([]);

  const again = start(stub, [...args, '--resume']);
  const r2 = await again.ended;
  expect(r2.code, r2.stderr).toBe(0);
  expect(await countInvitations(stub.dataDir, tag)).toEqual({ total: N, distinct: N });
  expect(readFileSync(out, 'utf8').trimEnd().split('\n').filter((l) => l.includes(',created,'))).toHaveLength(N);
}, 120_000);

it.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s during an export to --out: exit %i, a message, and no file (partial or whole) is left', async (sig, code) => {
  // The same data, served slowly: the export is still fetching when the signal comes.
  const slow = await startStubProcess({ dataDir: stub.dataDir, faults: 'latency=250', configDir: configDir() });
  try {
    const outDir = mkdtempSync(join(dir, 'export-'));
    const file = join(outDir, 'invitations.csv');
    const { child, ended } = start(slow, ['invitations', 'list', '--all', '-o', 'csv', '--out', file]);
    await until(() => readdirSync(outDir).some((f) => f.endsWith('.jobfit-tmp')), child);
    expect(child.exitCode, 'the export ended before the signal').toBeNull();
    child.kill(sig);
    const r = await ended;
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(/^Stopped after /m);
    expect(r.stderr).toContain(`Interrupted (${sig})`);
    expect(readdirSync(outDir)).toEqual([]);
  } finally {
    await slow.stop();
  }
}, 60_000);

it('the terminal closed (a real hangup: SIGHUP, and stderr failing with EIO) during a bulk run at a terminal: exit 129, the results hold the rows sent; the resume leaves exactly N', async () => {
  const tag = 'hangup';
  const csv = join(dir, `${tag}.csv`);
  const out = join(dir, `${tag}.results.csv`);
  const journal = `${out}.journal.ndjson`;
  writePeople(csv, N, tag);
  const args = ['invite', '--csv', csv, '--out', out, '--concurrency', '1'];
  const py = spawnSync('python3', [join(import.meta.dirname, 'helpers/hangup.py'), journal, '"t":"done"', '100', process.execPath, BIN, ...args], {
    env: env(stub),
    encoding: 'utf8',
    timeout: 90_000,
  });
  expect(py.status, py.stderr).toBe(0);
  const r = JSON.parse(py.stdout) as { exit: number; closed: boolean };
  expect(r.closed, 'the run ended before the terminal closed').toBe(true);
  expect(r.exit).toBe(129);
  const done = count(journal, /"t":"done"/g);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(N + 1);
  expect(lines.filter((l) => l.includes(',created,')).length).toBe(done);
  expect(await countInvitations(stub.dataDir, tag)).toEqual({ total: done, distinct: done });

  const again = start(stub, [...args, '--resume']);
  const r2 = await again.ended;
  expect(r2.code, r2.stderr).toBe(0);
  expect(await countInvitations(stub.dataDir, tag)).toEqual({ total: N, distinct: N });
}, 120_000);
