#!/usr/bin/env node
// Flat per person (issue 47): every command of a large account's day, at two
// sizes, in one run, against `jobfit stub serve` and against the embedded stub:
//
//   npm run build && node bench/scale.mjs [--sizes 10000,100000] [--only served,embedded] [--runs 3] [--json]
//
// For each size N: `jobfit stub seed --test-takers N --teams 3` into a data
// folder (timed: people seeded per second), then with `stub serve` on that
// folder in its own process, and again with the CLI's embedded stub on the
// same folder (JOBFIT_CONFIG_DIR/stub, no service configured):
//
//   test-takers list --all -o ndjson        scorecard --all --sp sales-rep -o csv
//   job-fit --all -o ndjson                 report --sp sales-rep -o json
//   sync --sp sales-rep (first, new file)   sync --sp sales-rep (nothing changed)
//
// and on a `--minimal-fields` stub, `test-takers list --all` for its requests.
// Per command: wall seconds (process start-up included), people per second
// (the account's test takers ÷ seconds), peak RSS of the CLI's process
// (its own high-water mark, VmHWM, via bench/invite/maxrss.cjs and bench/peak-rss.cjs; the embedded
// stub is in that process), requests of `--all` beside the minimum
// (ceil(test takers / 150)). The table puts the last size beside the first:
// the rate's ratio (goal ≥ 0.8) and the peak's ratio (goal ≤ 1.2, and ≤ 150 MB).
// Exits 1 when a goal is missed. `--runs N` runs every command N times in
// turn (the first sync before the no-change one each time, on a new file)
// and takes the median of each figure: a single peak varies by about 5%
// from run to run, as much as the goal's margin. The seed runs once.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { argOf, benchPlace, serveStub, stopStub } from './lib.mjs';

const { root, bin, tmp, env: baseEnv } = benchPlace('scale47');
const maxrss = join(root, 'bench/invite/maxrss.cjs');
const SIZES = argOf('--sizes', '10000,100000').split(',').map(Number);
const ONLY = argOf('--only', 'served,embedded').split(',');
const RUNS = Math.max(1, Number(argOf('--runs', '1')));
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const asJson = process.argv.includes('--json');
const MAX_MB = 150;
const log = (m) => {
  if (!asJson) process.stderr.write(`${m}\n`);
};
const num = (s) => Number(String(s ?? '').replace(/,/g, ''));

/** Runs the built jobfit with `args`; stderr to a file, read back. Wall seconds, peak RSS (MB), stderr. */
function jobfit(args, env, name) {
  const errFile = join(tmp, `${name}.stderr`);
  const argv = ['--require', maxrss, bin, ...args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const chunks = [];
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const secs = (performance.now() - t0) / 1000;
      const stderr = Buffer.concat(chunks).toString('utf8');
      writeFileSync(errFile, stderr);
      if (code !== 0) return reject(new Error(`jobfit ${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`));
      resolve({ secs, rss: num(stderr.match(/MAXRSS_KB=(\d+)/)?.[1]) / 1024, stderr });
    });
  });
}

/** `--all` requests from a -v run: the list search's own count line. */
function requestsOf(stderr) {
  const flat = stderr.replace(/(\d),(?=\d{3})/g, '$1');
  const all = flat.match(/--all: (\d+) [a-z -]+ in (\d+) requests?/);
  const sc = flat.match(/(\d+) list requests/);
  return all ? Number(all[2]) : sc ? Number(sc[1]) : null;
}

const COMMANDS = [
  { key: 'list', label: 'test-takers list --all', args: (o) => ['test-takers', 'list', '--all', '-o', 'ndjson', '--out', o, '-v'], all: true },
  { key: 'scorecard', label: 'scorecard --all --sp sales-rep -o csv', args: (o) => ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', o, '-v'], all: true },
  { key: 'jobfit', label: 'job-fit --all -o ndjson', args: (o) => ['job-fit', '--all', '-o', 'ndjson', '--out', o, '-v'], all: true },
  { key: 'report', label: 'report --sp sales-rep', args: (o) => ['report', '--sp', 'sales-rep', '-o', 'json', '--out', o] },
  { key: 'sync1', label: 'sync, first (SQLite)', args: (_o, db) => ['sync', '--db', db, '--sp', 'sales-rep'] },
  { key: 'sync0', label: 'sync, nothing changed', args: (_o, db) => ['sync', '--db', db, '--sp', 'sales-rep'] },
];

/** Every command of COMMANDS against one stub (`env` says which), in order, RUNS times: the medians. */
async function runAll(where, n, people, env) {
  const runs = {};
  for (let r = 0; r < RUNS; r++) {
    const db = join(tmp, `sync-${where}-${n}.sqlite`);
    for (const c of COMMANDS) {
      const file = join(tmp, `${c.key}-${where}-${n}.out`);
      const got = await jobfit(c.args(file, db), env, `${c.key}-${where}-${n}`);
      const requests = c.all ? requestsOf(got.stderr) : null;
      (runs[c.key] ??= []).push({ secs: got.secs, rss: got.rss, requests });
      rmSync(file, { force: true });
      log(`  ${where} N=${n} ${c.label}${RUNS > 1 ? ` (run ${r + 1})` : ''}: ${got.secs.toFixed(1)} s, ${Math.round(people / got.secs)} people/s, peak ${Math.round(got.rss)} MB${requests ? `, ${requests} list requests` : ''}`);
    }
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  }
  const out = {};
  for (const [key, rs] of Object.entries(runs)) {
    const secs = median(rs.map((x) => x.secs));
    const requests = rs[0].requests === null ? null : median(rs.map((x) => x.requests));
    out[key] = { secs, rate: people / secs, rss: median(rs.map((x) => x.rss)), requests, runs: rs.length };
  }
  return out;
}

/** People in the seeded account: what `test-takers list --all` finds. */
const peopleOf = (stderr) => num(stderr.replace(/(\d),(?=\d{3})/g, '$1').match(/--all: (\d+) test takers/)?.[1]);

const results = [];
const startLoad = loadavg().map((x) => x.toFixed(1)).join(' ');
const started = new Date();
try {
  for (const n of SIZES) {
    const config = join(tmp, `config-${n}`);
    const dir = join(config, 'stub');
    mkdirSync(config, { recursive: true });
    const seed = await jobfit(['stub', 'seed', '--test-takers', String(n), '--teams', '3', '--data', dir], baseEnv, `seed-${n}`);
    const row = { n, seed: { secs: seed.secs, rate: n / seed.secs, rss: seed.rss }, load: loadavg()[0] };
    log(`N=${n}: seeded in ${seed.secs.toFixed(1)} s (${Math.round(n / seed.secs)} people/s, peak ${Math.round(seed.rss)} MB)`);
    // The minimal-fields stub first: its list requests only.
    const m = await serveStub(bin, dir, baseEnv, ['--minimal-fields']);
    try {
      const r = await jobfit(COMMANDS[0].args(join(tmp, 'minimal.out'), ''), m.env, `minimal-${n}`);
      row.people = peopleOf(r.stderr);
      row.minimalRequests = requestsOf(r.stderr);
    } finally {
      await stopStub(m);
    }
    row.minimum = Math.ceil(row.people / 150);
    log(`  minimal-fields stub: ${row.minimalRequests} list requests for ${row.people} test takers (minimum ${row.minimum})`);
    if (ONLY.includes('served')) {
      const s = await serveStub(bin, dir, baseEnv);
      try {
        row.served = await runAll('served', n, row.people, s.env);
      } finally {
        await stopStub(s);
      }
    }
    if (ONLY.includes('embedded')) {
      const env = { ...baseEnv, JOBFIT_CONFIG_DIR: config };
      delete env.JOBFIT_BASE_URL;
      delete env.JOBFIT_API_KEY;
      row.embedded = await runAll('embedded', n, row.people, env);
    }
    results.push(row);
    rmSync(config, { recursive: true, force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// The table: each measure at the first and the last size, and their ratios.
const [a, b] = [results[0], results.at(-1)];
const lines = [];
const misses = [];
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const rowOf = (label, x, y, requests) => {
  const rate = y.rate / x.rate;
  const mem = y.rss / x.rss;
  const ok = rate >= 0.8 && y.rss <= MAX_MB && mem <= 1.2;
  if (!ok) misses.push(label);
  lines.push(
    `| ${label} | ${fmt(x.rate)} | ${fmt(y.rate)} | **${rate.toFixed(2)}** | ${fmt(x.rss)} MB | ${fmt(y.rss)} MB | **${mem.toFixed(2)}** | ${requests ?? ''} | ${ok ? 'met' : 'missed'} |`,
  );
};
lines.push(`Sizes ${fmt(a.people)} and ${fmt(b.people)} test takers; ${RUNS > 1 ? `medians of ${RUNS} runs a command; ` : ''}started ${started.toISOString()}, load average ${startLoad} (1, 5, 15 min) on ${process.platform}, Node ${process.version}.`);
lines.push('');
lines.push(`| command | people/s at ${fmt(a.people)} | people/s at ${fmt(b.people)} | ratio | peak RSS at ${fmt(a.people)} | peak RSS at ${fmt(b.people)} | ratio | list requests at ${fmt(b.people)} (minimum ${fmt(b.minimum)}) | goal |`);
lines.push('|---|---:|---:|---:|---:|---:|---:|---|---|');
rowOf('stub seed --test-takers N', a.seed, b.seed);
for (const where of ['served', 'embedded']) {
  if (!b[where]) continue;
  for (const c of COMMANDS) {
    const req = b[where][c.key].requests;
    rowOf(`${where === 'served' ? 'stub serve' : 'embedded'}: ${c.label}`, a[where][c.key], b[where][c.key], req ? `${fmt(req)} (${(req / b.minimum).toFixed(2)}x)` : undefined);
  }
}
lines.push('');
lines.push(`\`test-takers list --all\` on the \`--minimal-fields\` stub: ${fmt(a.minimalRequests)} requests at ${fmt(a.people)} (${(a.minimalRequests / a.minimum).toFixed(2)}x), ${fmt(b.minimalRequests)} at ${fmt(b.people)} (${(b.minimalRequests / b.minimum).toFixed(2)}x; goal ≤ 5x).`);
if (b.minimalRequests / b.minimum > 5) misses.push('minimal-fields requests');
lines.push(`Load average when the run ended: ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`);
if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
else process.stdout.write(`${lines.join('\n')}\n`);
if (misses.length > 0) {
  process.stderr.write(`missed: ${misses.join('; ')}\n`);
  process.exitCode = 1;
}
