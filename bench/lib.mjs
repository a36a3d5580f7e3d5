/**
 * What every bench shares: `jobfit stub serve` in its own process on a free
 * port, ready when it has printed its URL and live key, and stopped with
 * SIGINT as a person would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Starts `jobfit stub serve --port 0 --data DIR [extra]`; resolves with its URL, key and an env pointing at it. */
export function serveStub(bin, dir, env, extra = []) {
  const child = spawn(process.execPath, [bin, 'stub', 'serve', '--port', '0', '--data', dir, ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = out.match(/Stub listening on (\S+)/)?.[1];
      const key = out.match(/live key: (\S+)/)?.[1];
      if (url && key) resolve({ child, url, key, env: { ...env, JOBFIT_BASE_URL: url, JOBFIT_API_KEY: key } });
    });
    child.on('exit', (code) => reject(new Error(`stub serve exited with ${code}: ${out}`)));
  });
}

export const stopStub = (s) =>
  new Promise((r) => {
    s.child.on('exit', r);
    s.child.kill('SIGINT');
  });

/** A numeric command-line option of a bench: `--rows 100` → 100, else `dflt`. */
export function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** A text command-line option of a bench: `--sizes 1,2` → '1,2', else `dflt`. */
export function argOf(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}

/** Runs the built `jobfit` (`bin`) with `args`; a non-zero exit throws with the end of its stderr. */
export function runJobfit(bin, args, env) {
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`jobfit ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  return r;
}

/** Progress lines on stderr, unless the bench prints JSON. */
export const logTo = (asJson) => (m) => {
  if (!asJson) process.stderr.write(`${m}\n`);
};

/**
 * Where a bench runs: the repository root, the built CLI, a temporary folder
 * of its own (`jobfit-bench-NAME-…`) and an environment whose config folder is
 * inside it, without colour.
 */
export function benchPlace(name) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const tmp = mkdtempSync(join(tmpdir(), `jobfit-bench-${name}-`));
  return { root, bin: join(root, 'bin/jobfit.js'), tmp, env: { ...process.env, JOBFIT_CONFIG_DIR: join(tmp, 'config'), NO_COLOR: '1' } };
}
