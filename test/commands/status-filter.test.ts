/**
 * Issue 44, item 2: lists by status and date. `--status`, `--since`,
 * `--until` and `--by` on `invitations list` and `test-takers list`, filtered
 * client-side (the service has no such filter): exact with --all, against a
 * seeded stub past the 50-item cap, each answer counted independently from the
 * unfiltered list and the test takers read over plain HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMoment } from '../../src/commands/shared/status-filter.js';
import { stateOfTestTaker } from '../../src/export/person-status.js';
import { runCli } from '../helpers/cli.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { DANA } from '../helpers/seeded.js';

let dir: string;
let stub: StartedStub;
let env: Record<string, string>;
type Item = Record<string, unknown>;
let everyInvitation: Item[];
/** Test taker id → its state, read over plain HTTP (not through jobfit). */
const stateOf = new Map<number, string>();

async function getJson(path: string): Promise<Item> {
  const r = await fetch(`${stub.url}${path}`, { headers: { authorization: `Bearer ${env.JOBFIT_API_KEY}` } });
  return (await r.json()) as Item;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-status-'));
  const data = join(dir, 'stub');
  const seed = await runCli(['stub', 'seed', '--data', data, '--test-takers', '80', '--complete', '0.5'], { configDir: join(dir, 'c') });
  expect(seed.code, seed.stderr).toBe(0);
  stub = await startStub({ dataDir: data });
  env = stub.env;
  // Ten pending invitations, and three test takers who started (one of three assessments done).
  const invited = await runCli(['invite', '--csv', 'fixtures/csv/sample.csv', '--created-by', DANA, '--out', join(dir, 'r.csv'), '--yes'], { env });
  expect(invited.code, invited.stderr).toBe(0);
  const all = await runCli(['invitations', 'list', '--all', '-o', 'json'], { env });
  everyInvitation = JSON.parse(all.stdout).data;
  for (const inv of everyInvitation) {
    if (typeof inv.test_taker_id !== 'number') continue;
    const tt = await getJson(`/test-takers/${inv.test_taker_id}`);
    const assigned = tt.assigned_assessments as Array<{ completed_at: string | null; language: string | null }>;
    const done = assigned.filter((a) => a.completed_at).length;
    stateOf.set(inv.test_taker_id, done === assigned.length ? 'completed' : done > 0 || assigned.some((a) => a.language) ? 'started' : 'accepted');
  }
  const accepted = [...stateOf].filter(([, s]) => s === 'accepted').map(([id]) => id).slice(0, 3);
  for (const id of accepted) {
    const c = await runCli(['stub', 'complete', String(id), '--assessment', 'personality', '--data', data], { configDir: join(dir, 'c') });
    expect(c.code, c.stderr).toBe(0);
    stateOf.set(id, 'started');
  }
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (stdout: string) => (JSON.parse(stdout).data as Item[]).map((i) => i.id).sort();

describe('invitations list --status', () => {
  it('--status pending --all -o json equals the items with accepted_at: null, counted independently', async () => {
    expect(everyInvitation.length).toBeGreaterThan(50);
    const want = everyInvitation.filter((i) => i.accepted_at === null).map((i) => i.id).sort();
    expect(want.length).toBeGreaterThanOrEqual(10);
    const r = await runCli(['invitations', 'list', '--status', 'pending', '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(want);
    // The summary accounts for every item of the list: the rest are counted as outside the filter.
    expect(r.stderr).toContain(`${want.length} written, ${everyInvitation.length - want.length} outside --status/--since/--until`);
  });

  it.each(['accepted', 'started', 'completed', 'started,completed'])('--status %s --all: the test takers in that state', async (status) => {
    const states = status.split(',');
    const want = everyInvitation.filter((i) => typeof i.test_taker_id === 'number' && states.includes(stateOf.get(i.test_taker_id)!)).map((i) => i.id).sort();
    expect(want.length).toBeGreaterThan(0);
    const r = await runCli(['invitations', 'list', '--status', status, '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(want);
  });

  it('combined with the service\'s own filter (--email)', async () => {
    const r = await runCli(['invitations', 'list', '--status', 'pending', '--email', 'example', '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const want = everyInvitation.filter((i) => i.accepted_at === null && String(i.email).includes('example')).map((i) => i.id).sort();
    expect(ids(r.stdout)).toEqual(want);
  });

  it('without --all: the page is filtered, and stderr says --all is exact', async () => {
    const r = await runCli(['invitations', 'list', '--status', 'completed', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data.length).toBeLessThanOrEqual(50);
    expect(doc.total_count).toBe(doc.data.length);
    expect(r.stderr).toMatch(/--status filtered the first 50 of \d+ invitations the service returned \(\d+ match\); add --all for every match\./);
  });

  it('an unknown status is exit 2 with the valid ones', async () => {
    const r = await runCli(['invitations', 'list', '--status', 'done']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"done" is not a status; give pending, accepted, started, completed');
  });

  it('--help says it is filtered client-side', async () => {
    const r = await runCli(['invitations', 'list', '--help']);
    expect(r.stdout).toMatch(/filtered here, not by the service: exact with\s+--all/);
  });
});

describe('--since / --until / --by', () => {
  it('--since 1d: the invitations made today; --until 2000-01-01: none', async () => {
    const recent = await runCli(['invitations', 'list', '--since', '1d', '--all', '-o', 'json'], { env });
    expect(recent.code, recent.stderr).toBe(0);
    const dayAgo = Date.now() - 86_400_000;
    expect(ids(recent.stdout)).toEqual(everyInvitation.filter((i) => Date.parse(String(i.created_at)) >= dayAgo).map((i) => i.id).sort());
    const none = await runCli(['invitations', 'list', '--until', '2000-01-01', '--all', '-o', 'json'], { env });
    expect(JSON.parse(none.stdout).data).toEqual([]);
  });

  it('--by completed --since 2000-01-01: only the completed ones (a pending or started one has no completion date)', async () => {
    const r = await runCli(['invitations', 'list', '--by', 'completed', '--since', '2000-01-01', '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const want = everyInvitation.filter((i) => stateOf.get(i.test_taker_id as number) === 'completed').map((i) => i.id).sort();
    expect(ids(r.stdout)).toEqual(want);
  });

  it('a date that is not one is exit 2', async () => {
    const r = await runCli(['invitations', 'list', '--since', '2026-02-30']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--since: "2026-02-30" is not a date');
  });
});

describe('test-takers list --status', () => {
  it('--status completed --all: every completed test taker, none else', async () => {
    const r = await runCli(['test-takers', 'list', '--status', 'completed', '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const want = [...stateOf].filter(([, s]) => s === 'completed').map(([id]) => id).sort();
    expect(ids(r.stdout)).toEqual(want);
  });

  it('--status pending: none (every test taker has accepted)', async () => {
    const r = await runCli(['test-takers', 'list', '--status', 'pending', '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual([]);
  });
});

describe('report and the exports take the same filter', () => {
  it('scorecard --all --status completed: the scorecards of the completed test takers, the rest counted outside', async () => {
    const r = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '--status', 'completed', '-o', 'ndjson'], { env });
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout.trim().split('\n').map((l) => JSON.parse(l).test_taker_id).sort();
    expect(got).toEqual([...stateOf].filter(([, s]) => s === 'completed').map(([id]) => id).sort());
    expect(r.stderr).toMatch(/outside --status\/--since\/--until/);
  });

  it('job-fit --all --status accepted: none written (not ready), every other test taker counted outside', async () => {
    const r = await runCli(['job-fit', '--all', '--status', 'accepted', '-o', 'ndjson'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const outside = [...stateOf].filter(([, s]) => s !== 'accepted').length;
    expect(r.stderr).toContain(`${outside} outside --status/--since/--until`);
  });

  it('report --status pending: the pending invitations only (invited = their number, accepted 0)', async () => {
    const r = await runCli(['report', '--sp', 'sales-rep', '--status', 'pending', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.total.invited).toBe(everyInvitation.filter((i) => i.accepted_at === null).length);
    expect(doc.total.accepted).toBe(0);
  });
});

describe('the pieces', () => {
  it('parseMoment: a date (local day, end inclusive), an ISO time, a span ago; nonsense is undefined', () => {
    expect(parseMoment('2026-11-23', false)).toBe(new Date(2026, 10, 23).getTime());
    expect(parseMoment('2026-11-23', true)).toBe(new Date(2026, 10, 24).getTime());
    expect(parseMoment('2026-11-23T09:00:00Z', false)).toBe(Date.UTC(2026, 10, 23, 9));
    expect(parseMoment('7d', false, 1_000_000_000_000)).toBe(1_000_000_000_000 - 7 * 86_400_000);
    for (const bad of ['monday', '2026-13-01', '2026-02-30', '23/11/2026', '']) expect(parseMoment(bad, false), bad).toBeUndefined();
  });

  it('stateOfTestTaker: nothing started, one started, all done', () => {
    const a = (completed_at: string | null, language: string | null = null) => ({ completed_at, language });
    expect(stateOfTestTaker({ assigned_assessments: [a(null), a(null)] }).status).toBe('accepted');
    expect(stateOfTestTaker({ assigned_assessments: [a(null, 'en'), a(null)] }).status).toBe('started');
    expect(stateOfTestTaker({ assigned_assessments: [a('2026-01-02T00:00:00Z', 'en'), a(null)] }).status).toBe('started');
    expect(stateOfTestTaker({ assigned_assessments: [a('2026-01-02T00:00:00Z', 'en'), a('2026-01-03T00:00:00Z', 'en')] })).toEqual({ status: 'completed', completedAt: Date.UTC(2026, 0, 3) });
  });
});
