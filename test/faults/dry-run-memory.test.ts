/**
 * Issue 31, finding 12 / must hold 8: the 1,000,000-row dry run stays flat,
 * within 150 MB. The built binary's peak RSS measured from outside
 * (/usr/bin/time -v), as bench/invite/dry-run-memory.mjs does, against the
 * fault server of test/helpers (in this process: its memory is not counted).
 * The 100,000-person sync's memory is another test's (test/sync).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { FAULT_KEY, type FaultServer, INVITER, startFaultServer } from '../helpers/fault-server.js';
import { skipBecause } from '../helpers/skip.js';

const ROWS = 1_000_000;
const LIMIT_MB = 150;
const TIME = '/usr/bin/time';

describe.skipIf(skipBecause(!existsSync(TIME) && `${TIME} is missing (apt-get install time)`))('the 1,000,000-row dry run', () => {
  let tmp: string;
  let cli: BuiltCli;
  let server: FaultServer;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'jobfit-faults-dry-'));
    cli = buildCli();
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server?.close();
    cli?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it(`peaks under ${LIMIT_MB} MB`, async () => {
    const csv = join(tmp, 'big.csv');
    const teams = ['Team One', '1', 'Team Two', '2'];
    const parts = ['First Name,Last Name,Email,Team,Assessments,Notes\n'];
    for (let i = 1; i <= ROWS; i++) parts.push(`First${i},Last${i},p${i}.dry@example.com,${teams[i % 4]},"Personality, Interests",row ${i}\n`);
    writeFileSync(csv, parts.join(''));
    parts.length = 0;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(TIME, ['-v', process.execPath, cli.bin, 'invite', '--csv', csv, '--created-by', INVITER, '--dry-run'], {
        env: { PATH: process.env.PATH ?? '', HOME: join(cli.dir, 'home'), NO_COLOR: '1', JOBFIT_BASE_URL: server.url, JOBFIT_API_KEY: FAULT_KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      // Only the ends are kept: the report of a million rows is long.
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-20_000)));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-20_000)));
      child.on('close', (code) => resolve({ code, stdout: out, stderr: err }));
    });
    expect(r.code, r.stderr).toBe(0);
    const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
    expect(kb).toBeGreaterThan(0);
    const mb = Math.round(kb / 1024);
    console.log(`dry run of ${ROWS.toLocaleString('en-US')} rows: peak RSS ${mb} MB (limit ${LIMIT_MB} MB)`);
    expect(mb).toBeLessThan(LIMIT_MB);
    // Every row was read: the dry run's report counts them.
    expect(`${r.stdout}\n${r.stderr}`).toMatch(/1,000,000/);
  }, 600_000);
});
