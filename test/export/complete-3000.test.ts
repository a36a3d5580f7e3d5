/**
 * Complete exports against the real stub over HTTP on a loopback port, seeded
 * with 3,000 test takers over several teams; the CLI runs in-process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientForConnection } from '../../src/client/index.js';
import type { JobfitClient } from '../../src/client/client.js';
import { type FetchPage, listComplete } from '../../src/listing/complete-list.js';
import { CATALOG_SHORT_NAMES, IDENTITY_COLUMNS, SUMMARY_COLUMNS } from '../../src/export/scorecard-rows.js';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';
import { runCli } from '../helpers/cli.js';
import { humanStderr } from '../helpers/stderr.js';

const N = 3000;
const TEAMS = 4;
let env: StubEnv;
let client: JobfitClient;
let teams: Array<{ id: number; invitations_count: number; test_takers_count: number }>;

beforeAll(async () => {
  env = await startStubEnv();
  const teamRows = env.stub.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id');
  const use = teamRows.slice(0, TEAMS);
  for (const [i, t] of use.entries()) {
    const share = Math.floor(N / use.length) + (i < N % use.length ? 1 : 0);
    await env.stub.store.seedPeople(1, t.id, share, { mix: { pending: 0, accepted: 0.3, partial: 0, complete: 0.7 } });
  }
  client = await clientForConnection({ baseUrl: env.stub.url, apiKey: env.live, env: {} });
  teams = (await client.listTeams()).data as typeof teams;
}, 120_000);

afterAll(async () => {
  await client?.close();
  await env?.close();
});

const ids = (ndjson: string) => ndjson.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).id as number);

describe('listComplete over HTTP against the stub', () => {
  it('test takers: exactly total_count distinct ids, all teams and per team', async () => {
    // Our stub's items carry an email (the reference does not promise one: the schema's email is optional).
    const fetchPage = ((q, s) => client.listTestTakers(q, s)) as FetchPage<{ id: number; email: string }>;
    const all = new Set<number>();
    const r = await listComplete(fetchPage, {}, (t) => {
      all.add(t.id);
    });
    const unfiltered = await client.listTestTakers({});
    expect(r.total).toBe(unfiltered.total_count);
    expect(all.size).toBe(unfiltered.total_count);
    expect(r.total).toBeGreaterThanOrEqual(N);
    expect(r.requests).toBeLessThanOrEqual(5 * r.minimum);
    for (const t of teams.filter((t) => t.test_takers_count > 0)) {
      const got = new Set<number>();
      const rt = await listComplete(fetchPage, { team_id: t.id }, (x) => {
        got.add(x.id);
      });
      expect(got.size).toBe(t.test_takers_count);
      expect(rt.total).toBe(t.test_takers_count);
    }
  });
});

describe('commands against the stub', () => {
  it('test-takers list --all -o ndjson: every id once, equal to total_count; per team too', async () => {
    const res = await runCli(['test-takers', 'list', '--all', '-o', 'ndjson'], { env: env.env });
    expect(res.code, res.stderr).toBe(0);
    const got = ids(res.stdout);
    const total = (await client.listTestTakers({})).total_count;
    expect(got.length).toBe(total);
    expect(new Set(got).size).toBe(total);
    const t = teams.find((x) => x.test_takers_count > 0)!;
    const perTeam = await runCli(['test-takers', 'list', '--all', '--team', String(t.id), '-o', 'ndjson'], { env: env.env });
    expect(perTeam.code, perTeam.stderr).toBe(0);
    expect(new Set(ids(perTeam.stdout)).size).toBe(t.test_takers_count);
  });

  it('invitations list --all -o ndjson: every invitation once', async () => {
    const res = await runCli(['invitations', 'list', '--all', '-o', 'ndjson'], { env: env.env });
    expect(res.code, res.stderr).toBe(0);
    const got = ids(res.stdout);
    const total = (await client.listInvitations({})).total_count;
    expect(got.length).toBe(total);
    expect(new Set(got).size).toBe(total);
  });

  it('scorecard --all -o csv: parses, fixed header, one row per test taker with results', async () => {
    const res = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '-v'], { env: env.env });
    expect(res.code, res.stderr.slice(-2000)).toBe(0);
    const rows: string[][] = parse(res.stdout, { relax_column_count: false });
    const [header, ...body] = rows;
    expect(header).toEqual([...IDENTITY_COLUMNS, ...SUMMARY_COLUMNS, ...CATALOG_SHORT_NAMES]);
    for (const r of body) expect(r.length).toBe(header.length);
    const idCol = body.map((r) => Number(r[0]));
    expect(new Set(idCol).size).toBe(idCol.length);
    // Test takers with results: every one who completed at least one assessment.
    const withResults = env.stub.store.all<{ n: number }>(
      `SELECT COUNT(DISTINCT test_taker_id) AS n FROM assigned_assessments WHERE completed_at IS NOT NULL
       AND test_taker_id IN (SELECT id FROM test_takers WHERE account_id = 1)`,
    )[0].n;
    expect(body.length).toBe(withResults);
    expect(res.stderr).toMatch(/list requests \(minimum \d+\)/);
  }, 120_000);

  it('report --group-by team -o json: invited/accepted match the teams, stars sum to completed', async () => {
    const res = await runCli(['report', '--sp', 'sales-rep', '--group-by', 'team', '-o', 'json'], { env: env.env });
    expect(res.code, res.stderr.slice(-2000)).toBe(0);
    const report = JSON.parse(res.stdout) as { groups: Array<{ key: number; invited: number; accepted: number; completed: number; stars: Record<string, number> }> };
    for (const t of teams.filter((x) => x.invitations_count > 0)) {
      const g = report.groups.find((x) => x.key === t.id);
      expect(g, `team ${t.id}`).toBeDefined();
      expect(g!.invited).toBe(t.invitations_count);
      expect(g!.accepted).toBe(t.test_takers_count);
      expect(Object.values(g!.stars).reduce((a, b) => a + b, 0)).toBe(g!.completed);
    }
    expect(report.groups.some((g) => g.completed > 0)).toBe(true);
  }, 120_000);

  it('job-fit: long CSV for ready reports, not-ready ones listed on stderr', async () => {
    const tt = env.stub.store.all<{ id: number; done: number }>(
      `SELECT t.id, (SELECT COUNT(*) FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.completed_at IS NOT NULL) AS done
       FROM test_takers t WHERE t.account_id = 1 ORDER BY t.id DESC LIMIT 40`,
    );
    const res = await runCli(['job-fit', ...tt.map((t) => String(t.id)), '-o', 'csv'], { env: env.env });
    expect(res.code, res.stderr).toBe(0);
    const rows: string[][] = parse(res.stdout);
    expect(rows[0]).toEqual(['test_taker_id', 'rank', 'job_family_number', 'job_family_name', 'job_family_job_zone', 'job_fit_percentage', 'job_fit_star_rating']);
    const withReport = new Set(rows.slice(1).map((r) => Number(r[0])));
    const notReady = tt.filter((t) => !withReport.has(t.id));
    if (notReady.length > 0) {
      expect(res.stderr).toMatch(/Not available yet for \d+ test taker/);
      for (const t of notReady.slice(0, 5)) expect(res.stderr).toContain(String(t.id));
    }
    for (const id of withReport) expect(rows.filter((r) => Number(r[0]) === id).length).toBe(15);
  });

  it('scorecard: bad sp is one sentence, usage errors exit 2, one failed id gives exit 3 and the rest', async () => {
    const none = await runCli(['scorecard', '1'], { env: env.env });
    expect(none.code).toBe(2);
    const both = await runCli(['scorecard', '1', '--all', '--sp', 'sales-rep'], { env: env.env });
    expect(both.code).toBe(2);
    const good = env.stub.store.all<{ id: number }>('SELECT id FROM test_takers WHERE account_id = 1 ORDER BY id LIMIT 2').map((r) => String(r.id));
    const partial = await runCli(['scorecard', ...good, '99999999', '--sp', 'sales-rep', '-o', 'ndjson'], { env: env.env });
    expect(partial.code).toBe(3);
    expect(partial.stdout.trim().split('\n')).toHaveLength(2);
    expect(partial.stderr).toMatch(/99999999/);
    const badSp = await runCli(['scorecard', good[0], '--sp', 'nope', '-o', 'json'], { env: env.env });
    expect(badSp.code).toBe(2);
    expect(humanStderr(badSp.stderr)).toMatch(/Unknown score profile "nope"/);
    expect(badSp.stdout).toBe('');
  });
});

describe('a run that stops early never looks finished', () => {
  it('Ctrl-C during scorecard --all -o ndjson: exit 130, the summary says what was not done, stdout ends with the mark', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const res = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson', '--concurrency', '2'], { env: env.env, signal: ac.signal });
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toMatch(/^Stopped after [\d,]+ test takers: .* not done/m);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^#INCOMPLETE EXPORT: [\d,]+ scorecards written before the run stopped \(interrupted\)$/);
    for (const l of lines.slice(0, -1)) expect(() => JSON.parse(l)).not.toThrow();
  }, 60_000);

  it('--out FILE: complete runs rename into place; without --all it holds the one page', async () => {
    const dir = env.tmp();
    const file = `${dir}/takers.csv`;
    const ok = await runCli(['test-takers', 'list', '--all', '-o', 'csv', '--out', file], { env: env.env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('');
    const rows = parse(readFileSync(file, 'utf8')) as string[][];
    expect(rows.length - 1).toBe((await client.listTestTakers({})).total_count);
    expect(readdirSync(dir)).toEqual(['takers.csv']);
    // --out goes with every list (test/commands/list-options.test.ts): the page replaces the file once written.
    const page = await runCli(['test-takers', 'list', '-o', 'csv', '--out', file], { env: env.env });
    expect(page.code, page.stderr).toBe(0);
    expect((parse(readFileSync(file, 'utf8')) as string[][]).length - 1).toBe(50);
    expect(readdirSync(dir)).toEqual(['takers.csv']);
  }, 60_000);
});
