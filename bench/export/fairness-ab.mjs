#!/usr/bin/env node
// `report` and `report --fairness` of two builds side by side (issue 46, item
// 6: where the cost of completion goes), on the embedded stub and against
// `jobfit stub serve`:
//
//   node bench/export/fairness-ab.mjs --a DIR_A --b DIR_B [--test-takers 10000] [--runs 5] [--only embedded|served]
//
// DIR_A and DIR_B are two copies of a built tree (bin/ and dist/, with
// node_modules beside them: bench/export/report-runs.mjs privateCopy makes
// one), e.g. this build and the same build with a local patch. One folder is
// seeded (from A's build) with TEST_TAKERS test takers over 3 teams and a
// self-identification CSV with a row for every invited email; each build
// serves it in a process of its own, and opens it as its embedded stub. Per
// round each build runs plain `report --sp sales-rep -o json --out F` and the
// same with `--fairness FILE --by sex,race` at each place, each round starting
// one run further along. Printed per build and place: the median wall time,
// CLI CPU and (served, Linux) stub CPU of each variant, and fairness/plain.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { arg, argOf, benchPlace, runJobfit, serveStub, stopStub } from '../lib.mjs';
import { median, processCpuMs, seededStub, timedJobfit } from './report-runs.mjs';

const A = argOf('--a', undefined);
const B = argOf('--b', undefined);
if (!A || !B) {
  process.stderr.write('usage: node bench/export/fairness-ab.mjs --a DIR_A --b DIR_B [--test-takers N] [--runs N] [--only embedded|served]\n');
  process.exit(2);
}
const N = arg('--test-takers', 10_000);
const RUNS = arg('--runs', 5);
const ONLY = argOf('--only', '');
const { root, tmp, env: baseEnv } = benchPlace('fairness-ab');
const bins = { A: join(resolve(A), 'bin/jobfit.js'), B: join(resolve(B), 'bin/jobfit.js') };

const stub = await seededStub(bins.A, tmp, N, baseEnv);
const servedB = await serveStub(bins.B, stub.dir, baseEnv);
const served = { A: stub.served, B: servedB };
const selfId = join(tmp, 'self-id.csv');
const runs = {};
try {
  const listed = JSON.parse(runJobfit(bins.A, ['invitations', 'list', '--all', '-o', 'json'], stub.served.env).stdout);
  const items = Array.isArray(listed) ? listed : listed.data;
  const h = (e, salt) => createHash('sha256').update(`${salt}:${e}`).digest().readUInt32BE(0) / 2 ** 32;
  const races = ['White', 'Black or African American', 'Hispanic or Latino', 'Asian', 'Two or More Races'];
  writeFileSync(selfId, `email,sex,race\n${items.map((i) => `${i.email},${h(i.email, 's') < 0.5 ? 'Female' : 'Male'},${races[Math.floor(h(i.email, 'r') * races.length)]}`).join('\n')}\n`);
  const variants = { plain: [], fairness: ['--fairness', selfId, '--by', 'sex,race'] };
  const places = ['served', 'embedded'].filter((p) => !ONLY || p === ONLY);
  const order = Object.keys(bins).flatMap((b) => places.flatMap((place) => Object.entries(variants).map(([name, extra]) => ({ b, place, name, extra }))));
  for (let i = 0; i < RUNS; i++) {
    for (const { b, place, name, extra } of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
      const out = join(tmp, 'report.json');
      rmSync(out, { force: true });
      const pid = place === 'served' ? served[b].child.pid : undefined;
      const before = pid === undefined ? undefined : processCpuMs(pid);
      const r = timedJobfit(root, bins[b], ['report', '--sp', 'sales-rep', '-o', 'json', '--out', out, ...extra], place === 'served' ? served[b].env : stub.embeddedEnv);
      const after = pid === undefined ? undefined : processCpuMs(pid);
      r.stubCpuMs = before === undefined || after === undefined ? undefined : after - before;
      ((runs[`${b} ${place}`] ??= {})[name] ??= []).push(r);
      process.stderr.write(`run ${i + 1} ${b} ${place} ${name}: ${(r.ms / 1000).toFixed(2)} s, CLI CPU ${(r.cpuMs / 1000).toFixed(2)} s${r.stubCpuMs === undefined ? '' : `, stub CPU ${(r.stubCpuMs / 1000).toFixed(2)} s`}\n`);
    }
  }
} finally {
  await stopStub(servedB);
  await stub.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const sec = (ms) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(2)} s`);
const med = (rs, k) => (rs.some((r) => r[k] === undefined) ? undefined : median(rs.map((r) => r[k])));
for (const [key, v] of Object.entries(runs)) {
  const [p, f] = [v.plain, v.fairness];
  const ratio = (k) => (med(p, k) === undefined ? '–' : `${(med(f, k) / med(p, k)).toFixed(3)}x`);
  process.stdout.write(
    `${key}: plain ${sec(med(p, 'ms'))}, fairness ${sec(med(f, 'ms'))} (${ratio('ms')}); CLI CPU ${sec(med(p, 'cpuMs'))} → ${sec(med(f, 'cpuMs'))} (${ratio('cpuMs')}); stub CPU ${sec(med(p, 'stubCpuMs'))} → ${sec(med(f, 'stubCpuMs'))} (${ratio('stubCpuMs')})\n`,
  );
}
