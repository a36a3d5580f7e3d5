/**
 * Ctrl-C during a bulk run of the built jobfit ends it with 130, the results
 * holding every row sent, and `--resume` finishes it with exactly N invitations
 * (issue 40: on Windows too). Standard output and error go to files, as a
 * console's would: under Wine (JOBFIT_E2E_WINE=1) node.exe then runs without the
 * stdio relay (WINE_NODE_DIRECT=1), so SIGINT reaches it as Windows' Ctrl-C
 * event and jobfit itself stops the run (the relay would end it by force).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { until } from '../helpers/until.js';
import { countInvitations, INVITER, writePeople } from '../bulk/helpers/data.js';
import { type BuiltCli, buildCli, pathForJobfit, spawnedOnWindows } from './built.js';

const N = 400;
let cli: BuiltCli;
let stub: StartedStub;
let dir: string;

beforeAll(async () => {
  cli = buildCli();
  dir = join(cli.dir, 'ctrl-c');
  mkdirSync(dir);
  stub = await startStub({ dataDir: join(dir, 'stub'), faults: 'latency=20' });
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  cli?.close();
});

/** jobfit with stdout and stderr in files; resolves with the exit code and what it said on stderr. */
function run(args: string[]): { child: ReturnType<typeof spawn>; ended: Promise<{ code: number | null; stderr: string }> } {
  const errFile = join(dir, `stderr-${Date.now()}.txt`);
  const out = openSync(join(dir, 'stdout.txt'), 'a');
  const err = openSync(errFile, 'w');
  const env: Record<string, string> = {
    PATH: cli.path,
    HOME: join(cli.dir, 'home'),
    NO_COLOR: '1',
    JOBFIT_CONFIG_DIR: pathForJobfit(join(dir, 'config')),
    JOBFIT_BASE_URL: stub.url,
    JOBFIT_API_KEY: stub.keys[0].live_key,
    ...(spawnedOnWindows ? { WINE_NODE_DIRECT: '1' } : {}),
  };
  const child = spawn(cli.command, [...cli.prefix, ...args], { env, cwd: dir, stdio: ['ignore', out, err] });
  closeSync(out);
  closeSync(err);
  const ended = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr: readFileSync(errFile, 'utf8') })));
  return { child, ended };
}

describe('Ctrl-C during a bulk invite', () => {
  it(`exit 130, the results hold the rows sent, and --resume leaves exactly ${N} invitations`, async () => {
    const csv = join(dir, 'people.csv');
    const results = join(dir, 'people.results.csv');
    writePeople(csv, N, 'ctrlc');
    const args = ['invite', '--csv', pathForJobfit(csv), '--out', pathForJobfit(results), '--created-by', INVITER, '--concurrency', '1', '--yes'];
    const { child, ended } = run(args);
    const journal = `${results}.journal.ndjson`;
    const done = () => (existsSync(journal) ? (readFileSync(journal, 'utf8').match(/"t":"done"/g) ?? []).length : 0);
    await until(() => done() >= 20 || child.exitCode !== null, 'the first rows sent', 60_000);
    expect(child.exitCode, 'the run ended before Ctrl-C').toBeNull();
    child.kill('SIGINT');
    const r = await ended;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(new RegExp(`^${N} rows: \\d+ created, 0 exists, 0 invalid, 0 failed, \\d+ not sent`, 'm'));
    expect(r.stderr).toContain('Resume with:');
    const created = readFileSync(results, 'utf8').split('\n').filter((l) => l.includes(',created,')).length;
    expect(created).toBeGreaterThanOrEqual(20);
    expect(created).toBe(done());

    const again = run([...args, '--resume']);
    const r2 = await again.ended;
    expect(r2.code, r2.stderr).toBe(0);
    expect(await countInvitations(join(dir, 'stub'), 'ctrlc')).toEqual({ total: N, distinct: N });
  }, 300_000);
});
