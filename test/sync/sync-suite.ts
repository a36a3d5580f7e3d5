/**
 * `jobfit sync` against the real stub over HTTP on a loopback port (the CLI
 * in-process): the first sync equals the service's data in every table; after
 * the participants accept, complete and new invitations arrive, the next sync
 * fetches exactly what changed and ends equal to a fresh sync; a no-change
 * sync needs a third of the first one's requests at most, and no result.
 * Run once per backend (sync.test.ts, sync-pg.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobfitClient } from '../../src/client/client.js';
import { clientForConnection } from '../../src/client/index.js';
import { accept, complete } from '../../src/stub/lifecycle.js';
import type { StubEnv } from '../commands/stub-env.js';
import { runCli } from '../helpers/cli.js';
import { type Backend, dumpOf, lastRun, query, seededStub } from './helpers.js';

export function syncSuite(backend: Backend): void {
  const PEOPLE = 1000;
  const SPS = ['sales-rep', 'software-engineer'];
  let env: StubEnv;
  let client: JobfitClient;
  let db: string;
  let firstRequests = 0;

  const noMode = (o: unknown) => {
    const { mode: _m, ...rest } = o as Record<string, unknown>;
    return rest;
  };

  beforeAll(async () => {
    await backend.setup();
    env = await seededStub(PEOPLE);
    client = await clientForConnection({ baseUrl: env.stub.url, apiKey: env.live, env: {} });
    db = await backend.target(env, 'results');
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await env?.close();
    await backend.teardown();
  });

  const stubAll = <T>(sql: string, ...args: unknown[]) => env.stub.store.all<T>(sql, ...args);
  const dbAll = <T = Record<string, unknown>>(sql: string) => query<T>(db, sql);

  describe('first sync', () => {
    it('every table equals what the service holds', async () => {
      const res = await runCli(['sync', '--db', db, '--sp', SPS.join(',')], { env: env.env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^Synced .* in [\d.]+s: [\d,]+ invitations, [\d,]+ test takers; [\d,]+ requests \(.*\); [\d,]+ rows inserted, 0 updated, 0 marked gone, 0 errors\.$/m);
      const run = await lastRun(db);
      expect(run.status).toBe('ok');
      firstRequests = run.requests;

      // teams and users: the API's lists, field for field
      const teams = (await client.listTeams()).data as Array<Record<string, unknown>>;
      expect(await dbAll('SELECT id, display_name, users_count, invitations_count, test_takers_count FROM teams ORDER BY id')).toEqual(
        teams.map((t) => ({ id: t.id, display_name: t.display_name, users_count: t.users_count, invitations_count: t.invitations_count, test_takers_count: t.test_takers_count })).sort((a, b) => Number(a.id) - Number(b.id)),
      );
      const users = (await client.listUsers()).data as Array<{ id: number }>;
      expect((await dbAll<{ raw: string }>('SELECT raw FROM users ORDER BY id')).map((r) => JSON.parse(r.raw))).toEqual([...users].sort((a, b) => a.id - b.id));

      // invitations, test takers, assigned assessments, profiles: the stub's own rows
      expect(await dbAll('SELECT id, accepted_at, test_taker_id, email, custom_id, person_id, team_id, created_at FROM invitations ORDER BY id')).toEqual(
        stubAll('SELECT id, accepted_at, test_taker_id, email, custom_id, person_id, team_id, created_at FROM invitations WHERE account_id = 1 ORDER BY id'),
      );
      expect(await dbAll('SELECT id, invitation_id, team_id, custom_id, person_id, phone FROM test_takers ORDER BY id')).toEqual(
        stubAll('SELECT id, invitation_id, team_id, custom_id, person_id, phone FROM test_takers WHERE account_id = 1 ORDER BY id'),
      );
      expect(await dbAll('SELECT id, test_taker_id, assessment_id, completed_at, language FROM assigned_assessments ORDER BY test_taker_id, id')).toEqual(
        stubAll(
          `SELECT a.id, a.test_taker_id, a.test_id AS assessment_id, a.completed_at, a.language FROM assigned_assessments a
           JOIN test_takers t ON t.id = a.test_taker_id WHERE t.account_id = 1 ORDER BY a.test_taker_id, a.id`,
        ),
      );
      expect(await dbAll('SELECT id, test_taker_id FROM career_navigation_profiles ORDER BY id')).toEqual(
        stubAll('SELECT id, test_taker_id FROM career_navigation_profiles WHERE account_id = 1 ORDER BY id'),
      );

      // results: one scorecard per profile for everyone who completed something; job fit for Personality + Interests
      const withResults = stubAll<{ id: number }>(
        `SELECT DISTINCT a.test_taker_id AS id FROM assigned_assessments a JOIN test_takers t ON t.id = a.test_taker_id
         WHERE t.account_id = 1 AND a.completed_at IS NOT NULL ORDER BY id`,
      ).map((r) => r.id);
      for (const sp of SPS) expect((await dbAll<{ id: number }>(`SELECT test_taker_id AS id FROM scorecards WHERE score_profile = '${sp}' ORDER BY id`)).map((r) => r.id)).toEqual(withResults);
      const jobFit = stubAll<{ id: number }>(
        `SELECT a.test_taker_id AS id FROM assigned_assessments a JOIN test_takers t ON t.id = a.test_taker_id
         WHERE t.account_id = 1 AND a.completed_at IS NOT NULL AND a.test_id IN (6, 8) GROUP BY a.test_taker_id HAVING COUNT(DISTINCT a.test_id) = 2 ORDER BY id`,
      ).map((r) => r.id);
      expect(jobFit.length).toBeGreaterThan(100);
      expect((await dbAll<{ id: number }>('SELECT test_taker_id AS id FROM job_fit_reports ORDER BY id')).map((r) => r.id)).toEqual(jobFit);
      expect((await dbAll<{ n: number }>('SELECT COUNT(*) AS n FROM job_fit_occupations'))[0].n).toBe(jobFit.length * 15);

      // the raw JSON and the columns of a sample equal the API's answers
      const sample = withResults.filter((_, i) => i % 50 === 0);
      for (const id of sample) {
        const card = (await client.getScorecard(id, SPS[0])) as Record<string, unknown>;
        const row = (await dbAll<Record<string, unknown>>(`SELECT * FROM scorecards WHERE test_taker_id = ${id} AND score_profile = '${SPS[0]}'`))[0];
        expect(JSON.parse(String(row.raw))).toEqual(noMode(card));
        expect([row.five_star_score, row.job_fit_percentage, row.fitscore_raw, row.riasec_profile]).toEqual([card.five_star_score, card.job_fit_percentage, card.fitscore_raw, card.riasec_profile]);
        const tt = (await dbAll<{ raw: string }>(`SELECT raw FROM test_takers WHERE id = ${id}`))[0];
        expect(JSON.parse(tt.raw)).toEqual(noMode(await client.getTestTaker(id)));
        const inv = (await dbAll<{ raw: string }>(`SELECT i.raw FROM invitations i WHERE i.test_taker_id = ${id}`))[0];
        expect(JSON.parse(inv.raw)).toEqual(noMode(await client.getInvitation(Number((card as { invitation_id: number }).invitation_id))));
      }
      for (const id of jobFit.filter((_, i) => i % 60 === 0)) {
        const report = (await client.getJobFitReport(id)) as { top_fit_occupations: Array<{ rank: number; job_family_number: string }> };
        expect(JSON.parse((await dbAll<{ raw: string }>(`SELECT raw FROM job_fit_reports WHERE test_taker_id = ${id}`))[0].raw)).toEqual(noMode(report));
        expect(await dbAll(`SELECT rank, job_family_number FROM job_fit_occupations WHERE test_taker_id = ${id} ORDER BY rank`)).toEqual(
          report.top_fit_occupations.map((o) => ({ rank: o.rank, job_family_number: o.job_family_number })),
        );
      }
    }, 60_000);

    it('a sync with nothing changed: at most a third of the requests, no result fetched, nothing written', async () => {
      const res = await runCli(['sync', '--db', db, '-v'], { env: env.env });
      expect(res.code, res.stderr.slice(-2000)).toBe(0);
      const run = await lastRun(db);
      expect(run.requests * 3).toBeLessThanOrEqual(firstRequests);
      expect(run.by.scorecard ?? 0).toBe(0);
      expect(run.by.job_fit_report ?? 0).toBe(0);
      expect(run.by.career_navigation_profile ?? 0).toBe(0);
      expect(run.by.invitation ?? 0).toBe(0);
      // only test takers with an assessment still open are asked again
      expect(run.by.test_taker).toBe((await dbAll<{ n: number }>('SELECT COUNT(*) AS n FROM test_takers WHERE assessments_open > 0'))[0].n);
      expect([run.rows_inserted, run.rows_updated]).toEqual([0, 0]);
      // -v says what was skipped and why
      expect(res.stderr).toMatch(/not fetched, and why:/);
      expect(res.stderr).toMatch(/\d+ +test takers with every assessment complete, results stored and the invitation unchanged/);
    }, 30_000);
  });

  describe('the next sync after people accepted, completed and were invited', () => {
    it('fetches exactly the changes and ends equal to a fresh sync', async () => {
      const store = env.stub.store;
      const pending = stubAll<{ id: number }>('SELECT id FROM invitations WHERE account_id = 1 AND accepted_at IS NULL ORDER BY id LIMIT 10');
      const open = stubAll<{ id: number }>(
        `SELECT DISTINCT a.test_taker_id AS id FROM assigned_assessments a JOIN test_takers t ON t.id = a.test_taker_id
         WHERE t.account_id = 1 AND a.completed_at IS NULL ORDER BY id LIMIT 20`,
      );
      const openBefore = (await dbAll<{ n: number }>('SELECT COUNT(*) AS n FROM test_takers WHERE assessments_open > 0'))[0].n;
      for (const p of pending) accept(store, p.id);
      // 1% of the people finish something: 15 everything still open, 5 one assessment
      for (const t of open.slice(0, 15)) complete(store, t.id);
      for (const t of open.slice(15)) {
        const next = stubAll<{ test_id: number }>('SELECT test_id FROM assigned_assessments WHERE test_taker_id = ? AND completed_at IS NULL ORDER BY position LIMIT 1', t.id)[0];
        complete(store, t.id, { assessment: ({ 1: 'prescreen', 6: 'personality', 7: 'thinking', 8: 'interests' } as const)[next.test_id as 1 | 6 | 7 | 8] });
      }
      const inviter = ((await client.listUsers()).data as Array<{ email: string }>)[0].email;
      for (let i = 0; i < 5; i++) await client.createInvitation({ first_name: 'New', last_name: `Person${i}`, email: `new.person${i}@example.org`, created_by_user_email: inviter });

      const res = await runCli(['sync', '--db', db], { env: env.env });
      expect(res.code, res.stderr).toBe(0);
      const run = await lastRun(db);
      const changed = open.map((t) => t.id);
      const ready = changed.filter(
        (id) => stubAll<{ n: number }>(`SELECT COUNT(DISTINCT test_id) AS n FROM assigned_assessments WHERE test_taker_id = ? AND completed_at IS NOT NULL AND test_id IN (6, 8)`, id)[0].n === 2,
      );
      const stored = new Set((await dbAll<{ id: number }>('SELECT test_taker_id AS id FROM job_fit_reports')).map((r) => r.id));
      expect(run.by.test_taker).toBe(openBefore + pending.length);
      expect(run.by.scorecard).toBe(changed.length * SPS.length);
      expect(run.by.job_fit_report ?? 0).toBe(ready.length);
      expect(ready.every((id) => stored.has(id))).toBe(true);
      // the newly accepted, the new ones and the invitations whose results moved
      expect(run.by.invitation).toBe(pending.length + 5 + changed.length);

      const fresh = await backend.target(env, 'fresh');
      const again = await runCli(['sync', '--db', fresh, '--sp', SPS.join(',')], { env: env.env });
      expect(again.code, again.stderr).toBe(0);
      expect(await dumpOf(db)).toBe(await dumpOf(fresh));
    }, 60_000);

    it('--full re-reads everything and changes nothing; a terminal sees progress', async () => {
      const res = await runCli(['sync', '--db', db, '--full'], { env: env.env, tty: true });
      expect(res.code, res.stderr).toBe(0);
      // Counts are grouped the same way on the whole line ("1,185/1,185").
      expect(res.stderr).toMatch(/Syncing .* ([\d,]+)\/\1 \|/);
      expect(res.stderr).toMatch(/\nSynced .* 0 rows inserted, 0 updated, 0 marked gone, 0 errors\.\n$/);
      const run = await lastRun(db);
      expect(run.requests).toBeGreaterThan(firstRequests);
      expect([run.rows_inserted, run.rows_updated]).toEqual([0, 0]);
    }, 60_000);
  });
}
