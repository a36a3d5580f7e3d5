/**
 * The export checks against the independent server, one `it` per command.
 * Shared by no-faults.test.ts (10,000 test takers) and faults.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import {
  type Session,
  type SuiteOptions,
  csvRows,
  expectAddsUp,
  expectExactlyOnce,
  minimumList,
  ndjson,
  openSession,
  requestsTo,
  summaryOf,
} from './harness.js';

/** The server is Python 3 (standard library only); without it the suite is skipped, and says so. */
const hasPython = spawnSync('python3', ['--version']).status === 0;

export function independentSuite(o: SuiteOptions): void {
  const label = `${o.testTakers.toLocaleString('en-US')} test takers${o.faults ? ', with faults (429 every fifth request, dropped connections, 200-800 ms latency)' : ''}`;
  describe.skipIf(skipBecause(!hasPython && 'the independent server needs python3 on PATH'))(`exports against an independent server of the reference, ${label}`, () => {
    let s: Session;
    beforeAll(async () => {
      s = await openSession({ testTakers: o.testTakers, faults: o.faults });
    }, 120_000);
    afterAll(async () => {
      await s?.close();
    });

    const truth = () => s.server.truth;
    const takers = () => truth().test_takers;
    const withResults = () => takers().filter((t) => t.has_results);
    const SP = 'fork-op';
    const noFaults = !o.faults;

    /** `it`, or `it.fails` for a case known to fail now (named in the options with the reason). */
    const check = (key: string) => (o.only && !o.only.includes(key) ? it.skip : o.knownFailing?.[key] ? it.fails : it);

    function expectFaultsSeen(req: Record<string, number>): void {
      if (!o.faults) return;
      expect(req['fault:429'] ?? 0, '429s were served').toBeGreaterThan(0);
    }

    check('test-takers')('test-takers list --all: every test taker exactly once, summary adds up', async () => {
      const r = await s.run(['test-takers', 'list', '--all', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const items = ndjson(r.stdout);
      expectExactlyOnce(items.map((i) => i.id), takers().map((t) => t.id), 'test takers');
      const team = new Map(takers().map((t) => [t.id, t.team_id]));
      expect(items.filter((i) => (i.team as { id: number }).id !== team.get(i.id as number))).toEqual([]);
      expectAddsUp(summaryOf(r.stderr), { listed: takers().length, parts: { written: takers().length } });
      expectFaultsSeen(r.requests);
    }, o.timeout);

    check('invitations')('invitations list --all: every invitation exactly once, summary adds up', async () => {
      const r = await s.run(['invitations', 'list', '--all', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const items = ndjson(r.stdout);
      expectExactlyOnce(items.map((i) => i.id), truth().invitations.map((i) => i.id), 'invitations');
      const tt = new Map(truth().invitations.map((i) => [i.id, i.test_taker_id]));
      expect(items.filter((i) => i.test_taker_id !== tt.get(i.id as number))).toEqual([]);
      expectAddsUp(summaryOf(r.stderr), { listed: truth().invitations.length, parts: { written: truth().invitations.length } });
      if (noFaults) expect(requestsTo(r.requests, 'invitations')).toBeLessThanOrEqual(10 * minimumList(truth().invitations.length));
    }, o.timeout);

    check('profiles')('profiles list --all: every career navigation profile exactly once (list items carry no test_taker_id or email)', async () => {
      const r = await s.run(['profiles', 'list', '--all', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const items = ndjson(r.stdout);
      const want = takers().filter((t) => t.profile_id !== null);
      expectExactlyOnce(items.map((i) => i.id), want.map((t) => t.profile_id), 'profiles');
      const owner = new Map(want.map((t) => [t.profile_id, t.id]));
      expect(items.filter((i) => i.test_taker_id !== owner.get(i.id as string))).toEqual([]);
      expectAddsUp(summaryOf(r.stderr), { listed: want.length, parts: { written: want.length } });
      if (noFaults) expect(requestsTo(r.requests, 'career-navigation-profiles/:id')).toBe(want.length);
    }, o.timeout);

    check('scorecard-ndjson')(`scorecard --all --sp ${SP} -o ndjson: every test taker with results written once, the rest counted`, async () => {
      const r = await s.run(['scorecard', '--all', '--sp', SP, '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const cards = ndjson(r.stdout);
      expectExactlyOnce(cards.map((c) => c.test_taker_id), withResults().map((t) => t.id), 'scorecards');
      const star = new Map(withResults().map((t) => [t.id, t.five_star?.[SP]]));
      expect(cards.filter((c) => c.five_star_score !== star.get(c.test_taker_id as number))).toEqual([]);
      const n = takers().length;
      expectAddsUp(summaryOf(r.stderr), { listed: n, parts: { written: withResults().length, 'without results yet': n - withResults().length } });
      if (noFaults) expect(requestsTo(r.requests, 'test-takers/:id/scorecard'), 'one scorecard request per test taker').toBe(n);
      expectFaultsSeen(r.requests);
    }, o.timeout);

    check('scorecard-csv')('scorecard --all -o csv: one row per test taker with results, values from the server', async () => {
      const r = await s.run(['scorecard', '--all', '--sp', 'svc-lead', '-o', 'csv']);
      expect(r.code, r.stderr).toBe(0);
      const rows = csvRows(r.stdout);
      expectExactlyOnce(rows.map((c) => c.test_taker_id), withResults().map((t) => t.id), 'scorecard rows');
      const star = new Map(withResults().map((t) => [String(t.id), String(t.five_star?.['svc-lead'])]));
      expect(rows.filter((c) => c.five_star_score !== star.get(c.test_taker_id))).toEqual([]);
      const custom = new Map(takers().map((t) => [String(t.id), t.custom_id ?? '']));
      expect(rows.filter((c) => c.custom_id !== custom.get(c.test_taker_id)).slice(0, 3)).toEqual([]);
      const n = takers().length;
      expectAddsUp(summaryOf(r.stderr), { listed: n, parts: { written: withResults().length, 'without results yet': n - withResults().length } });
    }, o.timeout);

    check('job-fit')('job-fit --all: a report for everyone with Personality and Career Interests complete, the rest counted as not available yet', async () => {
      const r = await s.run(['job-fit', '--all', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const ready = takers().filter((t) => t.job_fit);
      expectExactlyOnce(ndjson(r.stdout).map((c) => c.test_taker_id), ready.map((t) => t.id), 'job-fit reports');
      const n = takers().length;
      expectAddsUp(summaryOf(r.stderr), { listed: n, parts: { written: ready.length, 'job-fit report not available yet': n - ready.length } });
      if (noFaults) expect(requestsTo(r.requests, 'test-takers/:id/job-fit-report')).toBe(n);
    }, o.timeout);

    check('report')('report -o json: invited, accepted and completed per team match the server', async () => {
      const r = await s.run(['report', '--sp', SP, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const rep = JSON.parse(r.stdout) as { groups: Array<{ key: unknown; invited: number; accepted: number; completed: number }>; total: { invited: number; accepted: number; completed: number } };
      const inv = truth().invitations;
      expect(rep.total).toMatchObject({ invited: inv.length, accepted: takers().length, completed: withResults().length });
      for (const team of truth().teams) {
        const g = rep.groups.find((x) => Number(x.key) === team.id);
        expect(g, `group of team ${team.id}`).toMatchObject({
          invited: inv.filter((i) => i.team_id === team.id).length,
          accepted: takers().filter((t) => t.team_id === team.id).length,
          completed: withResults().filter((t) => t.team_id === team.id).length,
        });
      }
      const pending = inv.length - takers().length;
      expectAddsUp(summaryOf(r.stderr), { listed: inv.length, parts: { 'counted with their scorecard': takers().length, 'not accepted yet': pending } });
      if (noFaults) expect(requestsTo(r.requests, 'test-takers/:id/scorecard')).toBe(takers().length);
    }, o.timeout);

    check('ids-from')(`scorecard --ids-from FILE with ${o.idsFrom.toLocaleString('en-US')} ids: each written once, in any order`, async () => {
      // Every other test taker from the newest, so with and without results are mixed.
      // (The rest from the same reversed list, so no id repeats whatever the parity of the count.)
      const newest = [...takers()].reverse();
      const ids = newest.filter((_, i) => i % 2 === 0).concat(newest.filter((_, i) => i % 2 === 1)).slice(0, o.idsFrom).map((t) => t.id);
      expect(ids).toHaveLength(o.idsFrom);
      const file = s.file('ids.txt', `${ids.join('\n')}\n`);
      const r = await s.run(['scorecard', '--ids-from', file, '--sp', 'dispatch-2', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      expectExactlyOnce(ndjson(r.stdout).map((c) => c.test_taker_id), ids, 'scorecards');
      expectAddsUp(summaryOf(r.stderr), { listed: ids.length, parts: { written: ids.length } });
      if (noFaults) expect(requestsTo(r.requests, 'test-takers/:id/scorecard')).toBe(ids.length);
    }, o.timeout);

    if (noFaults) {
      // Issue 10 asks for this bound on our own stubs; against a server whose emails split less evenly it is not met yet.
      it.fails('test-takers list --all: at most 5 x ceil(N/150) requests (issue 10 bound; not met against this server yet)', async () => {
        const r = await s.run(['test-takers', 'list', '--all', '-o', 'ndjson']);
        expect(r.code, r.stderr).toBe(0);
        expect(requestsTo(r.requests, 'test-takers', 'invitations')).toBeLessThanOrEqual(5 * minimumList(takers().length));
      }, o.timeout);
    }
  });
}
