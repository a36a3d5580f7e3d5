/**
 * The service killed 1.5 s into `scorecard --all` over 10,000 test takers
 * (the stub in its own process, `kill -9`): the export exits non-zero well
 * within 60 s with a few lines on stderr, a stdout export ends with the
 * incomplete mark, and `--out FILE` leaves an existing FILE as it was.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCOMPLETE_MARK } from '../../src/export/target.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { startStub } from '../helpers/stub.js';
import { until } from '../helpers/until.js';

let cli: BuiltCli;
let data: string;

beforeAll(() => {
  cli = buildCli();
  data = join(cli.dir, 'stub-data');
  const seeded = cli.run(['stub', 'seed', '--test-takers', '10000', '--teams', '3', '--data', data]);
  expect(seeded.code, seeded.stderr).toBe(0);
}, 60_000);

afterAll(() => cli?.close());

/** `stub serve` in its own process (test/helpers/stub.ts, where: 'serve'), with its URL and live key once it listens. */
async function serve(): Promise<{ child: ChildProcess; url: string; key: string }> {
  // A little latency so that 10,000 scorecards take several seconds.
  const s = await startStub({
    where: 'serve',
    dataDir: data,
    faults: 'latency=8,seed=3',
    env: { PATH: process.env.PATH ?? '', HOME: join(cli.dir, 'home'), NO_COLOR: '1' },
  });
  return { child: s.child!, url: s.url, key: s.liveKey };
}

/**
 * Runs the built CLI against a served stub and kills the stub once the run is
 * under way (`underWay` holds: rows on stdout, or the run's temporary file
 * beside the --out file), not after a fixed time.
 */
async function killedMidRun(args: string[], underWay: (stdout: string) => boolean) {
  const stub = await serve();
  const started = Date.now();
  const child = spawn(process.execPath, [cli.bin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: join(cli.dir, 'home'), NO_COLOR: '1', JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  await until(() => underWay(stdout) || child.exitCode !== null, 'the run to be under way', 30_000);
  stub.child.kill('SIGKILL');
  const code = await exited;
  return { code, stdout, stderr, seconds: (Date.now() - started) / 1000 };
}

describe('the service killed mid-run (once rows are written) in scorecard --all over 10,000', () => {
  it('stdout: exit 1 within 60 s, a few lines on stderr, the output ends with the incomplete mark', async () => {
    const res = await killedMidRun(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv'], (out) => out.split('\n').length > 3);
    expect(res.code, res.stderr).toBe(1);
    expect(res.seconds).toBeLessThan(60);
    const lines = res.stderr.trim().split('\n');
    expect(lines.length, res.stderr).toBeLessThanOrEqual(6);
    expect(res.stderr).toMatch(/^Stopped after [\d,]+ test takers: [\d,]+ written, [\d,]+ without results yet, [\d,]+ failed, [\d,]+ not done/m);
    expect(res.stderr).toMatch(/The output is incomplete: [\d,]+ scorecards were written/);
    expect(res.stderr).toMatch(/failed every request/);
    const out = res.stdout.trimEnd().split('\n');
    expect(out.at(-1)).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ scorecards written before the run stopped`));
  }, 90_000);

  it('--out FILE: an existing FILE is left as it was, and no temporary file stays behind', async () => {
    const file = join(cli.dir, 'scorecards.csv');
    writeFileSync(file, 'yesterday,s,export\n');
    const res = await killedMidRun(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', file], () => readdirSync(cli.dir).some((f) => f !== 'scorecards.csv' && f.includes('scorecards.csv')));
    expect(res.code, res.stderr).toBe(1);
    expect(res.seconds).toBeLessThan(60);
    expect(res.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('yesterday,s,export\n');
    expect(res.stderr).toContain(`${file} was not written`);
    expect(readdirSync(cli.dir).filter((f) => (f.includes('.partial') || f.endsWith('.jobfit-tmp')))).toEqual([]);
    expect(existsSync(file)).toBe(true);
  }, 90_000);
});
