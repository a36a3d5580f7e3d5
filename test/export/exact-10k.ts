/**
 * Exports are exact at 10,000 test takers over 3 teams, against the normal
 * stub and against a strict one (`--minimal-fields`: test taker and profile
 * list items carry only what the reference states). Seeded once per file,
 * with the issue's own command; every export is compared with the stub's own
 * database and its summary line must add up. One file per stub
 * (exact-10k-normal.test.ts, exact-10k-minimal.test.ts) keeps each under a minute.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { runCli } from '../helpers/cli.js';
import { type StartedStub, startStub } from '../helpers/stub.js';

/**
 * A bound for one 10,000-item export, not a speed goal (speed is measured in bench/): two suites at
 * once on a 2-CPU machine took a job-fit --all past 30 s (issue 23, item 7).
 */
const TEN_K_MS = 120_000;

const N = 10_000;

export function exactSuite(minimalFields: boolean): void {
let started: StartedStub | undefined;
let stubRef: RunningStub;
let withFiveStars = -1;

beforeAll(async () => {
  started = await startStub({ seed: { testTakers: N, teams: 3 }, server: { minimalFields } });
  stubRef = started.server!;
}, 60_000);

afterAll(async () => {
  await started?.stop();
});

const db = () => stubRef.store;
const sorted = (xs: Iterable<number | string>) => [...xs].map(Number).sort((a, b) => a - b);
const ndjsonIds = (out: string, key = 'id') =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as Record<string, number>)[key]);
const listRequests = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('  --all: ')).length;
const fmt = (n: number) => n.toLocaleString('en-US');

/** The summary line: its parts add up to the total it names and to total_count. */
function summaryAddsUp(stderr: string, total: number): void {
  const line = stderr.split('\n').find((l) => /\(total_count [\d,]+\): /.test(l));
  expect(line, stderr.slice(-1500)).toBeDefined();
  const m = /^([\d,]+) .*?\(total_count ([\d,]+)\): (.*?)(, in [\d.]+s.*)?\.$/.exec(line!);
  expect(m, line).not.toBeNull();
  const num = (s: string) => Number(s.replace(/,/g, ''));
  expect(num(m![1])).toBe(total);
  expect(num(m![2])).toBe(total);
  const parts = m![3].split(', ').map((p) => num(p.split(' ')[0]));
  expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
}

describe(minimalFields ? 'minimal-fields stub' : 'normal stub', () => {
  const stub = () => stubRef;
  const env = () => ({ JOBFIT_BASE_URL: stub().url, JOBFIT_API_KEY: stub().keys[0].live_key });
  const takers = () => sorted(db().all<{ id: number }>('SELECT id FROM test_takers WHERE account_id = 1').map((r) => r.id));

  it('test-takers list --all: every test taker once, within 5 x ceil(N/150) requests', async () => {
    const res = await runCli(['test-takers', 'list', '--all', '-o', 'ndjson', '-v'], { env: env() });
    expect(res.code, res.stderr.slice(-1500)).toBe(0);
    const ids = ndjsonIds(res.stdout);
    const truth = takers();
    expect(truth.length).toBeGreaterThanOrEqual(N);
    expect(sorted(ids)).toEqual(truth);
    expect(listRequests(res.stderr)).toBeLessThanOrEqual(5 * Math.ceil(truth.length / 150));
    summaryAddsUp(res.stderr, truth.length);
  }, TEN_K_MS);

  it('invitations list --all and profiles list --all: exact', async () => {
    const inv = await runCli(['invitations', 'list', '--all', '-o', 'ndjson'], { env: env() });
    expect(inv.code, inv.stderr.slice(-1500)).toBe(0);
    const invTruth = sorted(db().all<{ id: number }>('SELECT id FROM invitations WHERE account_id = 1').map((r) => r.id));
    expect(sorted(ndjsonIds(inv.stdout))).toEqual(invTruth);
    summaryAddsUp(inv.stderr, invTruth.length);

    const prof = await runCli(['profiles', 'list', '--all', '-o', 'ndjson'], { env: env() });
    expect(prof.code, prof.stderr.slice(-1500)).toBe(0);
    const rows = prof.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string });
    const truth = db().all<{ id: string }>('SELECT id FROM career_navigation_profiles WHERE account_id = 1').map((r) => r.id);
    expect(truth.length).toBeGreaterThan(50);
    expect(rows.map((r) => r.id).sort()).toEqual([...truth].sort());
    summaryAddsUp(prof.stderr, truth.length);
  }, TEN_K_MS);

  it('scorecard --all -o csv: one row per test taker with results, the others counted', async () => {
    const res = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv'], { env: env() });
    expect(res.code, res.stderr.slice(-1500)).toBe(0);
    const [header, ...body] = parse(res.stdout) as string[][];
    const stars = header.indexOf('five_star_score');
    withFiveStars = body.filter((r) => r[stars] !== '').length;
    const withResults = sorted(
      db()
        .all<{ id: number }>(
          `SELECT DISTINCT a.test_taker_id AS id FROM assigned_assessments a JOIN test_takers t ON t.id = a.test_taker_id
           WHERE t.account_id = 1 AND a.completed_at IS NOT NULL`,
        )
        .map((r) => r.id),
    );
    expect(sorted(body.map((r) => r[0]))).toEqual(withResults);
    const total = takers().length;
    summaryAddsUp(res.stderr, total);
    expect(res.stderr).toContain(`${fmt(withResults.length)} written, ${fmt(total - withResults.length)} without results yet, 0 failed`);
  }, TEN_K_MS);

  it('job-fit --all: a report for every test taker with Personality and Career Interests, the others not ready', async () => {
    const res = await runCli(['job-fit', '--all', '-o', 'ndjson'], { env: env() });
    expect(res.code, res.stderr.slice(-1500)).toBe(0);
    const got = sorted(ndjsonIds(res.stdout, 'test_taker_id'));
    const ready = sorted(
      db()
        .all<{ id: number }>(
          `SELECT t.id FROM test_takers t WHERE t.account_id = 1
           AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.test_id = 6 AND a.completed_at IS NOT NULL)
           AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.test_id = 8 AND a.completed_at IS NOT NULL)`,
        )
        .map((r) => r.id),
    );
    expect(got).toEqual(ready);
    summaryAddsUp(res.stderr, takers().length);
  }, TEN_K_MS);

  it('report: invited and accepted per team equal the stub, every invitation accounted', async () => {
    const res = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: env() });
    expect(res.code, res.stderr.slice(-1500)).toBe(0);
    const report = JSON.parse(res.stdout) as { groups: Array<{ key: number; invited: number; accepted: number; completed: number }> };
    const teams = db().all<{ id: number; invited: number; accepted: number }>(
      `SELECT team_id AS id, COUNT(*) AS invited, COUNT(test_taker_id) AS accepted FROM invitations WHERE account_id = 1 GROUP BY team_id`,
    );
    for (const t of teams) {
      const g = report.groups.find((x) => x.key === t.id);
      expect(g, `team ${t.id}`).toBeDefined();
      expect([g!.invited, g!.accepted]).toEqual([t.invited, t.accepted]);
    }
    // completed: test takers whose scorecard has a five_star_score, as the scorecard export found them.
    expect(withFiveStars).toBeGreaterThan(N / 4);
    expect(report.groups.reduce((a, g) => a + g.completed, 0)).toBe(withFiveStars);
    summaryAddsUp(res.stderr, teams.reduce((a, t) => a + t.invited, 0));
  }, TEN_K_MS);
});
}
