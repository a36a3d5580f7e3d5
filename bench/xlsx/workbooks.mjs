#!/usr/bin/env node
// Workbooks benchmark (issue 15), with the built binary against `jobfit stub
// serve` in its own process:
//
//   npm run build && node bench/xlsx/workbooks.mjs [--rows 100000] [--runs 3] [--export-runs 1] [--small 10000] [--read-only] [--json]
//
// 1. Read: ROWS participants as a workbook (written by openpyxl, write-only
//    mode, as a spreadsheet program would) and as the same rows in a CSV;
//    `invite --dry-run` of each, RUNS times: median rows/s (wall time of the
//    whole process) and peak RSS (reported by the process on exit).
// 2. Write: `test-takers list --all -o xlsx --out FILE` after seeding SMALL,
//    then ROWS, test takers; the same with `-o csv` beside it: peak RSS at
//    both sizes (flat = the same at ROWS as at SMALL) and rows/s. EXPORT_RUNS
//    runs each (default 1: listing 100,000 test takers past the service's cap
//    takes the stub minutes on the 2-CPU machine; the writer is not the cost).
// Needs python3 with openpyxl (Debian: apt-get install python3-openpyxl).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, serveStub } from '../lib.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/jobfit.js');
const ROWS = arg('--rows', 100_000);
const RUNS = arg('--runs', 3);
const SMALL = arg('--small', 10_000);
const EXPORT_RUNS = arg('--export-runs', 1);
const asJson = process.argv.includes('--json');
const readOnly = process.argv.includes('--read-only');
const INVITER = 'dana.whitfield@northwind-talent.example';
const PY = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import openpyxl']).status === 0);
if (!PY) {
  console.error('python3 with openpyxl is needed (apt-get install python3-openpyxl).');
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), 'jobfit-bench-xlsx-'));
const log = (m) => process.stderr.write(`${m}\n`);
const mb = (kb) => Math.round(kb / 1024);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const startStub = () => serveStub(bin, join(tmp, 'stub'), { ...process.env, JOBFIT_CONFIG_DIR: join(tmp, 'config'), NO_COLOR: '1' });

/** One process of the CLI: wall time and its peak RSS (bench/invite/maxrss.cjs). */
function runJobfit(args, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', join(root, 'bench/invite/maxrss.cjs'), bin, ...args], {
    env: { ...process.env, ...env, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  const rss = Number(r.stderr.match(/MAXRSS_KB=(\d+)/)?.[1] ?? 0);
  return { ms, rss, code: r.status, stderr: r.stderr, stdout: r.stdout };
}

// The same rows in both files (as bench/invite/bulk.mjs writes them), the phone a number in the workbook.
const csv = join(tmp, 'people.csv');
const xlsx = join(tmp, 'people.xlsx');
{
  const teams = ['Retail Stores', '13', 'Head Office Recruiting', '14'];
  const parts = ['First Name,Last Name,Email,Team,Assessments,Notes\n'];
  for (let i = 1; i <= ROWS; i++) parts.push(`First${i},Last${i},p${i}.xl@example.com,${teams[i % 4]},"Personality, Interests",row ${i}\n`);
  writeFileSync(csv, parts.join(''));
  log(`Writing a ${ROWS.toLocaleString('en-US')}-row workbook with openpyxl...`);
  execFileSync(PY, [
    '-c',
    `
import sys, openpyxl
wb = openpyxl.Workbook(write_only=True)
ws = wb.create_sheet('People')
ws.append(['First Name', 'Last Name', 'Email', 'Team', 'Assessments', 'Notes'])
teams = ['Retail Stores', 13, 'Head Office Recruiting', 14]
for i in range(1, int(sys.argv[2]) + 1):
    ws.append([f'First{i}', f'Last{i}', f'p{i}.xl@example.com', teams[i % 4], 'Personality, Interests', f'row {i}'])
wb.save(sys.argv[1])
`,
    xlsx,
    String(ROWS),
  ]);
}

const stub = await startStub();
const env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.key, JOBFIT_CONFIG_DIR: join(tmp, 'config') };
const results = { rows: ROWS, files: { csv_bytes: statSync(csv).size, xlsx_bytes: statSync(xlsx).size } };
try {
  for (const [name, file] of [
    ['csv', csv],
    ['xlsx', xlsx],
  ]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = runJobfit(['invite', '--file', file, '--created-by', INVITER, '--dry-run', '-o', 'json'], env);
      const doc = JSON.parse(r.stdout || '{}');
      if (r.code !== 0 || doc.valid !== ROWS) throw new Error(`dry run of ${name} failed (${r.code}): ${r.stderr}`);
      runs.push(r);
    }
    const ms = median(runs.map((r) => r.ms));
    results[`read_${name}`] = { ms: Math.round(ms), rows_per_s: Math.round(ROWS / (ms / 1000)), peak_rss_mb: mb(median(runs.map((r) => r.rss))) };
    log(`dry run ${name}: ${results[`read_${name}`].rows_per_s.toLocaleString('en-US')} rows/s, peak RSS ${results[`read_${name}`].peak_rss_mb} MB`);
  }

  // Seed SMALL test takers, export, then up to ROWS and export again.
  let seeded = 0;
  for (const size of readOnly ? [] : [SMALL, ROWS]) {
    const seed = spawnSync(process.execPath, [bin, 'stub', 'seed', '--test-takers', String(size - seeded), '--data', join(tmp, 'stub')], {
      env: { ...process.env, JOBFIT_CONFIG_DIR: join(tmp, 'config') },
      encoding: 'utf8',
    });
    if (seed.status !== 0) throw new Error(`stub seed failed: ${seed.stderr}`);
    seeded = size;
    for (const fmt of ['xlsx', 'csv']) {
      const out = join(tmp, `test-takers-${size}.${fmt}`);
      const runs = [];
      for (let i = 0; i < EXPORT_RUNS; i++) {
        rmSync(out, { force: true });
        const r = runJobfit(['test-takers', 'list', '--all', '-o', fmt, '--out', out], env);
        if (r.code !== 0) throw new Error(`export ${fmt} failed (${r.code}): ${r.stderr}`);
        runs.push(r);
      }
      const ms = median(runs.map((r) => r.ms));
      const count = Number(runs[0].stderr.match(/([\d,]+) (?:test takers|items)/)?.[1]?.replace(/,/g, '') ?? 0);
      const key = `write_${fmt}_${size}`;
      results[key] = { ms: Math.round(ms), rows: count, rows_per_s: count ? Math.round(count / (ms / 1000)) : null, peak_rss_mb: mb(median(runs.map((r) => r.rss))), bytes: statSync(out).size };
      log(`export ${fmt} at ${size.toLocaleString('en-US')}: ${JSON.stringify(results[key])}`);
    }
  }
} finally {
  stub.child.kill();
  rmSync(tmp, { recursive: true, force: true });
}
if (asJson) console.log(JSON.stringify(results, null, 2));
