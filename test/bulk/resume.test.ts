/**
 * `kill -9` half way through a 10,000-row run of the built binary, then
 * `--resume`: exactly 10,000 invitations, none twice, 10,000 result lines.
 * Also: without --resume an unfinished run is refused with the resume command.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countInvitations, INVITER, writePeople } from './helpers/data.js';
import { type StubProcess, startStubProcess } from './helpers/stub-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/jobfit.js');
const N = 10_000;
let dir: string;
let stub: StubProcess;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/main.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  dir = mkdtempSync(join(tmpdir(), 'jobfit-bulk-resume-'));
  // Drops after commit too: rows in flight at the kill include some the client was already recovering.
  stub = await startStubProcess({ faults: 'drop=0.01,latency=1,seed=7', configDir: join(dir, 'config') });
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function jobfit(args: string[]) {
  return spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.liveKey, JOBFIT_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finish(child: ReturnType<typeof jobfit>): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  child.stdout!.resume();
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, stderr })));
}

function doneLines(journal: string): number {
  if (!existsSync(journal)) return 0;
  return (readFileSync(journal, 'utf8').match(/"t":"done"/g) ?? []).length;
}

it('kill -9 half way, then --resume: the same exact outcome', async () => {
  const csv = join(dir, 'people.csv');
  const out = join(dir, 'people.results.csv');
  const journal = `${out}.journal.ndjson`;
  writePeople(csv, N, 'resume');
  const args = ['invite', '--csv', csv, '--out', out, '--created-by', INVITER, '--concurrency', '16'];

  const first = jobfit(args);
  const ended = finish(first);
  // Wait until about half the rows have an outcome, then kill without warning.
  for (;;) {
    await new Promise((r) => setTimeout(r, 50));
    if (first.exitCode !== null) break;
    if (statSync(journal, { throwIfNoEntry: false }) && doneLines(journal) >= N / 2) break;
  }
  first.kill('SIGKILL');
  const r1 = await ended;
  expect(r1.signal).toBe('SIGKILL');
  const before = doneLines(journal);
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(N);

  // Without --resume the unfinished run is refused, and the exact command is given.
  const refused = await finish(jobfit(args));
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('did not finish');
  expect(refused.stderr).toContain(`--out ${out} --resume`);

  const r2 = await finish(jobfit([...args, '--resume']));
  expect(r2.code, r2.stderr).toBe(0);
  expect(r2.stderr).toMatch(/10,000 rows: 10,000 created, 0 exists, 0 invalid, 0 failed, 0 not sent \([\d,]+ from the earlier run\)/);

  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(N + 1);
  const ids = new Set<string>();
  for (let i = 1; i <= N; i++) {
    const cells = lines[i].split(',');
    expect(cells.at(-5)).toBe(String(i));
    expect(cells.at(-4)).toBe('created');
    ids.add(cells.at(-3)!);
  }
  expect(ids.size).toBe(N);
  await stub.kill();
  expect(await countInvitations(stub.dataDir, 'resume')).toEqual({ total: N, distinct: N });
}, 120_000);
