#!/usr/bin/env node
// `report --fairness` against the same report without it (issue 46, item 6),
// end to end with the built binary:
//
//   npm run build && node bench/export/fairness.mjs [--test-takers 10000] [--runs 3] [--json]
//
// A stub seeded with TEST_TAKERS test takers over 3 teams runs in its own
// process (`jobfit stub serve`). A self-identification CSV with a row for
// every invited email (sex and race drawn from a hash of the email) is
// written beside it. Then, RUNS times in turn (so a slow phase of a shared
// machine falls on each alike):
//   plain:         report --sp sales-rep -o json --out F
//   fairness:      report --sp sales-rep --fairness FILE --by sex,race -o json --out F
//   no-completion: the same with --no-completion (no test-taker request per person)
// Reported: median wall time and CPU time (user + system) of the CLI's
// process (bench/export/usage.cjs), and each fairness variant's ratios to
// plain. Goal: fairness within 1.2x of plain (wall time, the time a person
// waits). Exit code 1 when missed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, benchPlace, logTo, runJobfit, serveStub, stopStub } from '../lib.mjs';

const { root, bin, tmp, env: baseEnv } = benchPlace('fairness');
const N = arg('--test-takers', 10_000);
const RUNS = arg('--runs', 3);
const asJson = process.argv.includes('--json');
const log = logTo(asJson);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function timed(args, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', join(root, 'bench/export/usage.cjs'), bin, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`jobfit ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  const cpuMs = Number(/CPU_US=(\d+)/.exec(r.stderr)?.[1] ?? 0) / 1000;
  return { ms, cpuMs, stdout: r.stdout };
}

const dir = join(tmp, 'stub');
runJobfit(bin, ['stub', 'seed', '--test-takers', String(N), '--teams', '3', '--data', dir], baseEnv);
const s = await serveStub(bin, dir, baseEnv);
const selfId = join(tmp, 'self-id.csv');
const variants = {
  plain: [],
  fairness: ['--fairness', selfId, '--by', 'sex,race'],
  'no-completion': ['--fairness', selfId, '--by', 'sex,race', '--no-completion'],
};
const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
try {
  const listed = JSON.parse(runJobfit(bin, ['invitations', 'list', '--all', '-o', 'json'], s.env).stdout);
  const items = Array.isArray(listed) ? listed : listed.data;
  const h = (e, salt) => createHash('sha256').update(`${salt}:${e}`).digest().readUInt32BE(0) / 2 ** 32;
  const races = ['White', 'Black or African American', 'Hispanic or Latino', 'Asian', 'Two or More Races'];
  writeFileSync(selfId, `email,sex,race\n${items.map((i) => `${i.email},${h(i.email, 's') < 0.5 ? 'Female' : 'Male'},${races[Math.floor(h(i.email, 'r') * races.length)]}`).join('\n')}\n`);
  const order = Object.entries(variants);
  for (let i = 0; i < RUNS; i++) {
    // Each round starts with the next variant, so a machine getting busier does not always fall on the same one.
    for (const [name, extra] of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
      const out = join(tmp, `report-${name}.json`);
      rmSync(out, { force: true });
      const r = timed(['report', '--sp', 'sales-rep', '-o', 'json', '--out', out, ...extra], s.env);
      runs[name].push(r);
      log(`run ${i + 1} ${name}: ${(r.ms / 1000).toFixed(2)} s, CPU ${(r.cpuMs / 1000).toFixed(2)} s`);
    }
  }
} finally {
  await stopStub(s);
  rmSync(tmp, { recursive: true, force: true });
}

const summary = Object.fromEntries(Object.entries(runs).map(([k, rs]) => [k, { medianMs: Math.round(median(rs.map((r) => r.ms))), medianCpuMs: Math.round(median(rs.map((r) => r.cpuMs))) }]));
const ratio = (k) => Number((summary[k].medianMs / summary.plain.medianMs).toFixed(3));
const cpuRatio = (k) => Number((summary[k].medianCpuMs / summary.plain.medianCpuMs).toFixed(3));
const result = { testTakers: N, runs: RUNS, ...summary, fairnessRatio: ratio('fairness'), noCompletionRatio: ratio('no-completion'), fairnessCpuRatio: cpuRatio('fairness'), noCompletionCpuRatio: cpuRatio('no-completion'), goal: 1.2 };
const ok = result.fairnessRatio <= 1.2;
if (asJson) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else {
  for (const k of Object.keys(variants)) log(`${k}: median ${(summary[k].medianMs / 1000).toFixed(2)} s, CPU ${(summary[k].medianCpuMs / 1000).toFixed(2)} s${k === 'plain' ? '' : ` (${ratio(k)}x plain; CPU ${cpuRatio(k)}x)`}`);
  log(`goal: fairness <= 1.2x plain: ${ok ? 'met' : 'MISSED'}`);
}
process.exitCode = ok ? 0 : 1;
