#!/usr/bin/env node
// The group report as a page against the same report as JSON (issue 28), end
// to end with the built binary:
//
//   npm run build && node bench/export/report-html.mjs [--test-takers 10000] [--runs 5] [--json]
//
// A stub seeded with TEST_TAKERS test takers over 3 teams runs in its own
// process (`jobfit stub serve`). `jobfit report --sp sales-rep -o json --out F`
// and `-o html --out F` run RUNS times each, alternating (so a slow phase of a
// shared machine falls on both). Reported per format: median wall time and
// median CPU time (user + system) of the CLI's process, peak RSS
// (bench/export/usage.cjs), the file's size. The stub's own work is in its own
// process, so CPU time is the CLI's cost alone, and it holds still on a loaded
// machine where wall time does not.
// Goals: the page at most 2 MB, its CPU time at most 10% above JSON's, and
// peak RSS within 10% of JSON's (memory stays flat). Exit code 1 when missed.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { arg, benchPlace, logTo } from '../lib.mjs';
import { median, privateCopy, seededStub, timedJobfit } from './report-runs.mjs';

const { root, tmp, env: baseEnv } = benchPlace('report-html');
const bin = privateCopy(root, tmp);
const N = arg('--test-takers', 10_000);
const RUNS = arg('--runs', 5);
const asJson = process.argv.includes('--json');
const log = logTo(asJson);
const timed = (args, env) => timedJobfit(root, bin, args, env);

const stub = await seededStub(bin, tmp, N, baseEnv);
const s = stub.served;
const runs = { json: [], html: [] };
const sizes = {};
try {
  for (let i = 0; i < RUNS; i++) {
    for (const format of ['json', 'html']) {
      const out = join(tmp, `report.${format}`);
      rmSync(out, { force: true });
      const r = timed(['report', '--sp', 'sales-rep', '-o', format, '--out', out], s.env);
      sizes[format] = statSync(out).size;
      runs[format].push(r);
      log(`run ${i + 1} ${format}: ${(r.ms / 1000).toFixed(2)} s, CPU ${(r.cpuMs / 1000).toFixed(2)} s, ${r.rssMb.toFixed(0)} MB, ${sizes[format]} bytes`);
    }
  }
} finally {
  await stub.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const summary = {};
for (const f of ['json', 'html']) summary[f] = { medianMs: Math.round(median(runs[f].map((r) => r.ms))), medianCpuMs: Math.round(median(runs[f].map((r) => r.cpuMs))), medianRssMb: Math.round(median(runs[f].map((r) => r.rssMb))), bytes: sizes[f] };
const slower = summary.html.medianCpuMs / summary.json.medianCpuMs - 1;
const slowerWall = summary.html.medianMs / summary.json.medianMs - 1;
const moreRss = summary.html.medianRssMb / summary.json.medianRssMb - 1;
const goals = { size: summary.html.bytes <= 2 * 1024 * 1024, speed: slower <= 0.1, memory: moreRss <= 0.1 };
const ok = goals.size && goals.speed && goals.memory;
const result = { testTakers: N, runs: RUNS, ...summary, htmlCpuAboveBy: Number(slower.toFixed(3)), htmlWallAboveBy: Number(slowerWall.toFixed(3)), htmlRssAboveBy: Number(moreRss.toFixed(3)), goals };
if (asJson) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else {
  log(`json: median ${(summary.json.medianMs / 1000).toFixed(2)} s, CPU ${(summary.json.medianCpuMs / 1000).toFixed(2)} s, ${summary.json.medianRssMb} MB peak RSS, ${summary.json.bytes} bytes`);
  log(`html: median ${(summary.html.medianMs / 1000).toFixed(2)} s, CPU ${(summary.html.medianCpuMs / 1000).toFixed(2)} s, ${summary.html.medianRssMb} MB peak RSS, ${summary.html.bytes} bytes`);
  log(`html: CPU ${(slower * 100).toFixed(1)}% ${slower >= 0 ? 'above' : 'below'} JSON (wall ${(slowerWall * 100).toFixed(1)}%), peak RSS ${(moreRss * 100).toFixed(1)}% ${moreRss >= 0 ? 'above' : 'below'} (goals: <= 10%, <= 10%, <= 2 MB): ${ok ? 'met' : 'MISSED'}`);
}
process.exitCode = ok ? 0 : 1;
