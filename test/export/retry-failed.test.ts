/**
 * Issue 44, item 6: `scorecard` and `job-fit` with `--retry-failed`. An export
 * with --out that ended with some test takers failed leaves their ids beside
 * FILE; --retry-failed fetches just those and merges them into the same file,
 * as bulk invite's --retry-failed does. The failures come from the fault
 * server in front of the stub (`upstream`), breaking chosen test takers until
 * it is told to heal.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';
import { startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';

let dir: string;
let stub: RunningStub;
let proxy: FaultServer;
let env: Record<string, string>;
let ids: number[];
/** Test takers whose result requests the proxy answers with an error. */
const broken = new Set<number>();
const asked: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-retry-failed-'));
  const data = join(dir, 'stub');
  const seeded = await runCli(['stub', 'seed', '--data', data, '--test-takers', '6', '--complete', '1'], { configDir: join(dir, 'c') });
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = (await startStub({ dataDir: data })).server!;
  proxy = await startFaultServer({ upstream: stub.origin });
  proxy.faults.push((req, res) => {
    const m = /^\/v2\/test-takers\/(\d+)\/(scorecard|job-fit-report)/.exec(req.url);
    if (m) asked.push(Number(m[1]));
    // 400 with a message of no known meaning: a failure, not "not ready" (job-fit) and not retried.
    if (m && broken.has(Number(m[1]))) return send(res, m[2] === 'scorecard' ? 400 : 500, { error: 'boom' });
    return false;
  });
  env = { JOBFIT_BASE_URL: `${proxy.url}/v2`, JOBFIT_API_KEY: stub.keys[0].live_key, JOBFIT_MAX_RETRIES: '0' };
  const list = await runCli(['test-takers', 'list', '--all', '-o', 'json'], { env });
  ids = (JSON.parse(list.stdout).data as Array<{ id: number }>).map((t) => t.id).sort((a, b) => a - b);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

const csvIds = (file: string) => readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split(',')[0])).sort((a, b) => a - b);

describe('scorecard --out FILE --retry-failed', () => {
  it('fetches just the failed ones and merges them into the same CSV, once each', async () => {
    expect(ids.length).toBeGreaterThanOrEqual(6);
    const out = join(dir, 'cards.csv');
    broken.clear();
    broken.add(ids[1]).add(ids[4]);
    const first = await runCli(['-o', 'csv', 'scorecard', ...ids.map(String), '--sp', 'sales-rep', '--out', out], { env });
    expect(first.code, first.stderr).toBe(3);
    expect(csvIds(out)).toEqual(ids.filter((id) => !broken.has(id)));
    const note = JSON.parse(readFileSync(`${out}.failed.json`, 'utf8'));
    expect(note).toMatchObject({ command: 'scorecard', sp: 'sales-rep', format: 'csv', ids: [ids[1], ids[4]] });

    // Still broken for one of them: it stays in the note, the other is merged.
    broken.delete(ids[1]);
    asked.length = 0;
    const again = await runCli(['-o', 'csv', 'scorecard', '--sp', 'sales-rep', '--out', out, '--retry-failed'], { env });
    expect(again.code, again.stderr).toBe(3);
    expect([...new Set(asked)].sort((a, b) => a - b)).toEqual([ids[1], ids[4]]);
    expect(again.stderr).toContain(`Retried 2 test takers of the last export; merged into ${out}; 1 failed again`);
    expect(csvIds(out)).toEqual(ids.filter((id) => id !== ids[4]));
    expect(JSON.parse(readFileSync(`${out}.failed.json`, 'utf8')).ids).toEqual([ids[4]]);

    broken.clear();
    const last = await runCli(['-o', 'csv', 'scorecard', '--sp', 'sales-rep', '--out', out, '--retry-failed'], { env });
    expect(last.code, last.stderr).toBe(0);
    expect(csvIds(out)).toEqual(ids);
    expect(existsSync(`${out}.failed.json`)).toBe(false);
    // One header, no temporary file left beside it.
    expect(readFileSync(out, 'utf8').replace(/^\uFEFF/, '').split('\n').filter((l) => l.startsWith('test_taker_id')).length).toBe(1);
    const nothing = await runCli(['-o', 'csv', 'scorecard', '--sp', 'sales-rep', '--out', out, '--retry-failed'], { env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to retry');
  });

  it('refuses what it cannot merge, before any request: another -o, another --sp, no --out, ids given', async () => {
    const out = join(dir, 'cards2.ndjson');
    broken.clear();
    broken.add(ids[0]);
    const first = await runCli(['-o', 'ndjson', 'scorecard', ...ids.map(String), '--sp', 'sales-rep', '--out', out], { env });
    expect(first.code, first.stderr).toBe(3);
    const other = await runCli(['-o', 'csv', 'scorecard', '--sp', 'sales-rep', '--out', out, '--retry-failed'], { env });
    expect([other.code, other.stderr]).toEqual([2, expect.stringContaining('retry with -o ndjson')]);
    const noOut = await runCli(['scorecard', '--sp', 'sales-rep', '--retry-failed'], { env });
    expect([noOut.code, noOut.stderr]).toEqual([2, expect.stringContaining('give its --out FILE')]);
    const withIds = await runCli(['scorecard', '1', '--sp', 'sales-rep', '--out', out, '--retry-failed'], { env });
    expect(withIds.code).toBe(2);
  });
});

describe('job-fit --out FILE --retry-failed', () => {
  it('NDJSON: the failed reports are fetched and appended', async () => {
    const out = join(dir, 'fit.ndjson');
    const reportIds = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).test_taker_id).sort((a: number, b: number) => a - b);
    // The test takers whose report is ready (the seed has others, counted "not available yet").
    broken.clear();
    const clean = await runCli(['-o', 'ndjson', 'job-fit', ...ids.map(String), '--out', join(dir, 'fit-clean.ndjson')], { env });
    expect(clean.code, clean.stderr).toBe(0);
    const ready = reportIds(join(dir, 'fit-clean.ndjson'));
    expect(ready.length).toBeGreaterThanOrEqual(6);
    broken.add(ready[2]);
    const first = await runCli(['-o', 'ndjson', 'job-fit', ...ids.map(String), '--out', out], { env });
    expect(first.code, first.stderr).toBe(3);
    broken.clear();
    const again = await runCli(['-o', 'ndjson', 'job-fit', '--out', out, '--retry-failed'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(reportIds(out)).toEqual(ready);
    expect(existsSync(`${out}.failed.json`)).toBe(false);
  });
});
