#!/usr/bin/env node
// Start-up A/B in CPU time (user + system of the command, from bash's `times`),
// for a loaded machine where wall-clock medians swing by ±50 % from one round
// to the next: the CPU a command spends moves far less with the load than
// how long it waits for one. Interleaved rounds, medians.
//
//   node bench/cli/cpu-ab.mjs --runs 20 NAME=DIR ... [--served] [--exe [NAME=]FILE ... --exe-node FILE]
//
// Each DIR is a built tree (bin/, dist/, fixtures/, node_modules/); its
// `--version` and embedded `teams -o json` (a config folder of its own, seeded
// in the warm-up) are timed beside `node -e 0` of the node running this
// script, and each executable's (--exe, repeated for an A/B of executables
// built with the same Node) beside `node -e 0` of its own Node (--exe-node).
// --served: also each tree's `teams -o json` against `jobfit stub serve` (of
// the first tree) beside a minimal node:http script doing the same GET and
// printing the JSON (the floor of a command that makes one request; only the
// client's CPU is counted, the stub is another process).
//
// A DIR may be a packed install (what an npm user runs):
//   npm pack --pack-destination /tmp/p && npm install -g --prefix /tmp/p/prefix --prefer-offline \
//     --ignore-scripts /tmp/p/jobfit-cli-*.tgz   # DIR: /tmp/p/prefix/lib/node_modules/jobfit-cli
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, serveStub, stopStub } from '../lib.mjs';

const RUNS = arg('--runs', 20);
const argv = process.argv.slice(2);
const named = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
const exes = argv.flatMap((a, i) => (argv[i - 1] === '--exe' ? [a.includes('=') ? a.split('=') : ['executable', a]] : []));
const trees = argv.filter((a, i) => /^[\w-]+=/.test(a) && argv[i - 1] !== '--exe').map((a) => a.split('='));
const tmp = mkdtempSync(join(tmpdir(), 'jobfit-cpu-ab-'));
const env = (name) => ({ PATH: process.env.PATH, HOME: join(tmp, name), JOBFIT_CONFIG_DIR: join(tmp, name, 'config'), XDG_CACHE_HOME: join(tmp, name, 'cache'), NO_COLOR: '1' });

const FLOOR = 'node get-teams.mjs (node:http)';
const CASES = [{ name: 'node -e 0', cmd: [process.execPath, '-e', '0'], env: env('node') }];
const served = argv.includes('--served') ? await serveStub(join(trees[0][1], 'bin/jobfit.js'), join(tmp, 'stub'), env('stub')) : undefined;
if (served) {
  const script = join(tmp, 'get-teams.mjs');
  writeFileSync(
    script,
    `import { get } from 'node:http';
get(new URL(process.env.JOBFIT_BASE_URL + '/teams'), { headers: { authorization: 'Bearer ' + process.env.JOBFIT_API_KEY, accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'));
});
`,
  );
  CASES.push({ name: FLOOR, cmd: [process.execPath, script], env: { ...env('floor'), JOBFIT_BASE_URL: served.url, JOBFIT_API_KEY: served.key } });
}
for (const [name, dir] of trees) {
  const bin = join(dir, 'bin/jobfit.js');
  CASES.push({ name: `${name}: --version`, cmd: [process.execPath, bin, '--version'], env: env(name) });
  CASES.push({ name: `${name}: teams -o json (embedded)`, cmd: [process.execPath, bin, 'teams', '-o', 'json'], env: env(name) });
  if (served) CASES.push({ name: `${name}: teams -o json (served)`, cmd: [process.execPath, bin, 'teams', '-o', 'json'], env: { ...env(`${name}-served`), JOBFIT_BASE_URL: served.url, JOBFIT_API_KEY: served.key }, floor: FLOOR });
}
if (exes.length > 0) CASES.push({ name: "node -e 0 (the executable's Node)", cmd: [named('--exe-node'), '-e', '0'], env: env('exe-node') });
for (const [name, file] of exes) {
  CASES.push({ name: `${name}: --version`, cmd: [file, '--version'], env: env(name), exe: true });
  CASES.push({ name: `${name}: teams -o json (embedded)`, cmd: [file, 'teams', '-o', 'json'], env: env(name), exe: true });
}

/** CPU milliseconds (user + system) of one run of `cmd`. */
function cpu(c) {
  const r = spawnSync('bash', ['-c', '"$@" >/dev/null 2>&1; s=$?; times; exit $s', 'bash', ...c.cmd], { env: c.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}`);
  // `times`: the shell's own line, then its children's: "0m0.052s 0m0.012s".
  const [, user, sys] = /(\d+m[\d.]+s) (\d+m[\d.]+s)\s*$/.exec(r.stdout.trim()) ?? [];
  const ms = (t) => {
    const [, m, s] = /(\d+)m([\d.]+)s/.exec(t);
    return (Number(m) * 60 + Number(s)) * 1000;
  };
  return ms(user) + ms(sys);
}

const loadAtStart = process.getBuiltinModule('node:os').loadavg().map((l) => l.toFixed(2)).join(' ');
const times = new Map(CASES.map((c) => [c.name, []]));
for (let i = 0; i < 3; i++) for (const c of CASES) cpu(c);
for (let i = 0; i < RUNS; i++) for (const c of CASES) times.get(c.name).push(cpu(c));
if (served) await stopStub(served);
rmSync(tmp, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const nodeBase = median(times.get('node -e 0'));
const exeBase = exes.length > 0 ? median(times.get("node -e 0 (the executable's Node)")) : undefined;
const first = trees[0]?.[0];
const firstExe = exes[0]?.[0];
const load = () => process.getBuiltinModule('node:os').loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`node ${process.version}, ${RUNS} interleaved rounds, median CPU time (user + system); load ${loadAtStart} at the start, ${load()} at the end`);
console.log(`| command | CPU ms | × node -e 0 | × ${[first, firstExe].filter(Boolean).join(' / ')} (the first of its kind) | × the http script |`);
console.log('|---|---:|---:|---:|---:|');
for (const c of CASES) {
  const m = median(times.get(c.name));
  const base = c.exe ? exeBase : nodeBase;
  const ref = c.exe ? firstExe : first;
  const same = ref && c.name.includes(': ') ? (m / median(times.get(`${ref}: ${c.name.split(': ')[1]}`))).toFixed(3) : '';
  const floor = c.floor ? (m / median(times.get(c.floor))).toFixed(2) : '';
  console.log(`| \`${c.name}\` | ${m.toFixed(1)} | ${(m / base).toFixed(2)} | ${same} | ${floor} |`);
}
