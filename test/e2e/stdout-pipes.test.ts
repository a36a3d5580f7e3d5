/**
 * The built binary's stdout when it is not a terminal (src/core/io.ts:
 * DescriptorOut writes it with a synchronous write on the descriptor, and
 * createProcessIO / cli/main.ts decide what a failed write means), on the
 * embedded stub of a fresh HOME seeded with about a megabyte of invitations:
 *
 * - a pipe whose write end another process made non-blocking (python3 makes
 *   the pipe, sets O_NONBLOCK, runs jobfit on it and reads slowly): EAGAIN
 *   hands the rest to node's stream; every row arrives whole and once, exit 0;
 * - `| head -1`: the reader goes away (EPIPE), and jobfit's own exit code is
 *   0 with nothing said (test/e2e/walkthrough.test.ts runs `| head -3` at a
 *   terminal, but there the line's code is head's, and 180 rows may all fit
 *   in the pipe before head closes it);
 * - `> /dev/full`: ENOSPC, exit 1 and one sentence naming the file (the
 *   tmpfs cases of test/faults need root; /dev/full does not).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ended, runBuilt, runIntoFullFile } from '../helpers/full-disk.js';
import { skipBecause } from '../helpers/skip.js';
import { type BuiltCli, buildCli, spawnedOnWindows } from './built.js';

const ARGS = ['invitations', 'list', '--all', '-o', 'ndjson'];
const SUMMARY = /^([\d,]+) invitations \(total_count ([\d,]+)\): ([\d,]+) written, 0 failed, in [\d.]+s \([\d,]+\/s\)\.$/m;

let cli: BuiltCli;
let home: string;
let env: Record<string, string>;

beforeAll(() => {
  cli = buildCli();
  home = mkdtempSync(join(tmpdir(), 'jobfit-stdout-pipes-'));
  // A fresh machine: the embedded stub in an empty config directory, then seeded.
  env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'), XDG_CACHE_HOME: join(home, '.cache'), JOBFIT_CONFIG_DIR: join(home, 'config') };
  const seeded = cli.run(['stub', 'seed', '--test-takers', '2000'], { env });
  expect(seeded.code, seeded.stderr).toBe(0);
}, 120_000);
afterAll(() => {
  cli?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** `cmd args`, its stdout and stderr collected, with the built CLI's clean environment and `env`. */
function collect(cmd: string, args: string[]): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { PATH: cli.path, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const noPython = spawnSync('python3', ['-c', 'pass']).status !== 0 && 'python3 (which makes the non-blocking pipe) is missing';

describe('the built jobfit writing its rows into a pipe', () => {
  it.skipIf(skipBecause(noPython))('a write end made non-blocking, read slowly: every row arrives whole and once, the count matches the summary, exit 0', async () => {
    // python3: pipe(), O_NONBLOCK on the write end (jobfit's stdout), a reader 1 ms behind every 4 KiB.
    // It prints what it read and exits with jobfit's code.
    const script = `import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(w, False)
assert not os.get_blocking(w)
p = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
time.sleep(0.3)  # the pipe fills before the first read
while True:
    b = os.read(r, 4096)
    if not b:
        break
    sys.stdout.buffer.write(b)
    time.sleep(0.001)
sys.stdout.flush()
sys.exit(p.wait())`;
    const r = await collect('python3', ['-c', script, cli.command, ...cli.prefix, ...ARGS]);
    expect(r.code, r.stderr).toBe(0);
    const m = SUMMARY.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const [, count, total, written] = m!.map((s) => Number(s.replace(/,/g, '')));
    expect(count).toBe(total);
    expect(written).toBe(total);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(total);
    // About a megabyte: many times the 64 KiB a pipe holds.
    expect(r.stdout.length).toBeGreaterThan(512 * 1024);
    const ids = lines.map((l) => (JSON.parse(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(total);
    // The same rows the same command writes into a regular file (synchronous writes only): nothing
    // repeated, lost or torn where the rest went to node's stream. Compared as sorted lines: a
    // complete list comes in the order its search finds it, which the timing of the answers moves
    // between runs (docs/exports.md, "Order"), and each run is a separate run.
    const file = join(home, 'reference.ndjson');
    const fd = openSync(file, 'w');
    try {
      const ref = await runBuilt(cli, ARGS, { stdout: fd, env, killAfterMs: 60_000 });
      expect(ref.code, ref.stderr).toBe(0);
    } finally {
      closeSync(fd);
    }
    const sorted = (text: string) => text.split('\n').sort().join('\n');
    expect(sorted(r.stdout) === sorted(readFileSync(file, 'utf8')), 'the piped rows differ from the file\'s').toBe(true);
  }, 90_000);

  it('| head -1: the reader closes the pipe early (EPIPE); jobfit itself exits 0 and says nothing of it', async () => {
    const r = await collect('bash', ['-c', '"$0" "$@" | head -1; exit "${PIPESTATUS[0]}"', cli.command, ...cli.prefix, ...ARGS]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toHaveProperty('email');
    expect(r.stderr).not.toMatch(/EPIPE|Error|bug/);
    // It stopped at the closed pipe: no summary claiming every row was written.
    expect(r.stderr).not.toMatch(SUMMARY);
  }, 60_000);
});

describe('the built jobfit writing its rows to a full disk', () => {
  it.skipIf(skipBecause(!existsSync('/dev/full') && 'there is no /dev/full here'))('> /dev/full: exit 1 and one sentence naming /dev/full and ENOSPC', async () => {
    const r = await runIntoFullFile('/dev/full', (fd) => runBuilt(cli, ARGS, { stdout: fd, env, killAfterMs: 60_000 }), spawnedOnWindows ? 'standard output' : '/dev/full');
    expect(r.stderr).toMatch(/what it holds is incomplete\.$/m);
    expect(r.stderr).not.toMatch(/looks like a bug/i);
  }, 60_000);
});
