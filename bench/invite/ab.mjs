#!/usr/bin/env node
// Bulk invite, two builds side by side (issue 43: the cost of checking a 201's
// id against the invitation it created), on the embedded stub and against
// `jobfit stub serve`:
//
//   node bench/invite/ab.mjs --a DIR_A --b DIR_B [--rows 10000] [--runs 3] [--concurrency 16] [--only embedded|served] [--json]
//
// DIR_A and DIR_B are two copies of a built tree (bin/ and dist/, with
// node_modules beside them), e.g. this tree and the same tree built at another
// commit or with a local patch. Runs alternate A, B, A, B… so the machine's
// load drifts over both alike; the figure is the median rows/s of each, and
// B/A in the same run.
//
// - embedded: no configuration (a fresh config folder per run: the stub the
//   CLI starts in its own process, as a new user meets it).
// - served: one `stub serve` (started from A's build, warmed up by one
//   unmeasured run of each build), every run with new emails.
//
// Every timed run must exit 0 with every row `created` (from its summary line).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg, argOf, serveStub, stopStub } from '../lib.mjs';

const A = argOf('--a', undefined);
const B = argOf('--b', undefined);
if (!A || !B) {
  process.stderr.write('usage: node bench/invite/ab.mjs --a DIR_A --b DIR_B [--rows N] [--runs N] [--concurrency N] [--only embedded|served] [--json]\n');
  process.exit(2);
}
const ROWS = arg('--rows', 10_000);
const RUNS = arg('--runs', 3);
const CONC = arg('--concurrency', 16);
const ONLY = argOf('--only', '');
const asJson = process.argv.includes('--json');
const INVITER = 'dana.whitfield@northwind-talent.example';
const bins = { A: join(resolve(A), 'bin/jobfit.js'), B: join(resolve(B), 'bin/jobfit.js') };

const tmp = mkdtempSync(join(tmpdir(), 'jobfit-bench-invite-ab-'));
const log = (m) => {
  if (!asJson) process.stderr.write(`${m}\n`);
};
const base = { PATH: process.env.PATH ?? '', HOME: tmp, NO_COLOR: '1' };
let serial = 0;

function writeCsv(n) {
  const tag = `r${++serial}x${Date.now()}`;
  const path = join(tmp, `${tag}.csv`);
  const teams = ['Retail Stores', '13', 'Head Office Recruiting', '14'];
  const parts = ['First Name,Last Name,Email,Team,Assessments,Notes\n'];
  for (let i = 1; i <= n; i++) parts.push(`First${i},Last${i},p${i}.${tag}@example.com,${teams[i % 4]},"Personality, Interests",row ${i}\n`);
  writeFileSync(path, parts.join(''));
  return path;
}

/** One bulk invite of `rows` new people by build `which`; its rows/s. */
function invite(which, env, rows) {
  const csv = writeCsv(rows);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bins[which], 'invite', '--csv', csv, '--out', `${csv}.results.csv`, '--created-by', INVITER, '--concurrency', String(CONC)], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${which}: invite exited ${r.status}: ${r.stderr.slice(-800)}`);
  const created = (r.stderr.match(/^[\d,]+ rows: ([\d,]+) created/m) ?? [])[1]?.replace(/,/g, '');
  if (Number(created) !== rows) throw new Error(`${which}: ${created} created, expected ${rows}: ${r.stderr.slice(-800)}`);
  return rows / (ms / 1000);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** RUNS alternating pairs; `envFor(which, run)` gives each run's environment. */
function pairs(name, envFor) {
  const rates = { A: [], B: [] };
  for (let run = 1; run <= RUNS; run++) {
    for (const which of run % 2 ? ['A', 'B'] : ['B', 'A']) {
      const rate = invite(which, envFor(which, run), ROWS);
      rates[which].push(rate);
      log(`${name} ${which} run ${run}: ${Math.round(rate)} rows/s`);
    }
  }
  const a = median(rates.A);
  const b = median(rates.B);
  return { A: Math.round(a), B: Math.round(b), ratioBA: +(b / a).toFixed(3), all: { A: rates.A.map(Math.round), B: rates.B.map(Math.round) } };
}

const results = { rows: ROWS, runs: RUNS, concurrency: CONC, a: resolve(A), b: resolve(B) };
try {
  if (ONLY !== 'served') {
    results.embedded = pairs('embedded', (which, run) => {
      const dir = join(tmp, `embedded-${which}-${run}`);
      mkdirSync(dir);
      return { ...base, JOBFIT_CONFIG_DIR: dir };
    });
  }
  if (ONLY !== 'embedded') {
    const cfg = join(tmp, 'served-config');
    const stub = await serveStub(bins.A, join(tmp, 'served-data'), { ...base, JOBFIT_CONFIG_DIR: cfg });
    try {
      const env = { ...base, JOBFIT_CONFIG_DIR: cfg, JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.key };
      for (const which of ['A', 'B']) invite(which, env, Math.min(ROWS, 2000));
      results.served = pairs('served', () => env);
    } finally {
      await stopStub(stub);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
results.machine = { node: process.version, loadavg: (await import('node:os')).loadavg().map((x) => +x.toFixed(1)) };
if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
else {
  for (const t of ['embedded', 'served']) {
    const r = results[t];
    if (r) log(`${t}: A ${r.A} rows/s, B ${r.B} rows/s (median of ${RUNS}); B/A ${r.ratioBA}`);
  }
}
