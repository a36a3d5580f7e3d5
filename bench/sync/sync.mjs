#!/usr/bin/env node
// Sync benchmark (issue 13), end to end with the built binary:
//
//   npm run build && node bench/sync/sync.mjs [--test-takers 10000] [--sp sales-rep,software-engineer] [--db postgres://...] [--json]
//
// --db URL syncs into that (empty) PostgreSQL database instead of a new SQLite file.
// A stub in its own process (`jobfit stub serve`) seeded with TEST_TAKERS
// accepted invitations, about half of them complete. Then:
// 1. first sync into a new SQLite file: test takers per second (wall time,
//    process start-up included) and requests by kind;
// 2. a second sync with nothing changed: requests by kind and seconds, as a
//    ratio of the first. Goal: at most a third of the requests, no scorecard
//    or job-fit request at all;
// 3. 1% of the people complete what they had open (`jobfit stub complete`),
//    then a third sync. Goal: scorecards fetched = those people x profiles,
//    job-fit reports only among them.
// Exit code 1 when a goal is missed.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { argOf, benchPlace, logTo, runJobfit, serveStub, stopStub } from '../lib.mjs';

const { bin, tmp, env: baseEnv } = benchPlace('sync');
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const TEST_TAKERS = Number(argOf('--test-takers', '10000'));
const SPS = argOf('--sp', 'sales-rep,software-engineer');
const asJson = process.argv.includes('--json');
const PG_URL = argOf('--db', undefined);
const log = logTo(asJson);

const jobfit = (args, env = baseEnv) => runJobfit(bin, args, env);

const serve = (dir) => serveStub(bin, dir, baseEnv);

const stop = stopStub;

async function query(target, sql) {
  if (target.startsWith('postgres')) {
    const pg = require('pg');
    const c = new pg.Client({ connectionString: target });
    await c.connect();
    try {
      return (await c.query(sql)).rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, /^\d+$/.test(String(v)) ? Number(v) : v])));
    } finally {
      await c.end();
    }
  }
  const db = new Database(target, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

async function timedSync(env, db, extra = []) {
  const t0 = performance.now();
  jobfit(['sync', '--db', db, ...extra], env);
  const seconds = (performance.now() - t0) / 1000;
  const run = (await query(db, 'SELECT * FROM sync_runs ORDER BY id DESC LIMIT 1'))[0];
  return { seconds: Number(seconds.toFixed(2)), requests: run.requests, by_kind: JSON.parse(run.requests_by_kind), inserted: run.rows_inserted, updated: run.rows_updated };
}

const fmt = (by) =>
  Object.entries(by)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const results = {};
let ok = true;
const s = { child: undefined };
try {
  const dir = join(tmp, 'stub');
  jobfit(['stub', 'seed', '--test-takers', String(TEST_TAKERS), '--teams', '3', '--complete', '0.5', '--data', dir]);
  Object.assign(s, await serve(dir));
  const db = PG_URL ?? join(tmp, 'results.sqlite');
  results.backend = PG_URL ? 'postgres' : 'sqlite';

  const first = await timedSync(s.env, db, ['--sp', SPS]);
  const takers = (await query(db, 'SELECT COUNT(*) AS n FROM test_takers'))[0].n;
  const open = (await query(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE assessments_open > 0'))[0].n;
  first.test_takers = takers;
  first.test_takers_per_second = Math.round(takers / first.seconds);
  results.first = first;
  log(`first sync: ${takers} test takers (${open} with assessments open) in ${first.seconds}s = ${first.test_takers_per_second} test takers/s; ${first.requests} requests (${fmt(first.by_kind)})`);

  const second = await timedSync(s.env, db);
  second.request_ratio = Number((second.requests / first.requests).toFixed(3));
  second.time_ratio = Number((second.seconds / first.seconds).toFixed(3));
  results.no_change = second;
  const resultsFetched = (second.by_kind.scorecard ?? 0) + (second.by_kind.job_fit_report ?? 0);
  if (second.request_ratio > 1 / 3 || resultsFetched > 0) ok = false;
  log(`no-change sync: ${second.requests} requests (${fmt(second.by_kind)}) = ${second.request_ratio}x the first; ${second.seconds}s = ${second.time_ratio}x (goal <= 0.333x requests, no result fetched)`);

  // 1% of the people finish what they had open.
  const movers = (await query(db, `SELECT id FROM test_takers WHERE assessments_open > 0 ORDER BY id LIMIT ${Math.max(1, Math.round(takers / 100))}`)).map((r) => r.id);
  for (const id of movers) jobfit(['stub', 'complete', String(id), '--data', dir]);
  const third = await timedSync(s.env, db);
  const profiles = SPS.split(',').length;
  third.completed = movers.length;
  third.time_ratio = Number((third.seconds / first.seconds).toFixed(3));
  results.one_percent = third;
  if ((third.by_kind.scorecard ?? 0) !== movers.length * profiles || (third.by_kind.job_fit_report ?? 0) > movers.length) ok = false;
  log(`after ${movers.length} people (1%) completed: ${third.requests} requests (${fmt(third.by_kind)}); ${third.seconds}s = ${third.time_ratio}x (goal: scorecards = ${movers.length} x ${profiles}, job-fit <= ${movers.length})`);
} finally {
  if (s.child) await stop(s);
  rmSync(tmp, { recursive: true, force: true });
}
if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
process.exitCode = ok ? 0 : 1;
