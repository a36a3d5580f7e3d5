#!/usr/bin/env node
// Export benchmark (issue 5), end to end with the built binary:
//
//   npm run build && node bench/export/exports.mjs [--scorecards 1000] [--runs 5] [--sizes 1000,10000] [--json]
//
// 1. Scorecards: a stub seeded with SCORECARDS complete test takers runs in its
//    own process (`jobfit stub serve`); `jobfit scorecard --ids-from FILE --sp
//    sales-rep -o csv` exports all of them RUNS times. Reported: the median
//    scorecards per second, process start-up included. Goal: >= 1,500/s.
// 2. Complete lists: for each size N, a fresh stub seeded with N test takers
//    (plus the fixture's own), `jobfit test-takers list --all -o ndjson -v`;
//    reported: requests sent beside the minimum ceil(total / 150), and
//    whether every id came exactly once. Goal: <= 5x the minimum.
// Exit code 1 when a goal is missed.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argOf, benchPlace, logTo, runJobfit, serveStub, stopStub } from '../lib.mjs';

const { bin, tmp, env: baseEnv } = benchPlace('export');
const SCORECARDS = Number(argOf('--scorecards', '1000'));
const RUNS = Number(argOf('--runs', '5'));
const SIZES = argOf('--sizes', '1000,10000').split(',').map(Number);
const asJson = process.argv.includes('--json');
const log = logTo(asJson);

const jobfit = (args, env = baseEnv) => runJobfit(bin, args, env);

function seed(dir, n) {
  jobfit(['stub', 'seed', '--test-takers', String(n), '--teams', '3', '--complete', '1', '--data', dir]);
}

const serve = (dir) => serveStub(bin, dir, baseEnv);

const stop = stopStub;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const results = { scorecards: {}, lists: [] };
let ok = true;
try {
  // 1. scorecards per second
  const dir = join(tmp, 'stub-scorecards');
  seed(dir, SCORECARDS);
  const s = await serve(dir);
  try {
    const list = jobfit(['test-takers', 'list', '--all', '-o', 'ndjson'], s.env);
    const ids = list.stdout.trim().split('\n').map((l) => JSON.parse(l).id).slice(0, SCORECARDS);
    const idsFile = join(tmp, 'ids.txt');
    writeFileSync(idsFile, `${ids.join('\n')}\n`);
    const rates = [];
    const fetchRates = [];
    // The machine's pace in this go: node's own start (this VM has fast and slow phases).
    const nodeMs = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      spawnSync(process.execPath, ['-e', '0'], { env: baseEnv });
      nodeMs.push(performance.now() - t0);
    }
    log(`  node -e 0: ${Math.round(median(nodeMs))} ms (median of 5; the machine's pace in this go)`);
    // One warm-up run: the stub's first requests pay for its JIT.
    jobfit(['scorecard', '--ids-from', idsFile, '--sp', 'sales-rep', '-o', 'csv'], s.env);
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = jobfit(['scorecard', '--ids-from', idsFile, '--sp', 'sales-rep', '-o', 'csv'], s.env);
      const secs = (performance.now() - t0) / 1000;
      const rows = r.stdout.trim().split('\n').length - 1;
      if (rows !== ids.length) throw new Error(`expected ${ids.length} rows, got ${rows}`);
      rates.push(ids.length / secs);
      // The command's own summary: the fetch and CSV phase, without process start-up.
      const own = Number((r.stderr.match(/\(([\d,]+)\/s\)/)?.[1] ?? '0').replace(/,/g, ''));
      fetchRates.push(own);
      log(`  run ${i + 1}: ${ids.length} scorecards in ${secs.toFixed(2)}s wall (${Math.round(ids.length / secs)}/s), export phase ${own}/s`);
    }
    results.scorecards = {
      count: ids.length,
      runs: RUNS,
      median_per_second_wall: Math.round(median(rates)),
      median_per_second_export: Math.round(median(fetchRates)),
      node_start_ms: Math.round(median(nodeMs)),
      goal: 1500,
    };
    if (median(rates) < 1500) ok = false;
    log(`scorecards: median ${Math.round(median(rates))}/s wall (start-up included), ${Math.round(median(fetchRates))}/s export phase, over ${RUNS} runs (goal >= 1,500/s)`);
  } finally {
    await stop(s);
  }

  // 2. requests of --all
  for (const n of SIZES) {
    const d = join(tmp, `stub-list-${n}`);
    seed(d, n);
    const srv = await serve(d);
    try {
      const r = jobfit(['test-takers', 'list', '--all', '-o', 'ndjson', '-v'], srv.env);
      const ids = r.stdout.trim().split('\n').map((l) => JSON.parse(l).id);
      const m = r.stderr.replace(/(\d),(?=\d{3})/g, "$1").match(/--all: (\d+) test takers in (\d+) requests?/);
      const total = Number(m?.[1]);
      const requests = Number(m?.[2]);
      const minimum = Math.max(1, Math.ceil(total / 150));
      const exact = ids.length === total && new Set(ids).size === total;
      results.lists.push({ seeded: n, total, requests, minimum, ratio: Number((requests / minimum).toFixed(2)), exact });
      if (!exact || requests > 5 * minimum) ok = false;
      log(`--all over ${total} test takers: ${requests} requests, minimum ${minimum} (${(requests / minimum).toFixed(2)}x), every id once: ${exact}`);
    } finally {
      await stop(srv);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
process.exitCode = ok ? 0 : 1;
