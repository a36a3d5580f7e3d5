#!/usr/bin/env node
// Export at scale (issue 10), end to end with the built binary:
//
//   npm run build && node bench/export/scale.mjs [--sizes 10000,100000] [--runs 3] [--minimal] [--json]
//
// For each size N: a stub seeded with N test takers over 3 teams (the default
// mix: about half complete) runs in its own process (`jobfit stub serve`,
// `--minimal-fields` with --minimal). Then `jobfit scorecard --all --sp
// sales-rep -o csv --out FILE` RUNS times: the median rows per second (wall
// clock, process start-up included) and the peak resident memory of the CLI
// (VmHWM, via bench/invite/maxrss.cjs and bench/peak-rss.cjs), which must
// stay flat as N grows; then one run with -v for the requests sent beside the
// minimum (one scorecard per test taker plus ceil(N / 150) list requests), and
// `test-takers list --all` for its list requests beside ceil(N / 150).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { argOf, benchPlace, serveStub, stopStub } from '../lib.mjs';

const { root, bin, tmp, env: baseEnv } = benchPlace('scale');
const maxrss = join(root, 'bench/invite/maxrss.cjs');
const SIZES = argOf('--sizes', '10000,100000').split(',').map(Number);
const RUNS = Number(argOf('--runs', '3'));
const MINIMAL = process.argv.includes('--minimal');
const asJson = process.argv.includes('--json');
const log = (m) => {
  if (!asJson) process.stderr.write(`${m}\n`);
};
const num = (s) => Number(String(s).replace(/,/g, ''));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function jobfit(args, env = baseEnv, preload = false) {
  const argv = preload ? ['--require', maxrss, bin, ...args] : [bin, ...args];
  const r = spawnSync(process.execPath, argv, { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`jobfit ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  return r;
}

/** A -v run, keeping only the lines that count requests (the trace itself is dropped as it streams). */
function counted(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, '-v'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let rest = '';
    const keep = [];
    child.stderr.setEncoding('utf8').on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      for (const l of lines) if (/^(scorecard:|--all:)/.test(l)) keep.push(l);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(keep.join('\n')) : reject(new Error(`exit ${code}`))));
  });
}

const serve = (dir) => serveStub(bin, dir, baseEnv, MINIMAL ? ['--minimal-fields'] : []);
const stop = stopStub;

const results = [];
try {
  for (const n of SIZES) {
    const dir = join(tmp, `stub-${n}`);
    jobfit(['stub', 'seed', '--test-takers', String(n), '--teams', '3', '--data', dir]);
    const s = await serve(dir);
    try {
      const out = join(tmp, `scorecards-${n}.csv`);
      const rates = [];
      const rss = [];
      let rows = 0;
      let summary = '';
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const r = jobfit(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', out], s.env, true);
        const secs = (performance.now() - t0) / 1000;
        rows = readFileSync(out, 'utf8').trimEnd().split('\n').length - 1;
        rates.push(rows / secs);
        rss.push(num(r.stderr.match(/MAXRSS_KB=(\d+)/)?.[1] ?? 0) / 1024);
        summary = r.stderr.split('\n').find((l) => /total_count/.test(l)) ?? '';
        log(`  N=${n} run ${i + 1}: ${rows} rows in ${secs.toFixed(2)}s (${Math.round(rows / secs)} rows/s), peak RSS ${Math.round(rss.at(-1))} MB`);
      }
      const trace = await counted(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', out], s.env);
      const m = trace.match(/scorecard: (\d+) scorecard requests \+ (\d+) list requests \(minimum (\d+)\)/);
      const listed = num(summary.match(/^([\d,]+) test takers/)?.[1] ?? 0);
      const scorecardRequests = Number(m?.[1]);
      const listRequests = Number(m?.[2]);
      const minimum = listed + Number(m?.[3]);
      const list = await counted(['test-takers', 'list', '--all', '-o', 'ndjson'], s.env);
      const lm = list.replace(/(\d),(?=\d{3})/g, '$1').match(/--all: (\d+) test takers in (\d+) requests?/);
      const r = {
        seeded: n,
        test_takers: listed,
        rows,
        summary,
        rows_per_second: Math.round(median(rates)),
        peak_rss_mb: Math.round(median(rss)),
        requests: scorecardRequests + listRequests,
        minimum_requests: minimum,
        ratio: Number(((scorecardRequests + listRequests) / minimum).toFixed(3)),
        list_all_requests: Number(lm?.[2]),
        list_all_minimum: Math.ceil(Number(lm?.[1]) / 150),
      };
      results.push(r);
      log(
        `N=${n}${MINIMAL ? ' (minimal fields)' : ''}: ${r.rows_per_second} rows/s (median of ${RUNS}), peak RSS ${r.peak_rss_mb} MB, ` +
          `${r.requests} requests for a minimum of ${r.minimum_requests} (${r.ratio}x); test-takers list --all: ${r.list_all_requests} requests, minimum ${r.list_all_minimum}\n  ${summary}`,
      );
    } finally {
      await stop(s);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
