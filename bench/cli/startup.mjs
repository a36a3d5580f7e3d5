#!/usr/bin/env node
// CLI start-up benchmark: `jobfit --version`, `jobfit --help` and
// `jobfit teams -o json` (against a running `jobfit stub serve`), each beside
// `node -e 0` measured in the same run. Runs are interleaved (one of each
// command per round) so that machine noise hits every command alike.
//
//   node bench/cli/startup.mjs [--runs 40] [--warmup 5] [--json] [--no-build] [--vs DIR]
//
// --vs DIR: also time the CLI built in DIR (another checkout, built with
// `npm run build`, e.g. `git worktree add ../before <rev>`), interleaved with
// this one, and report each command's median against DIR's (the 5% check of a
// change that must not slow start-up).
//
// --exe FILE: also time a standalone executable (`npm run package`:
// release/jobfit-<version>-<platform>/jobfit), its `--version` and embedded
// `teams -o json` against `node -e 0` of the same Node it holds
// (--exe-node FILE, default: that Node from the package cache). Goals: 1.1x
// and 2.0x.
//
// It builds (scripts/build.mjs) unless --no-build, then runs a private copy of
// bin/, dist/ and fixtures/ so that another build in the working tree cannot
// change the binary halfway through.
//
// Two floors: `node -e 0` for a command that makes no request, and a minimal
// node:http script that GETs /teams and prints the JSON for one that does.
// `teams -o json` is timed against a served stub and against the embedded one
// (no configuration). "(no compile cache)" is the same build run with
// NODE_DISABLE_COMPILE_CACHE=1 (neither node's compile cache nor the code
// cache of our chunks, src/cli/code-cache.ts), in the same rounds.
// Goals (Node 24, issue 41): --version and --help within 1.3x of `node -e 0`;
// a served `teams` within 1.3x of the http script; an embedded `teams` within
// 2.5x of `node -e 0`. Exit code 1 when a goal is missed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from '../lib.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = arg('--runs', 40);
const WARMUP = arg('--warmup', 5);
const asJson = process.argv.includes('--json');
const vsIndex = process.argv.indexOf('--vs');
const vsDir = vsIndex >= 0 ? process.argv[vsIndex + 1] : undefined;

const tmp = mkdtempSync(join(tmpdir(), 'jobfit-bench-'));
const configDir = join(tmp, 'config');
if (!process.argv.includes('--no-build')) execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
/** A private copy of a built tree's CLI; returns its bin/jobfit.js. */
function copyApp(from, name) {
  const app = join(tmp, name);
  for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(from, part), join(app, part), { recursive: true });
  symlinkSync(join(from, 'node_modules'), join(app, 'node_modules'), 'dir');
  return join(app, 'bin/jobfit.js');
}
const bin = copyApp(root, 'app');
// The floor for a command that makes one request: node:http, GET /teams, print the body.
const floorScript = join(tmp, 'get-teams.mjs');
writeFileSync(
  floorScript,
  `import { get } from 'node:http';
const u = new URL(process.env.JOBFIT_BASE_URL + '/teams');
get(u, { headers: { authorization: 'Bearer ' + process.env.JOBFIT_API_KEY, accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'));
});
`,
);
const embeddedConfig = join(tmp, 'embedded-config');
const vsBin = vsDir ? copyApp(vsDir, 'vs') : undefined;

/** Starts `jobfit stub serve --port 0` and waits for its URL and first live key. */
function startServe() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'stub', 'serve', '--port', '0', '--data', join(tmp, 'stub')], {
      env: { ...process.env, JOBFIT_CONFIG_DIR: configDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d) => {
      out += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/v2)/.exec(out)?.[1];
      const key = /(sk_live_[A-Za-z0-9]+)/.exec(out)?.[1];
      if (url && key) resolve({ child, url, key });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`stub serve exited (${code}):\n${out}`)));
    setTimeout(() => reject(new Error(`stub serve did not start:\n${out}`)), 15_000).unref();
  });
}

const serve = await startServe();
const env = { ...process.env, JOBFIT_CONFIG_DIR: configDir, JOBFIT_BASE_URL: serve.url, JOBFIT_API_KEY: serve.key, NO_COLOR: '1' };

// No JOBFIT_BASE_URL or key, and a config dir of its own: the embedded stub (seeded in the warm-up).
const embeddedEnv = { ...process.env, JOBFIT_CONFIG_DIR: embeddedConfig, NO_COLOR: '1' };
delete embeddedEnv.JOBFIT_BASE_URL;
delete embeddedEnv.JOBFIT_API_KEY;
const FLOOR = 'node get-teams.mjs (node:http)';
const CASES = [
  { name: 'node -e 0', argv: ['-e', '0'] },
  { name: FLOOR, argv: [floorScript] },
  { name: 'jobfit --version', argv: [bin, '--version'], goal: 1.3 },
  { name: 'jobfit --help', argv: [bin, '--help'], goal: 1.3 },
  { name: 'jobfit teams -o json (served stub)', argv: [bin, 'teams', '-o', 'json'], goal: 1.3, floor: FLOOR },
  { name: 'jobfit teams -o json (embedded stub)', argv: [bin, 'teams', '-o', 'json'], goal: 2.5, env: embeddedEnv },
];
if (!process.argv.includes('--no-compare-cache')) {
  for (const c of CASES.slice(2)) CASES.push({ ...c, name: `${c.name} (no compile cache)`, env: { ...(c.env ?? env), NODE_DISABLE_COMPILE_CACHE: '1' }, goal: undefined, cacheOf: c.name });
}
if (vsBin) {
  // A cache folder of its own: a tree built before code caches had a folder per install would drop this tree's files as stale.
  for (const c of CASES.slice(2, 6)) CASES.push({ ...c, name: `${c.name} (--vs)`, argv: [vsBin, ...c.argv.slice(1)], env: { ...(c.env ?? env), XDG_CACHE_HOME: join(tmp, 'vs-cache') }, goal: undefined, vs: true });
}

const exeIndex = process.argv.indexOf('--exe');
if (exeIndex >= 0) {
  const exe = process.argv[exeIndex + 1];
  const nodeIndex = process.argv.indexOf('--exe-node');
  let exeNode = nodeIndex >= 0 ? process.argv[nodeIndex + 1] : undefined;
  if (!exeNode) {
    const { fetchPackage } = await import('../../scripts/package/fetch.mjs');
    const { hostTarget, NODE_VERSION } = await import('../../scripts/package/targets.mjs');
    exeNode = join(fetchPackage(hostTarget().node, NODE_VERSION), hostTarget().exe);
  }
  const EXE_FLOOR = 'node -e 0 (the executable\'s Node)';
  const exeEnv = { ...embeddedEnv, JOBFIT_CONFIG_DIR: join(tmp, 'exe-config') };
  CASES.push(
    { name: EXE_FLOOR, command: exeNode, argv: ['-e', '0'] },
    { name: 'executable --version', command: exe, argv: ['--version'], goal: 1.1, floor: EXE_FLOOR },
    { name: 'executable teams -o json (embedded stub)', command: exe, argv: ['teams', '-o', 'json'], goal: 2.0, floor: EXE_FLOOR, env: exeEnv },
  );
}

function once(c) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c.command ?? process.execPath, c.argv, { env: c.env ?? env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const times = new Map(CASES.map((c) => [c.name, []]));
try {
  for (let i = 0; i < WARMUP; i++) for (const c of CASES) once(c);
  for (let i = 0; i < RUNS; i++) for (const c of CASES) times.get(c.name).push(once(c));
} finally {
  serve.child.kill('SIGINT');
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
};
const base = q(times.get('node -e 0'), 0.5);
const rows = CASES.map((c) => {
  const t = times.get(c.name);
  const other = times.get(`${c.name} (--vs)`);
  const median = q(t, 0.5);
  const floor = c.floor ? q(times.get(c.floor), 0.5) : base;
  const cached = c.cacheOf ? q(times.get(c.cacheOf), 0.5) : undefined;
  return {
    command: c.name,
    median_ms: +median.toFixed(1),
    p10_ms: +q(t, 0.1).toFixed(1),
    p90_ms: +q(t, 0.9).toFixed(1),
    ratio: +(median / base).toFixed(2),
    // Against its floor: node -e 0, or the http script for a served request.
    floor: c.floor ?? 'node -e 0',
    floor_ratio: +(median / floor).toFixed(2),
    // Without the compile cache over with it, in the same rounds (> 1: the cache helps).
    cache_gain: cached ? +(median / cached).toFixed(3) : undefined,
    // Fastest run against fastest run: what the code costs, with the machine's noise mostly removed.
    min_ratio: +(q(t, 0) / q(times.get('node -e 0'), 0)).toFixed(2),
    goal: c.goal ? `${c.goal}x` : '',
    // This tree's median over the --vs tree's, in the same run.
    vs_ratio: other ? +(median / q(other, 0.5)).toFixed(3) : undefined,
    met: c.goal ? median / floor <= c.goal : null,
  };
});
rmSync(tmp, { recursive: true, force: true });

if (asJson) {
  console.log(JSON.stringify({ node: process.version, runs: RUNS, rows }, null, 2));
} else {
  console.log(`node ${process.version}, ${RUNS} runs each (interleaved, ${WARMUP} warm-up rounds), medians`);
  console.log(`| command | median | p10 | p90 | × node -e 0 | × its floor | goal (× floor) | no cache ÷ cache |${vsDir ? ' × --vs tree |' : ''}`);
  console.log(`|---|---:|---:|---:|---:|---:|---|---:|${vsDir ? '---:|' : ''}`);
  for (const r of rows) {
    const goal = r.goal ? `${r.goal} ${r.met ? 'met' : 'MISSED'}` : '';
    const vs = vsDir ? ` ${r.vs_ratio ?? ''} |` : '';
    const floor = r.floor === 'node -e 0' ? '' : ` (× ${r.floor === FLOOR ? 'http script' : 'its Node\'s node -e 0'})`;
    console.log(`| \`${r.command}\` | ${r.median_ms} ms | ${r.p10_ms} ms | ${r.p90_ms} ms | ${r.ratio} | ${r.floor_ratio}${floor} | ${goal} | ${r.cache_gain ?? ''} |${vs}`);
  }
}
process.exitCode = rows.every((r) => r.met !== false) ? 0 : 1;
