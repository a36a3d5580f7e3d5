#!/usr/bin/env node
// Peak memory of `jobfit webhook listen` under a flood of large deliveries
// (the scenario of test/webhook/hardening.test.ts, repeated):
//
//   npm run build && node bench/webhook/listen-memory.mjs [--rounds 5] [--bins OTHER/bin/jobfit.js,bin/jobfit.js] [--json]
//
// Each run starts `jobfit webhook listen --no-stub -q` with one of --bins
// (default: this tree's bin/jobfit.js; the bins alternate, ROUNDS times),
// posts --events (400) events, --concurrency (16) at a time, each with a
// distinct id of --id-kb (900) KB (refused: 400, or 503 when busy), and
// reads the listener's peak resident size (VmHWM in /proc/PID/status) and
// its CPU time so far, start-up included (/proc/PID/stat). Medians and
// maxima per bin. Exit code 1 when a run of the last bin peaks above
// --max-mb (default 150, the test's bound).
//
// With --hung-app, the listener forwards to an app that takes each request
// and never answers, and each event has a short id and a data field of
// --id-kb KB instead: they are taken and kept in the forward queue until it
// is full (32 MB), then answered 503; e.g. --hung-app --id-kb 800 --events
// 45 --concurrency 1 fills the queue with 40.
//
// With --too-large MB, each event is a body of MB megabytes instead (over
// the 1 MB limit): it is answered 413 before a byte is read, and the rest of
// it is read and dropped before the connection closes, so the peak shows
// whether the dropped bytes cost memory. A sender that sees a reset instead
// of an answer is counted under its error code (EPIPE, ECONNRESET).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { resolve } from 'node:path';
import { arg, argOf, benchPlace, logTo } from '../lib.mjs';

const { bin, tmp, env } = benchPlace('webhook-memory');
const ROUNDS = arg('--rounds', 5);
const EVENTS = arg('--events', 400);
const CONCURRENCY = arg('--concurrency', 16);
const ID_KB = arg('--id-kb', 900);
const MAX_MB = arg('--max-mb', 150);
const BINS = argOf('--bins', bin)
  .split(',')
  .map((b) => resolve(b));
const asJson = process.argv.includes('--json');
const HUNG = process.argv.includes('--hung-app');
const TOO_LARGE_MB = arg('--too-large', 0);
const log = logTo(asJson);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The answer's status; with --too-large, the error code instead when the sender also saw a reset (before or after the answer). */
function post(url, body) {
  return new Promise((ok, fail) => {
    let status = 0;
    let error;
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume();
      res.on('end', () => {
        status = res.statusCode ?? 0;
        if (!TOO_LARGE_MB) ok(status);
      });
    });
    req.on('error', (e) => (TOO_LARGE_MB ? (error = e.code ?? 'error') : fail(e)));
    if (TOO_LARGE_MB) req.on('close', () => ok(error ?? status));
    req.end(body);
  });
}

const event = (id, pad) => ({ id, type: 'invitation.accepted', object: 'event', created_at: '2026-11-22T10:00:00.123Z', api_version: '2.3.0', data: { object: { object: 'invitation', id: 100001, pad } } });
/** The i-th event: a distinct id of ID_KB KB, or with --hung-app a short id and ID_KB KB of data. */
const eventNo = (i, big) => JSON.stringify(HUNG ? event(`evt_${i}`, big) : event(`${i}_${big}`));

/** An app that takes each request and never answers (with --hung-app). */
async function hungApp() {
  const server = createServer(() => undefined);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, close: () => (server.closeAllConnections(), server.close()) };
}

/** One listener with `jobfitBin` and one flood: its peak RSS (MB), the answers, the wall seconds. */
async function flood(jobfitBin) {
  const app = HUNG ? await hungApp() : undefined;
  const child = spawn(process.execPath, [jobfitBin, 'webhook', 'listen', '--no-stub', '-q', ...(app ? ['--forward-to', app.url] : [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.resume();
  let stderr = '';
  try {
    const url = await new Promise((ok, fail) => {
      child.stderr.on('data', (c) => {
        stderr += c;
        const m = /Listening for webhook events on (\S+)/.exec(stderr);
        if (m) ok(m[1]);
      });
      child.on('exit', (code) => fail(new Error(`listen exited ${code}: ${stderr}`)));
    });
    const big = 'e'.repeat(ID_KB * 1024);
    const huge = TOO_LARGE_MB ? Buffer.alloc(TOO_LARGE_MB * 1024 * 1024, 0x20) : undefined;
    const answers = {};
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          const i = next++;
          const s = await post(url, huge ?? eventNo(i, big));
          answers[s] = (answers[s] ?? 0) + 1;
        }
      }),
    );
    const wall = (performance.now() - t0) / 1000;
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
    // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux).
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const cpu = (Number(stat[11]) + Number(stat[12])) / 100;
    return { peak_rss_mb: Number((peakKb / 1024).toFixed(1)), cpu_s: Number(cpu.toFixed(2)), answers, wall_s: Number(wall.toFixed(1)) };
  } finally {
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGINT');
    await exited;
    app?.close();
  }
}

const results = Object.fromEntries(BINS.map((b) => [b, []]));
let ok = true;
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, b] of BINS.entries()) {
      const r = await flood(b);
      results[b].push(r);
      if (i === BINS.length - 1 && r.peak_rss_mb > MAX_MB) ok = false;
      log(`round ${round}, ${b}: peak RSS ${r.peak_rss_mb} MB, CPU ${r.cpu_s} s, answers ${JSON.stringify(r.answers)}, wall ${r.wall_s} s`);
    }
  }
  const summary = BINS.map((b) => {
    const peaks = results[b].map((r) => r.peak_rss_mb);
    const cpus = results[b].map((r) => r.cpu_s);
    return { bin: b, runs: peaks.length, median_peak_rss_mb: median(peaks), max_peak_rss_mb: Math.max(...peaks), min_peak_rss_mb: Math.min(...peaks), median_cpu_s: median(cpus) };
  });
  for (const s of summary) log(`${s.bin}: peak RSS median ${s.median_peak_rss_mb} MB, max ${s.max_peak_rss_mb} MB, min ${s.min_peak_rss_mb} MB; CPU median ${s.median_cpu_s} s (${s.runs} runs)`);
  if (asJson) process.stdout.write(`${JSON.stringify({ summary, results }, null, 2)}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
