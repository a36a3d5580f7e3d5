#!/usr/bin/env node
// Peak memory of a large `invite --dry-run` (issue 31: flat within 150 MB at
// 1,000,000 rows), measured from outside with /usr/bin/time -v:
//
//   npm run build && node bench/invite/dry-run-memory.mjs [--rows 1000000]
//
// `jobfit stub serve` runs in its own process (its memory is not counted).
// Exit code 1 when the peak RSS is 150 MB or more.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, benchPlace, serveStub, stopStub } from '../lib.mjs';

const { bin, tmp, env } = benchPlace('dry');
const ROWS = arg('--rows', 1_000_000);
const INVITER = 'dana.whitfield@northwind-talent.example';
const LIMIT_MB = 150;

const stub = await serveStub(bin, join(tmp, 'stub'), env);
try {
  const csv = join(tmp, 'big.csv');
  const teams = ['Retail Stores', '13', 'Head Office Recruiting', '14'];
  const parts = ['First Name,Last Name,Email,Team,Assessments,Notes\n'];
  for (let i = 1; i <= ROWS; i++) parts.push(`First${i},Last${i},p${i}.dry@example.com,${teams[i % 4]},"Personality, Interests",row ${i}\n`);
  writeFileSync(csv, parts.join(''));
  parts.length = 0;
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, bin, 'invite', '--csv', csv, '--created-by', INVITER, '--dry-run'], { env: stub.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`dry run exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const kb = Number(r.stderr.match(/Maximum resident set size \(kbytes\): (\d+)/)?.[1]);
  const mb = Math.round(kb / 1024);
  console.log(`dry run: ${ROWS.toLocaleString('en-US')} rows in ${s.toFixed(1)} s, peak RSS ${mb} MB (limit ${LIMIT_MB} MB)`);
  process.exitCode = mb < LIMIT_MB ? 0 : 1;
} finally {
  await stopStub(stub);
  rmSync(tmp, { recursive: true, force: true });
}
