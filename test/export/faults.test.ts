/**
 * Exports stay exact under faults: 429s (Retry-After), connections dropped
 * after the answer was made, and latency. 10,000 test takers on a strict
 * (--minimal-fields) stub with 429s (one in twenty) and drops;
 * and a smaller set with 250-750 ms of latency per request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { runCli } from '../helpers/cli.js';
import { type StartedStub, startStub } from '../helpers/stub.js';

const stubs: StartedStub[] = [];

async function seeded(n: number, faults: string): Promise<RunningStub> {
  const stub = await startStub({ seed: { testTakers: n, teams: 3 }, faults, server: { minimalFields: true } });
  stubs.push(stub);
  return stub.server!;
}

afterAll(async () => {
  for (const s of stubs) await s.stop();
});

const sorted = (xs: Iterable<number | string>) => [...xs].map(Number).sort((a, b) => a - b);
const ids = (out: string, key: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as Record<string, number>)[key]);

function truth(stub: RunningStub) {
  const takers = sorted(stub.store.all<{ id: number }>('SELECT id FROM test_takers WHERE account_id = 1').map((r) => r.id));
  const withResults = sorted(
    stub.store
      .all<{ id: number }>(
        `SELECT DISTINCT a.test_taker_id AS id FROM assigned_assessments a JOIN test_takers t ON t.id = a.test_taker_id
         WHERE t.account_id = 1 AND a.completed_at IS NOT NULL`,
      )
      .map((r) => r.id),
  );
  return { takers, withResults };
}

async function expectExact(stub: RunningStub) {
  const env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key, JOBFIT_BREAKER_SECONDS: '0' };
  const t = truth(stub);
  const list = await runCli(['test-takers', 'list', '--all', '-o', 'ndjson'], { env });
  expect(list.code, list.stderr.slice(-1500)).toBe(0);
  expect(sorted(ids(list.stdout, 'id'))).toEqual(t.takers);
  const cards = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env });
  expect(cards.code, cards.stderr.slice(-1500)).toBe(0);
  expect(sorted(ids(cards.stdout, 'test_taker_id'))).toEqual(t.withResults);
  expect(cards.stderr).toContain(`: ${t.withResults.length.toLocaleString('en-US')} written, ${(t.takers.length - t.withResults.length).toLocaleString('en-US')} without results yet, 0 failed`);
}

describe('exports under faults', () => {
  let big: RunningStub;
  let slow: RunningStub;
  beforeAll(async () => {
    big = await seeded(10_000, '429=0.05,drop=0.01,latency=1,retry-after=0.05,seed=11');
    slow = await seeded(100, '429=0.1,drop=0.03,latency=500,retry-after=0.2,seed=5');
  }, 60_000);

  it('10,000 test takers, 429 on one request in twenty and dropped connections: exact', async () => {
    await expectExact(big);
  }, 90_000);

  it('250-750 ms of latency per request, with 429s and drops: exact', async () => {
    await expectExact(slow);
  }, 90_000);
});
