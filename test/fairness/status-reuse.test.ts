/**
 * `report --fairness` with a --status filter that reads test takers of its own
 * (issue 46, item 6: what the report already fetched in the same run is not
 * asked for again). The fault server between the CLI and the stub (`upstream`,
 * a fault that records) counts the requests: every test taker is read once,
 * by the filter, and completion comes out as in the run without the filter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { selfIdFileFor } from './self-id-for.js';

let dir: string;
let stub: StartedStub;
let proxy: FaultServer | undefined;
let file: string;
const seen: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-fair-status-'));
  const seeded = await runCli(['stub', 'seed', '--test-takers', '300', '--data', join(dir, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(dir, 'stub') });
  proxy = await startFaultServer({ upstream: new URL(stub.url).origin });
  proxy.faults.push((req) => {
    seen.push(`${req.method} ${req.url}`);
    return false;
  });
  file = await selfIdFileFor(env(stub.url), dir);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await stub?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function env(url: string) {
  return { JOBFIT_BASE_URL: url, JOBFIT_API_KEY: stub.keys[0].live_key };
}

interface Report {
  people: { with_a_row: number; completed: number };
  sections: Array<{ groups: Array<{ label: string; completed: number | null }> }>;
}

async function fairness(extra: string[]): Promise<{ report: Report; takers: string[]; cards: string[] }> {
  seen.length = 0;
  const url = `${proxy!.url}${new URL(stub.url).pathname}`;
  const r = await runCli(['report', '--sp', 'sales-rep', '--fairness', file, '--by', 'sex', '-o', 'json', ...extra], { env: env(url) });
  expect(r.code, r.stderr).toBe(0);
  const path = (x: string) => x.replace(/^GET /, '').replace(/\?.*$/, '');
  return {
    report: JSON.parse(r.stdout) as Report,
    takers: seen.filter((x) => /^GET \S*\/test-takers\/\d+(\?\S*)?$/.test(x)).map(path),
    cards: seen.filter((x) => /^GET \S*\/test-takers\/\d+\/scorecard/.test(x)).map(path),
  };
}

it('a test taker the --status filter read is not asked for again, and completion is the same', async () => {
  const all = await fairness([]);
  // pending, started and completed: the filter reads every accepted person's test taker to tell "accepted" (nothing started) apart.
  const some = await fairness(['--status', 'pending,started,completed']);
  expect(some.takers.length).toBeGreaterThan(200);
  // Once each: the filter's read, none from the fairness join.
  expect(new Set(some.takers).size).toBe(some.takers.length);
  expect(some.takers.length).toBe(all.cards.length);
  // The filter left out only people who started nothing: not one of them had completed.
  expect(some.cards.length).toBeLessThan(all.cards.length);
  expect(some.report.people.completed).toBe(all.report.people.completed);
  const byLabel = (r: Report) => Object.fromEntries(r.sections[0].groups.map((g) => [g.label, g.completed]));
  expect(byLabel(some.report)).toEqual(byLabel(all.report));
}, 120_000);
