#!/usr/bin/env node
// `report --fairness` against the same report without it (issue 46, item 6),
// end to end with the built binary:
//
//   npm run build && node bench/export/fairness.mjs [--test-takers 10000] [--runs 3] [--latency MS] [--json]
//
// A stub seeded with TEST_TAKERS test takers over 3 teams runs in its own
// process (`jobfit stub serve`), and the same folder is the CLI's embedded
// stub (no service configured). With --latency MS a second server on the
// folder adds MS milliseconds to every answer (`--faults latency=MS`: a
// network between the CLI and the service). A self-identification CSV with
// a row for every invited email (sex and race drawn from a hash of the email)
// is written beside it. Then, RUNS rounds, each running every variant at
// every place once, each round starting one further along (so a slow phase
// of a shared machine falls on each alike):
//   plain:         report --sp sales-rep -o json --out F
//   fairness:      report --sp sales-rep --fairness FILE --by sex,race -o json --out F
//   no-completion: the same with --no-completion (no test-taker request per person)
// Reported per place and variant: median wall time, median CPU time (user +
// system) of the CLI's process (bench/export/usage.cjs) and, for a served
// stub on Linux, of the stub's process during the run; each fairness
// variant's ratios to plain at the same place. Goal: fairness within 1.2x of
// plain (wall time, the time a person waits) at the embedded and the served
// stub. Exit code 1 when missed.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, benchPlace, logTo, runJobfit, serveStub, stopStub } from '../lib.mjs';
import { median, privateCopy, processCpuMs, seededStub, timedJobfit } from './report-runs.mjs';

const { root, tmp, env: baseEnv } = benchPlace('fairness');
const bin = privateCopy(root, tmp);
const N = arg('--test-takers', 10_000);
const RUNS = arg('--runs', 3);
const LATENCY = arg('--latency', 0);
const asJson = process.argv.includes('--json');
const log = logTo(asJson);
const GOAL = 1.2;

const stub = await seededStub(bin, tmp, N, baseEnv);
const slow = LATENCY > 0 ? await serveStub(bin, stub.dir, baseEnv, ['--faults', `latency=${LATENCY},seed=1`]) : undefined;
const places = { served: { env: stub.served.env, pid: stub.served.child.pid }, embedded: { env: stub.embeddedEnv } };
if (slow) places[`served, +${LATENCY} ms`] = { env: slow.env, pid: slow.child.pid };
const selfId = join(tmp, 'self-id.csv');
const variants = {
  plain: [],
  fairness: ['--fairness', selfId, '--by', 'sex,race'],
  'no-completion': ['--fairness', selfId, '--by', 'sex,race', '--no-completion'],
};
const runs = {};
const started = new Date();
try {
  const listed = JSON.parse(runJobfit(bin, ['invitations', 'list', '--all', '-o', 'json'], stub.served.env).stdout);
  const items = Array.isArray(listed) ? listed : listed.data;
  const h = (e, salt) => createHash('sha256').update(`${salt}:${e}`).digest().readUInt32BE(0) / 2 ** 32;
  const races = ['White', 'Black or African American', 'Hispanic or Latino', 'Asian', 'Two or More Races'];
  writeFileSync(selfId, `email,sex,race\n${items.map((i) => `${i.email},${h(i.email, 's') < 0.5 ? 'Female' : 'Male'},${races[Math.floor(h(i.email, 'r') * races.length)]}`).join('\n')}\n`);
  const order = Object.entries(places).flatMap(([place, p]) => Object.entries(variants).map(([name, extra]) => ({ place, p, name, extra })));
  for (let i = 0; i < RUNS; i++) {
    // Each round starts with the next run, so a machine getting busier does not always fall on the same one.
    for (const { place, p, name, extra } of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
      const out = join(tmp, 'report.json');
      rmSync(out, { force: true });
      const before = p.pid === undefined ? undefined : processCpuMs(p.pid);
      const r = timedJobfit(root, bin, ['report', '--sp', 'sales-rep', '-o', 'json', '--out', out, ...extra], p.env);
      const after = p.pid === undefined ? undefined : processCpuMs(p.pid);
      r.stubCpuMs = before === undefined || after === undefined ? undefined : after - before;
      ((runs[place] ??= {})[name] ??= []).push(r);
      log(`run ${i + 1} ${place} ${name}: ${(r.ms / 1000).toFixed(2)} s, CLI CPU ${(r.cpuMs / 1000).toFixed(2)} s${r.stubCpuMs === undefined ? '' : `, stub CPU ${(r.stubCpuMs / 1000).toFixed(2)} s`}`);
    }
  }
} finally {
  if (slow) await stopStub(slow);
  await stub.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const med = (rs, k) => (rs.some((r) => r[k] === undefined) ? undefined : Math.round(median(rs.map((r) => r[k]))));
const result = { testTakers: N, runs: RUNS, latencyMs: LATENCY, started: started.toISOString(), goal: GOAL, places: {} };
let ok = true;
for (const [place, byVariant] of Object.entries(runs)) {
  const s = Object.fromEntries(Object.entries(byVariant).map(([k, rs]) => [k, { medianMs: med(rs, 'ms'), medianCpuMs: med(rs, 'cpuMs'), medianStubCpuMs: med(rs, 'stubCpuMs') }]));
  const ratio = (k, f) => (s[k][f] === undefined ? undefined : Number((s[k][f] / s.plain[f]).toFixed(3)));
  for (const k of ['fairness', 'no-completion']) Object.assign(s[k], { ratio: ratio(k, 'medianMs'), cpuRatio: ratio(k, 'medianCpuMs'), stubCpuRatio: ratio(k, 'medianStubCpuMs') });
  result.places[place] = s;
  // The goal is the issue's: the seeded stub as it is (a network's latency is a view of its own).
  if (!place.includes('+')) ok &&= s.fairness.ratio <= GOAL;
}
result.met = ok;
const sec = (ms) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(2)} s`);
if (asJson) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else {
  for (const [place, s] of Object.entries(result.places)) {
    for (const [k, v] of Object.entries(s)) {
      log(`${place} ${k}: median ${sec(v.medianMs)}, CLI CPU ${sec(v.medianCpuMs)}, stub CPU ${sec(v.medianStubCpuMs)}${k === 'plain' ? '' : ` (${v.ratio}x plain; CLI CPU ${v.cpuRatio}x, stub CPU ${v.stubCpuRatio ?? '–'}x)`}`);
    }
  }
  log(`goal: fairness <= ${GOAL}x plain, served and embedded: ${ok ? 'met' : 'MISSED'}`);
}
process.exitCode = ok ? 0 : 1;
