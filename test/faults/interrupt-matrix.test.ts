/**
 * Issue 43, item 4: the interrupt matrix. Every long command (the `--all`
 * lists, `scorecard --all`, `job-fit --all`, `report`, `sync`, `sync
 * --watch`, bulk invite) run by the built jobfit, on the embedded stub (no
 * configuration: what a new user meets first) and on a served stub (`stub
 * serve` in its own process, a little latency), and stopped mid-run by
 * SIGINT, SIGTERM and SIGHUP sent from outside. Each must end within a
 * second of the signal with 130, 143 or 129, leave no `--out` file (whole,
 * cut or temporary) behind, and say how to run again or resume.
 *
 * Before the fix, the embedded stub's answers were a chain of microtasks that
 * never let node's event loop turn: every embedded run ignored the signal,
 * finished, wrote its `--out` and exited 0.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { writePeople } from '../bulk/helpers/data.js';
import { type StubProcess, startStubProcess } from '../bulk/helpers/stub-process.js';
import { MATRIX, type MatrixRow, SIGNALS, TRANSPORTS, type Transport } from './interrupt-table.js';

/** Test takers seeded on each stub: enough that every command is still running a second after it starts. */
const PEOPLE = 12_000;
/** Rows of the bulk invite. */
const ROWS = 1500;

let tmp: string;
let cli: BuiltCli;
let served: StubProcess;
const embeddedConfig = () => join(tmp, 'embedded-config');
const servedConfig = () => join(tmp, 'served-config');

function envOf(t: Transport): Record<string, string> {
  const base = { PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), NO_COLOR: '1' };
  if (t === 'embedded') return { ...base, JOBFIT_CONFIG_DIR: embeddedConfig() };
  return { ...base, JOBFIT_CONFIG_DIR: servedConfig(), JOBFIT_BASE_URL: served.url, JOBFIT_API_KEY: served.liveKey };
}

function seedStub(env: Record<string, string>, data?: string): void {
  const r = spawnSync(cli.command, [...cli.prefix, 'stub', 'seed', '--test-takers', String(PEOPLE), '--complete', '0.9', ...(data ? ['--data', data] : [])], { env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-interrupts-'));
  mkdirSync(join(tmp, 'home'));
  cli = buildCli();
  seedStub({ PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), JOBFIT_CONFIG_DIR: embeddedConfig() });
  const data = join(tmp, 'served-data');
  mkdirSync(data);
  seedStub({ PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), JOBFIT_CONFIG_DIR: servedConfig() }, data);
  served = await startStubProcess({ dataDir: data, faults: 'latency=2', configDir: servedConfig() });
}, 120_000);

afterAll(async () => {
  await served?.stop();
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Case {
  /** The command line, given the run's own folder. */
  args(dir: string): string[];
  /** The run is under way (its output opened, its first rows done). */
  started(dir: string): boolean;
  /** What must be true of the folder and stderr once it stopped. */
  after(dir: string, stderr: string): void;
}

const tmpIn = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.jobfit-tmp'));

/** The run's files for the table's F, C and R. */
function filled(row: MatrixRow, dir: string): string[] {
  const files: Record<string, string> = {
    F: join(dir, row.kind === 'sync' ? 'results.sqlite' : 'out.file'),
    C: join(dir, 'people.csv'),
    R: join(dir, 'results.csv'),
  };
  if (row.kind === 'invite') writePeople(files.C, ROWS, `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`);
  return row.args.map((a) => files[a] ?? a);
}

/** An export to --out: the temporary file exists while it runs; after the signal nothing is left, and stderr says to run it again. */
function exportCase(rerun: string): Omit<Case, 'args'> {
  return {
    started: tmpIn,
    after(dir, stderr) {
      expect(readdirSync(dir), 'no --out file, whole, cut or temporary').toEqual([]);
      expect(stderr).toContain('was not written');
      // As a hint line, or in the JSON error of -o json.
      expect(stderr).toContain(`run \`${rerun} …\` again`);
    },
  };
}

const syncCase: Omit<Case, 'args'> = {
  started: (dir) => existsSync(join(dir, 'results.sqlite')),
  after(_dir, stderr) {
    expect(stderr).toContain('run the same command again to finish');
  },
};

const inviteCase: Omit<Case, 'args'> = {
  started(dir) {
    const journal = join(dir, 'results.csv.journal.ndjson');
    return existsSync(journal) && (readFileSync(journal, 'utf8').match(/"t":"done"/g) ?? []).length >= 20;
  },
  after(dir, stderr) {
    expect(stderr).toContain('Resume with:');
    const lines = readFileSync(join(dir, 'results.csv'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(ROWS + 1);
    expect(lines.filter((l) => l.includes(',created,')).length).toBeLessThan(ROWS);
  },
};

function caseOf(row: MatrixRow): Case {
  const judge = row.kind === 'export' ? exportCase(row.rerun!) : row.kind === 'sync' ? syncCase : inviteCase;
  return { ...judge, args: (dir) => filled(row, dir) };
}

/**
 * A second, on a machine with a CPU to spare. On one whose load is above its
 * CPUs (CI runners shared by several suites), the time from the signal to the
 * exit is mostly the wait for a CPU: the bound grows with the load, never
 * below a second.
 */
function withinASecond(): number {
  return Math.round(1000 * Math.max(1, loadavg()[0] / Math.max(1, availableParallelism())));
}

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** ms from the signal to the exit. */
  ms: number;
}

async function interrupt(t: Transport, c: Case, dir: string, sig: NodeJS.Signals): Promise<Stopped> {
  const child: ChildProcess = spawn(cli.command, [...cli.prefix, ...c.args(dir)], { env: envOf(t), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on('exit', (code, signal) => res({ code, signal })));
  const deadline = Date.now() + 60_000;
  while (!c.started(dir) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  // A little further in: mid-run, not at its first step.
  await new Promise((r) => setTimeout(r, 250));
  expect(child.exitCode, `the run ended before the signal: ${stderr}`).toBeNull();
  const at = performance.now();
  child.kill(sig);
  const e = await exited;
  return { ...e, stderr, ms: Math.round(performance.now() - at) };
}

// One test per cell of test/faults/interrupt-table.ts (48: the table of docs/faults.md, checked by interrupt-doc.test.ts).
describe.each(TRANSPORTS)('on the %s stub', (t) => {
  describe.each(MATRIX.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    it.each(SIGNALS)('%s: exit %i within a second, no --out left, the rerun or resume line', async (sig, code) => {
      const dir = mkdtempSync(join(tmp, 'run-'));
      const c = caseOf(row);
      const r = await interrupt(t, c, dir, sig);
      // One line per case for docs/faults.md's matrix.
      console.log(`interrupt-matrix | ${row.name} | ${t} | ${sig} | exit ${r.code} | ${r.ms} ms | ${readdirSync(dir).filter((f) => !f.startsWith('people')).join(' ') || '(nothing)'}`);
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(code);
      expect(r.ms, 'from the signal to the exit').toBeLessThan(withinASecond());
      c.after(dir, r.stderr);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }, 90_000);
  });
});
