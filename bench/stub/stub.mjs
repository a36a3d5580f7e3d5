#!/usr/bin/env node
// Stub throughput and start-up (issue 2, "Must show"):
// - requests/s of `GET /v2/test-takers` and of `POST /v2/invitations` (a new
//   email per request) at 10 connections against `jobfit stub serve`, each
//   beside a bare node:http server measured in the same run: for GET one that
//   answers the same body bytes (captured from the stub), for POST one that
//   parses the JSON body and does the same SQLite insert (the invitations
//   table and indexes copied from the stub's database, WAL, same pragmas).
//   Every server is its own process; runs are interleaved (stub, bare, stub,
//   bare, …) so that machine noise hits both alike; medians are reported.
// - ready to serve: spawn of `node bin/jobfit.js stub serve --port 0` to the
//   first 200 of GET /v2/healthcheck, on a fresh and on an existing data dir.
//
//   npm run build && node bench/stub/stub.mjs [--runs 3] [--duration 5] [--launches 7] [--json]
//
// Goals: GET >= 50% of bare, POST >= 40% of bare, ready <= 300 ms. Exit code 1
// when a goal is missed.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { arg, benchPlace } from '../lib.mjs';

const { root, bin, tmp, env } = benchPlace('stub');
const bare = join(root, 'bench/stub/bare.mjs');
const RUNS = arg('--runs', 3);
const DURATION = arg('--duration', 5);
const LAUNCHES = arg('--launches', 7);
const CONNECTIONS = 10;
const asJson = process.argv.includes('--json');
const log = (m) => process.stderr.write(`${m}\n`);

const children = new Set();

/** Spawns a server process and resolves when `pattern` matches its output (group 1: the URL). */
function startProcess(argv, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    const onData = (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ child, url: m[1], out });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      children.delete(child);
      reject(new Error(`${argv.join(' ')} exited (${code}):\n${out}`));
    });
    setTimeout(() => reject(new Error(`${argv.join(' ')} did not start:\n${out}`)), 20_000).unref();
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

const serveArgs = (dataDir) => [bin, 'stub', 'serve', '--port', '0', '--data', dataDir];
const STUB_URL = /Stub listening on (http:\/\/127\.0\.0\.1:\d+)\/v2/;

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

// ------------------------------------------------------------------ start-up

async function readyOnce(dataDir) {
  const t0 = performance.now();
  const p = startProcess(serveArgs(dataDir), STUB_URL);
  const { child, url } = await p;
  // The URL is printed after listen(); poll anyway, the first 200 is the measure.
  for (;;) {
    try {
      const r = await fetch(`${url}/v2/healthcheck`);
      await r.arrayBuffer();
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const ms = performance.now() - t0;
  p.catch(() => {});
  await stop(child);
  return ms;
}

// ------------------------------------------------------------------ throughput

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

let emailSeq = 0;
const runTag = Date.now().toString(36);
function postRequest(path, key) {
  return {
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    // A new email per request: a duplicate is a 400 and would not measure the insert.
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ first_name: 'Bench', last_name: 'Mark', email: `bench.${runTag}.${++emailSeq}@bench.example`, created_by_user_email: 'dana.whitfield@northwind-talent.example' }),
    }),
  };
}

function summary(r) {
  return { rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

try {
  log(`nproc ${cpus().length}, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);

  // Start-up first, on a quiet machine: fresh and existing data dirs interleaved.
  const existing = join(tmp, 'existing');
  await readyOnce(existing); // creates and seeds it; also warms the OS file cache
  const ready = { fresh: [], existing: [] };
  for (let i = 0; i < LAUNCHES; i++) {
    ready.fresh.push(await readyOnce(join(tmp, `fresh-${i}`)));
    ready.existing.push(await readyOnce(existing));
  }
  log(`ready fresh ${ready.fresh.map((x) => x.toFixed(0)).join(' ')} ms; existing ${ready.existing.map((x) => x.toFixed(0)).join(' ')} ms`);

  // Servers for throughput.
  const stubDir = join(tmp, 'stub');
  const stub = await startProcess(serveArgs(stubDir), /Stub listening on (http:\/\/127\.0\.0\.1:\d+)\/v2[\s\S]*?live key: (sk_live_[0-9a-f]{32})/);
  const key = /live key: (sk_live_[0-9a-f]{32})/.exec(stub.out)[1];
  const auth = { authorization: `Bearer ${key}` };

  const captured = await fetch(`${stub.url}/v2/test-takers`, { headers: auth });
  const body = Buffer.from(await captured.arrayBuffer());
  if (captured.status !== 200) throw new Error(`GET /v2/test-takers answered ${captured.status}`);
  const bodyFile = join(tmp, 'test-takers.json');
  writeFileSync(bodyFile, body);

  // The invitations table and its indexes as the stub created them.
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const src = new Database(join(stubDir, 'stub.db'), { readonly: true });
  const ddl = src
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'invitations' AND sql IS NOT NULL ORDER BY type DESC")
    .all()
    .map((r) => `${r.sql};`)
    .join('\n');
  src.close();
  const ddlFile = join(tmp, 'invitations.sql');
  writeFileSync(ddlFile, ddl);

  const bareGet = await startProcess([bare, 'get', bodyFile], /listening (http:\/\/127\.0\.0\.1:\d+)/);
  const barePost = await startProcess([bare, 'post', ddlFile, join(tmp, 'bare.db')], /listening (http:\/\/127\.0\.0\.1:\d+)/);

  const cases = {
    'GET stub': { url: `${stub.url}/v2/test-takers`, headers: auth },
    'GET bare': { url: `${bareGet.url}/v2/test-takers`, headers: auth },
    'POST stub': { url: stub.url, requests: [postRequest('/v2/invitations', key)] },
    'POST bare': { url: barePost.url, requests: [postRequest('/v2/invitations', key)] },
  };
  const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));

  // Warm-up: JIT, statement caches, the stub's lazy load of zod and libphonenumber.
  for (const [name, opts] of Object.entries(cases)) {
    const r = await cannon({ ...opts, duration: 1 });
    log(`warm-up ${name}: ${r.requests.average.toFixed(0)} req/s`);
  }

  for (let i = 0; i < RUNS; i++) {
    for (const [name, opts] of Object.entries(cases)) {
      const s = summary(await cannon(opts));
      if (s.non2xx || s.errors) throw new Error(`${name}: ${s.non2xx} non-2xx answers, ${s.errors} errors`);
      results[name].push(s);
      log(`run ${i + 1} ${name}: ${s.rps.toFixed(0)} req/s (p50 ${s.p50_ms} ms, p99 ${s.p99_ms} ms)`);
    }
  }

  const med = (name) => median(results[name].map((s) => s.rps));
  const out = {
    machine: { nproc: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg_after: loadavg().map((x) => +x.toFixed(2)) },
    settings: { connections: CONNECTIONS, duration_s: DURATION, runs: RUNS, launches: LAUNCHES, get_body_bytes: body.length },
    throughput: ['GET', 'POST'].map((m) => {
      const s = med(`${m} stub`);
      const b = med(`${m} bare`);
      const goal = m === 'GET' ? 0.5 : 0.4;
      return {
        request: m === 'GET' ? 'GET /v2/test-takers' : 'POST /v2/invitations',
        stub_rps: Math.round(s),
        bare_rps: Math.round(b),
        ratio: +(s / b).toFixed(2),
        // Each round's stub and bare runs are back to back, so their ratio is less exposed to the machine's swings.
        round_ratio_median: +median(results[`${m} stub`].map((x, i) => x.rps / results[`${m} bare`][i].rps)).toFixed(2),
        goal: `>= ${goal * 100}%`,
        met: s / b >= goal,
        stub_runs: results[`${m} stub`].map((x) => Math.round(x.rps)),
        bare_runs: results[`${m} bare`].map((x) => Math.round(x.rps)),
      };
    }),
    ready: ['fresh', 'existing'].map((k) => ({
      data_dir: k,
      median_ms: Math.round(median(ready[k])),
      min_ms: Math.round(Math.min(...ready[k])),
      max_ms: Math.round(Math.max(...ready[k])),
      goal: '<= 300 ms',
      met: median(ready[k]) <= 300,
    })),
  };

  if (asJson) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(`nproc ${out.machine.nproc} (${out.machine.cpu}), node ${out.machine.node}; ${CONNECTIONS} connections, ${DURATION} s per run, ${RUNS} interleaved runs, medians`);
    console.log('| request | stub req/s | bare req/s | stub / bare | median of per-round ratios | goal | runs (stub; bare) |');
    console.log('|---|---:|---:|---:|---:|---|---|');
    for (const t of out.throughput) {
      console.log(`| \`${t.request}\` | ${t.stub_rps} | ${t.bare_rps} | ${Math.round(t.ratio * 100)}% | ${Math.round(t.round_ratio_median * 100)}% | ${t.goal} ${t.met ? 'met' : 'MISSED'} | ${t.stub_runs.join(', ')}; ${t.bare_runs.join(', ')} |`);
    }
    console.log(`\n| data dir | ready median | min | max | goal |\n|---|---:|---:|---:|---|`);
    for (const r of out.ready) console.log(`| ${r.data_dir} | ${r.median_ms} ms | ${r.min_ms} ms | ${r.max_ms} ms | ${r.goal} ${r.met ? 'met' : 'MISSED'} |`);
  }
  process.exitCode = out.throughput.every((t) => t.met) && out.ready.every((r) => r.met) ? 0 : 1;
} finally {
  await Promise.all([...children].map(stop));
  rmSync(tmp, { recursive: true, force: true });
}
