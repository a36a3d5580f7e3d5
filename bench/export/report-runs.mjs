// What the report benches share (bench/export/report-html.mjs, fairness.mjs):
// a stub seeded with N test takers over 3 teams, served in its own process
// and reachable as the CLI's embedded stub, and one timed run of the built
// CLI with its own CPU time and peak RSS (bench/export/usage.cjs).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runJobfit, serveStub, stopStub } from '../lib.mjs';

/**
 * A private copy of the built CLI in TMP (bin, dist, fixtures, package.json;
 * node_modules linked): a build or a test run in the working tree while the
 * bench runs cannot change the binary under it. Returns its bin/jobfit.js.
 */
export function privateCopy(root, tmp) {
  const app = join(tmp, 'app');
  for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(root, part), join(app, part), { recursive: true });
  // A junction on Windows (no privilege needed); a plain symlink elsewhere.
  symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'), 'junction');
  return join(app, 'bin/jobfit.js');
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** One process of the CLI: wall time (ms), CPU time (ms), peak RSS (MB) and its stdout; a non-zero exit throws. */
export function timedJobfit(root, bin, args, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', join(root, 'bench/export/usage.cjs'), bin, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`jobfit ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  const kb = Number(/MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1] ?? 0);
  const cpuMs = Number(/CPU_US=(\d+)/.exec(r.stderr)?.[1] ?? 0) / 1000;
  return { ms, cpuMs, rssMb: kb / 1024, stdout: r.stdout };
}

/**
 * `stub seed --test-takers N --teams 3` into TMP/config/stub, then `stub serve`
 * on it. `served` is the running stub (its env points the CLI at it);
 * `embeddedEnv` runs the CLI with no service configured, so it opens the same
 * folder as its embedded stub (the config folder's `stub`). `stop()` ends the server.
 */
export async function seededStub(bin, tmp, n, baseEnv, extra = []) {
  const config = join(tmp, 'config');
  mkdirSync(config, { recursive: true });
  const dir = join(config, 'stub');
  runJobfit(bin, ['stub', 'seed', '--test-takers', String(n), '--teams', '3', '--data', dir], baseEnv);
  const served = await serveStub(bin, dir, baseEnv, extra);
  const embeddedEnv = { ...baseEnv, JOBFIT_CONFIG_DIR: config };
  delete embeddedEnv.JOBFIT_BASE_URL;
  delete embeddedEnv.JOBFIT_API_KEY;
  return { dir, served, embeddedEnv, stop: () => stopStub(served) };
}

/** CPU time (ms) the served stub's process has used so far, where the system says (Linux /proc); undefined elsewhere. */
export function processCpuMs(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
  const f = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
