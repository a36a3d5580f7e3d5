#!/usr/bin/env node
// Peak memory of a first sync (issue 31, item 8: the 100k sync within 150 MB):
//
//   npm run build && node bench/sync/memory.mjs [--test-takers 100000] [--rounds 1] [--bins OTHER/bin/jobfit.js,bin/jobfit.js] [--json]
//
// A stub in its own process seeded with TEST_TAKERS accepted invitations
// (half of them complete), then a first `jobfit sync --sp
// sales-rep,software-engineer` into a new SQLite file with each of --bins
// (default: this tree's bin/jobfit.js), the bins alternating, ROUNDS times.
// Each run reports its peak RSS (VmHWM) and CPU time (on
// exit, bench/export/usage.cjs) and its wall time; medians per bin. Give the
// bin of another tree (a build of the commit before a change, its own
// node_modules beside it) to measure before and after in the same go.
// Exit code 1 when a run of the last bin peaks above --max-mb (default 150).
import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { arg, argOf, benchPlace, logTo, runJobfit, serveStub, stopStub } from '../lib.mjs';

const { root, bin, tmp, env: baseEnv } = benchPlace('sync-memory');
const usage = join(root, 'bench/export/usage.cjs');
const TEST_TAKERS = arg('--test-takers', 100000);
const ROUNDS = arg('--rounds', 1);
const MAX_MB = arg('--max-mb', 150);
const BINS = argOf('--bins', bin)
  .split(',')
  .map((b) => resolve(b));
const asJson = process.argv.includes('--json');
const log = logTo(asJson);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** One first sync with `jobfitBin` into a new file: peak RSS (MB), CPU and wall seconds. */
function firstSync(jobfitBin, env, db) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', usage, jobfitBin, 'sync', '--db', db, '--sp', 'sales-rep,software-engineer'], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${jobfitBin} sync exited ${r.status}: ${r.stderr.slice(-500)}`);
  const rss = Number(r.stderr.match(/MAXRSS_KB=(\d+)/)?.[1]) / 1024;
  const cpu = Number(r.stderr.match(/CPU_US=(\d+)/)?.[1]) / 1e6;
  return { peak_rss_mb: Math.round(rss), cpu_s: Number(cpu.toFixed(1)), wall_s: Number(wall.toFixed(1)) };
}

const results = Object.fromEntries(BINS.map((b) => [b, []]));
const s = { child: undefined };
let ok = true;
try {
  const dir = join(tmp, 'stub');
  runJobfit(bin, ['stub', 'seed', '--test-takers', String(TEST_TAKERS), '--teams', '3', '--complete', '0.5', '--data', dir], baseEnv);
  Object.assign(s, await serveStub(bin, dir, baseEnv));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, b] of BINS.entries()) {
      const r = firstSync(b, s.env, join(tmp, `r${round}-${i}.sqlite`));
      results[b].push(r);
      if (i === BINS.length - 1 && r.peak_rss_mb > MAX_MB) ok = false;
      log(`round ${round}, ${b}: peak RSS ${r.peak_rss_mb} MB, CPU ${r.cpu_s} s, wall ${r.wall_s} s`);
    }
  }
  for (const b of BINS) {
    const runs = results[b];
    log(`${b}: median peak RSS ${median(runs.map((r) => r.peak_rss_mb))} MB, CPU ${median(runs.map((r) => r.cpu_s))} s, wall ${median(runs.map((r) => r.wall_s))} s (${runs.length} runs)`);
  }
} finally {
  if (s.child) await stopStub(s);
  rmSync(tmp, { recursive: true, force: true });
}
if (asJson) process.stdout.write(`${JSON.stringify({ test_takers: TEST_TAKERS, results }, null, 2)}\n`);
process.exitCode = ok ? 0 : 1;
