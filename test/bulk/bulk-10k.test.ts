/**
 * The must-shows of bulk invite: 10,000 rows against the stub running in its
 * own process → exactly 10,000 invitations, none twice, a results file of
 * 10,000 lines in input order; and the same with 429/5xx/drop faults on.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { countInvitations, INVITER, writePeople } from './helpers/data.js';
import { type StubProcess, startStubProcess } from './helpers/stub-process.js';

const N = 10_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-bulk-10k-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function checkResults(path: string, n: number): Map<string, number> {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  expect(lines[0]).toBe('First Name,Last Name,Email,Team,Assessments,Notes,row,status,invitation_id,assessment_url,error');
  expect(lines).toHaveLength(n + 1);
  const ids = new Map<string, number>();
  for (let i = 1; i <= n; i++) {
    const cells = lines[i].split(',');
    // Input order, original cells first.
    expect(cells[0]).toBe(`First${i}`);
    const [row, status, id, url] = cells.slice(-5);
    expect(row).toBe(String(i));
    expect(status === 'created' || status === 'exists').toBe(true);
    expect(url).toMatch(/^http/);
    ids.set(id, (ids.get(id) ?? 0) + 1);
  }
  return ids;
}

async function runOnce(stub: StubProcess, tag: string, extra: string[]) {
  const csv = join(dir, `${tag}.csv`);
  const out = join(dir, `${tag}.results.csv`);
  writePeople(csv, N, tag);
  const started = Date.now();
  const r = await runCli(['invite', '--csv', csv, '--out', out, '--created-by', INVITER, ...extra], {
    env: { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.liveKey },
    configDir: join(dir, 'config'),
  });
  return { r, out, ms: Date.now() - started };
}

describe('10,000 rows', () => {
  it('without faults: exactly 10,000 invitations, none twice, 10,000 result lines', async () => {
    const stub = await startStubProcess({ configDir: join(dir, 'config') });
    try {
      const { r, out, ms } = await runOnce(stub, 'clean', ['--concurrency', '16']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('10,000 rows: 10,000 created, 0 exists, 0 invalid, 0 failed');
      const ids = checkResults(out, N);
      expect(ids.size).toBe(N);
      await stub.kill();
      expect(await countInvitations(stub.dataDir, 'clean')).toEqual({ total: N, distinct: N });
      console.log(`10k rows, no faults: ${ms} ms`);
    } finally {
      await stub.stop();
    }
  }, 60_000);

  it('with 429, 5xx and drops after commit: the same exact outcome', async () => {
    const stub = await startStubProcess({ faults: '429=0.02,5xx=0.03,drop=0.02,latency=1,seed=42,retry-after=0', configDir: join(dir, 'config') });
    try {
      const { r, out, ms } = await runOnce(stub, 'faulty', ['--concurrency', '32']);
      expect(r.code, r.stderr).toBe(0);
      const ids = checkResults(out, N);
      // Every row has its own invitation: none shared, none missing.
      expect(ids.size).toBe(N);
      await stub.kill();
      expect(await countInvitations(stub.dataDir, 'faulty')).toEqual({ total: N, distinct: N });
      console.log(`10k rows with faults: ${ms} ms; ${r.stderr.trim().split('\n').at(-2)}`);
    } finally {
      await stub.stop();
    }
  }, 90_000);
});
