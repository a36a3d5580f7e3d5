#!/usr/bin/env node
// What one GET /test-takers/ID costs a client that does nothing else, against
// `jobfit stub serve` on this machine: the floor under what completion adds
// to `report --fairness` against a served stub (issue 46, item 6;
// docs/performance.md, "Fairness report"):
//
//   npm run build && node bench/export/request-floor.mjs [--test-takers 10000] [--runs 3] [--json]
//
// The reference gives a test taker's assigned assessments (completion) only
// in GET /test-takers/ID, so an exact completion count asks once per person.
// A stub seeded with TEST_TAKERS test takers runs in its own process; each
// round runs, each in a fresh node process (16 requests in flight, keep-alive,
// the body read and parsed as JSON, nothing else):
//   undici:    undici's `request` with an Agent (what jobfit's client uses)
//   node:http: node's own http.get with a keep-alive Agent
// and the served `report --sp sales-rep -o json` of the built CLI (plain, and
// with --fairness). Reported: each client's CPU time per request (user +
// system, medians), the CLI's CPU per test taker that --fairness adds, and
// the lowest fairness/plain ratio the floor allows for a client that is
// CPU-bound (plain's wall time + the floor's CPU for every test taker).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, benchPlace, logTo, runJobfit } from '../lib.mjs';
import { median, privateCopy, seededStub, timedJobfit } from './report-runs.mjs';

const { root, tmp, env: baseEnv } = benchPlace('request-floor');
const bin = privateCopy(root, tmp);
const N = arg('--test-takers', 10_000);
const RUNS = arg('--runs', 3);
const asJson = process.argv.includes('--json');
const log = logTo(asJson);

// One client, in its own process: every id once, 16 at a time; prints its CPU time in µs.
const CLIENT = `
const [kind, base, key, idsText] = process.argv.slice(1);
const ids = idsText.split(',');
const started = process.cpuUsage();
let next = 0;
let one;
if (kind === 'undici') {
  const { Agent, request } = await import(${JSON.stringify(join(root, 'node_modules/undici/index.js'))});
  const dispatcher = new Agent({ connections: 16 });
  one = async (id) => JSON.parse(await (await request(base + '/test-takers/' + id, { dispatcher, headers: { authorization: 'Bearer ' + key } })).body.text());
} else {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  one = (id) => new Promise((resolve, reject) => {
    http.get(base + '/test-takers/' + id, { agent, headers: { authorization: 'Bearer ' + key } }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString('utf8'))));
    }).on('error', reject);
  });
}
await Promise.all(Array.from({ length: 16 }, async () => { while (next < ids.length) await one(ids[next++]); }));
const u = process.cpuUsage(started);
console.log(u.user + u.system);
process.exit(0);
`;

function client(kind, served, ids) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CLIENT, kind, served.url, served.key, ids.join(',')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${kind} client exited ${r.status}: ${r.stderr.slice(-500)}`);
  return Number(r.stdout.trim()) / ids.length;
}

const stub = await seededStub(bin, tmp, N, baseEnv);
const runs = { undici: [], 'node:http': [], plain: [], fairness: [] };
let takers;
try {
  const listed = JSON.parse(runJobfit(bin, ['invitations', 'list', '--all', '-o', 'json'], stub.served.env).stdout);
  const items = Array.isArray(listed) ? listed : listed.data;
  const ids = items.filter((i) => i.test_taker_id != null).map((i) => i.test_taker_id);
  takers = ids.length;
  const selfId = join(tmp, 'self-id.csv');
  const h = (e) => createHash('sha256').update(e).digest().readUInt32BE(0) / 2 ** 32;
  writeFileSync(selfId, `email,sex\n${items.map((i) => `${i.email},${h(i.email) < 0.5 ? 'Female' : 'Male'}`).join('\n')}\n`);
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ['undici', 'node:http']) {
      runs[kind].push(client(kind, stub.served, ids));
      log(`run ${i + 1} ${kind}: ${runs[kind].at(-1).toFixed(1)} µs CPU per GET`);
    }
    for (const [name, extra] of [['plain', []], ['fairness', ['--fairness', selfId, '--by', 'sex']]]) {
      const out = join(tmp, 'report.json');
      rmSync(out, { force: true });
      runs[name].push(timedJobfit(root, bin, ['report', '--sp', 'sales-rep', '-o', 'json', '--out', out, ...extra], stub.served.env));
      log(`run ${i + 1} report ${name}: ${(runs[name].at(-1).ms / 1000).toFixed(2)} s, CLI CPU ${(runs[name].at(-1).cpuMs / 1000).toFixed(2)} s`);
    }
  }
} finally {
  await stub.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const floorUs = Math.min(median(runs.undici), median(runs['node:http']));
const plainMs = median(runs.plain.map((r) => r.ms));
const addedUs = ((median(runs.fairness.map((r) => r.cpuMs)) - median(runs.plain.map((r) => r.cpuMs))) * 1000) / takers;
const result = {
  testTakers: takers,
  runs: RUNS,
  cpuUsPerGet: { undici: Math.round(median(runs.undici)), 'node:http': Math.round(median(runs['node:http'])) },
  fairnessAddsCliCpuUsPerTaker: Math.round(addedUs),
  plainWallMs: Math.round(plainMs),
  fairnessWallMs: Math.round(median(runs.fairness.map((r) => r.ms))),
  lowestRatio: Number(((plainMs + (floorUs * takers) / 1000) / plainMs).toFixed(3)),
};
if (asJson) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`GET /test-takers/ID, CPU per request (median of ${RUNS}): undici ${result.cpuUsPerGet.undici} µs, node:http ${result.cpuUsPerGet['node:http']} µs`);
  console.log(`report --fairness adds ${result.fairnessAddsCliCpuUsPerTaker} µs of the CLI's CPU per test taker (${takers} test takers)`);
  console.log(`served report: plain ${(plainMs / 1000).toFixed(2)} s, fairness ${(result.fairnessWallMs / 1000).toFixed(2)} s; the floor allows no better than ${result.lowestRatio}x for a CPU-bound client`);
}
