#!/usr/bin/env node
// Bulk invite benchmark (issue 4), end to end with the built binary:
//
//   npm run build && node bench/invite/bulk.mjs [--rows 10000] [--runs 3] [--curl 300] [--concurrency 16] [--dry-rows 100000] [--json]
//
// 1. `jobfit stub serve` in its own process (fresh data directory), warmed up
//    by one unmeasured run of 2,000 rows (its JIT, as a service that is up).
// 2. `jobfit invite --csv` of ROWS new participants (validation, journal and
//    results file included), RUNS times; the median rows/s is reported.
// 3. In the same run, a shell loop of `curl` posting the same kind of rows one
//    by one: CURL posts are timed and the per-row cost is extrapolated to ROWS
//    (running all 10,000 would take minutes and tell nothing more).
// 4. Peak RSS of a DRY_ROWS `--dry-run` (reported by the process itself on exit).
//
// Goals: >= 3,000 rows/s, >= 30x the curl loop, dry run < 120 MB.
// Exit code 1 when a goal is missed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, serveStub } from '../lib.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/jobfit.js');
const ROWS = arg('--rows', 10_000);
const RUNS = arg('--runs', 3);
const CURL = arg('--curl', 300);
const CONC = arg('--concurrency', 16);
const DRY_ROWS = arg('--dry-rows', 100_000);
const asJson = process.argv.includes('--json');
const INVITER = 'dana.whitfield@northwind-talent.example';

const tmp = mkdtempSync(join(tmpdir(), 'jobfit-bench-invite-'));
const log = (m) => {
  if (!asJson) process.stderr.write(`${m}\n`);
};

const startStub = () => serveStub(bin, join(tmp, 'stub'), { ...process.env, JOBFIT_CONFIG_DIR: join(tmp, 'config'), NO_COLOR: '1' });

function writeCsv(path, n, tag) {
  const teams = ['Retail Stores', '13', 'Head Office Recruiting', '14'];
  const parts = ['First Name,Last Name,Email,Team,Assessments,Notes\n'];
  for (let i = 1; i <= n; i++) parts.push(`First${i},Last${i},p${i}.${tag}@example.com,${teams[i % 4]},"Personality, Interests",row ${i}\n`);
  writeFileSync(path, parts.join(''));
}

function runJobfit(args, env, preload) {
  const nodeArgs = preload ? ['--require', join(root, 'bench/invite/maxrss.cjs'), bin, ...args] : [bin, ...args];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, nodeArgs, { env: { ...process.env, ...env, NO_COLOR: '1' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ms: performance.now() - t0, code: r.status, stderr: r.stderr, stdout: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const stub = await startStub();
const env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.key, JOBFIT_CONFIG_DIR: join(tmp, 'config') };
const results = {};
try {
  // One warm-up run, not measured: a service that is up has its code compiled;
  // a stub just started would otherwise pay for its JIT in the first run.
  {
    const csv = join(tmp, 'warmup.csv');
    writeCsv(csv, Math.min(ROWS, 2000), `w${Date.now()}`);
    const r = runJobfit(['invite', '--csv', csv, '--out', join(tmp, 'warmup.results.csv'), '--created-by', INVITER, '--concurrency', String(CONC)], env);
    if (r.code !== 0) throw new Error(`warm-up run exited ${r.code}: ${r.stderr}`);
  }
  // Bulk runs.
  const rates = [];
  for (let run = 1; run <= RUNS; run++) {
    const csv = join(tmp, `bulk${run}.csv`);
    writeCsv(csv, ROWS, `b${run}x${Date.now()}`);
    const r = runJobfit(['invite', '--csv', csv, '--out', join(tmp, `bulk${run}.results.csv`), '--created-by', INVITER, '--concurrency', String(CONC)], env);
    if (r.code !== 0) throw new Error(`bulk run ${run} exited ${r.code}: ${r.stderr}`);
    const lines = readFileSync(join(tmp, `bulk${run}.results.csv`), 'utf8').trimEnd().split('\n').length - 1;
    if (lines !== ROWS) throw new Error(`bulk run ${run}: ${lines} result lines, expected ${ROWS}`);
    // Every row must really have been created by this run (not exists, not failed).
    // From the summary line ("N rows: N created, …"), not a progress line printed before it.
    const created = (r.stderr.match(/^[\d,]+ rows: ([\d,]+) created/m) ?? [])[1]?.replace(/,/g, '');
    if (Number(created) !== ROWS) throw new Error(`bulk run ${run}: ${created} created, expected ${ROWS}: ${r.stderr}`);
    rates.push(ROWS / (r.ms / 1000));
    log(`bulk run ${run}: ${ROWS} rows in ${(r.ms / 1000).toFixed(2)} s = ${Math.round(ROWS / (r.ms / 1000))} rows/s`);
  }
  results.bulk = { rows: ROWS, runs: RUNS, concurrency: CONC, rowsPerSecond: Math.round(median(rates)), all: rates.map(Math.round) };

  // For reference: a bare undici loop (no CSV, no validation, no
  // journal, no CLI start-up), same concurrency, a fifth of the rows.
  {
    const { request, Agent } = await import(pathToFileURL(join(root, 'node_modules/undici/index.js')).href);
    const agent = new Agent();
    const n = Math.max(1000, Math.round(ROWS / 5));
    const tagB = `u${Date.now()}`;
    let k = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONC }, async () => {
        while (k < n) {
          const i = ++k;
          const res = await request(`${stub.url}/invitations`, {
            method: 'POST',
            dispatcher: agent,
            headers: { authorization: `Bearer ${stub.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ first_name: `First${i}`, last_name: `Last${i}`, email: `p${i}.${tagB}@example.com`, created_by_user_email: INVITER, team_id: 12, assessments_to_assign: [{ test_id: 6 }, { test_id: 8 }] }),
          });
          await res.body.text();
          if (res.statusCode !== 201) throw new Error(`bare POST answered ${res.statusCode}`);
        }
      }),
    );
    const ms = performance.now() - t0;
    await agent.close();
    results.bare = { rows: n, rowsPerSecond: Math.round(n / (ms / 1000)) };
    // Run from this process with its JIT cold and sharing the CPUs with the
    // stub, so it is no ceiling: the CLI has beaten it since the CLI's transport changed.
    log(`bare undici request() loop from the bench process: ${n} posts = ${results.bare.rowsPerSecond} rows/s`);
  }

  // The curl loop, same server, same kind of rows.
  const tag = `c${Date.now()}`;
  const script = `
for i in $(seq 1 ${CURL}); do
  curl -s -o /dev/null -w '' -X POST "$URL/invitations" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
    -d "{\\"first_name\\":\\"First$i\\",\\"last_name\\":\\"Last$i\\",\\"email\\":\\"p$i.${tag}@example.com\\",\\"created_by_user_email\\":\\"${INVITER}\\",\\"team_id\\":12,\\"assessments_to_assign\\":[{\\"test_id\\":6},{\\"test_id\\":8}]}"
done`;
  const t0 = performance.now();
  const c = spawnSync('bash', ['-c', script], { env: { ...process.env, URL: stub.url, KEY: stub.key }, encoding: 'utf8' });
  const curlMs = performance.now() - t0;
  if (c.status !== 0) throw new Error(`curl loop failed: ${c.stderr}`);
  const perRow = curlMs / CURL;
  const curlRate = 1000 / perRow;
  results.curl = { posts: CURL, seconds: +(curlMs / 1000).toFixed(2), rowsPerSecond: Math.round(curlRate), extrapolatedSecondsFor: { rows: ROWS, seconds: +((perRow * ROWS) / 1000).toFixed(1) } };
  results.speedup = +(results.bulk.rowsPerSecond / curlRate).toFixed(1);
  log(`curl loop: ${CURL} posts in ${(curlMs / 1000).toFixed(2)} s = ${Math.round(curlRate)} rows/s (${ROWS} rows would take ~${((perRow * ROWS) / 1000).toFixed(0)} s)`);

  // Peak memory of a large dry run.
  const big = join(tmp, 'big.csv');
  writeCsv(big, DRY_ROWS, `d${Date.now()}`);
  const d = runJobfit(['invite', '--csv', big, '--created-by', INVITER, '--dry-run'], env, true);
  if (d.code !== 0) throw new Error(`dry run exited ${d.code}: ${d.stderr}`);
  const kb = Number(d.stderr.match(/MAXRSS_KB=(\d+)/)?.[1]);
  results.dryRun = { rows: DRY_ROWS, seconds: +(d.ms / 1000).toFixed(2), rowsPerSecond: Math.round(DRY_ROWS / (d.ms / 1000)), peakRssMB: Math.round(kb / 1024) };
  log(`dry run: ${DRY_ROWS} rows in ${(d.ms / 1000).toFixed(2)} s, peak RSS ${Math.round(kb / 1024)} MB`);
} finally {
  stub.child.kill('SIGINT');
  await new Promise((r) => stub.child.once('exit', r));
  rmSync(tmp, { recursive: true, force: true });
}

const goals = {
  rowsPerSecond: results.bulk.rowsPerSecond >= 3000,
  speedup: results.speedup >= 30,
  dryRunMemory: results.dryRun.peakRssMB < 120,
};
results.goals = goals;
results.machine = { node: process.version, cpus: (await import('node:os')).cpus().length };
if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
else {
  log('');
  log(`bulk invite: ${results.bulk.rowsPerSecond} rows/s (median of ${RUNS}; goal >= 3000: ${goals.rowsPerSecond ? 'met' : 'MISSED'})`);
  log(`vs curl loop: ${results.speedup}x (goal >= 30x: ${goals.speedup ? 'met' : 'MISSED'})`);
  log(`bulk / bare undici loop: ${Math.round((100 * results.bulk.rowsPerSecond) / results.bare.rowsPerSecond)}%`);
  log(`100k dry run peak RSS: ${results.dryRun.peakRssMB} MB (goal < 120: ${goals.dryRunMemory ? 'met' : 'MISSED'})`);
}
process.exitCode = Object.values(goals).every(Boolean) ? 0 : 1;
