/** GET /test-takers and GET /test-takers/:id. */
import { MSG } from '../../api/messages.js';
import * as F from '../fakes.js';
import { type Reply, fail, json } from '../http/reply.js';
import type { TakerReads } from '../taker-reads.js';
import { type TestTakerListRow, type TestTakerRow, assignedAssessments, minimalTestTakerListItem, testTakerListItem, testTakerObject } from '../views.js';
import { type Call, pathId, list, teamOfAccount } from './call.js';
import { fakeCtx } from './account-context.js';
import { listFilters, peoplePage } from './list-filters.js';

export function listTestTakers(c: Call): Reply {
  const f = listFilters(c);
  if (c.auth.mode === 'test') {
    const team = f.teamId !== undefined ? teamOfAccount(c, f.teamId) : undefined;
    const fake = F.fakeTestTakerListItem(fakeCtx(c, team), f);
    return list(c, [c.minimal ? minimalTestTakerListItem(fake) : fake]);
  }
  return c.store.read(() => {
    const { total, rows } = peoplePage<TestTakerListRow>(c, 'test_takers', f);
    return list(c, rows.map((r) => (c.minimal ? minimalTestTakerListItem(testTakerListItem(r)) : testTakerListItem(r))), total);
  });
}

/** The test taker of the path's id in the caller's account (and what was read of it: taker-reads.ts), or a 404. */
export function findTestTaker(c: Call, idText: string): { row: TestTakerRow; reads: TakerReads } {
  const id = pathId(idText);
  if (id === null) fail(MSG.testTakerNotFound);
  const reads = c.takerReads?.(id) ?? {};
  reads.row ??= c.store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ? AND account_id = ?', id, c.auth.accountId) ?? null;
  if (!reads.row) fail(MSG.testTakerNotFound);
  return { row: reads.row, reads };
}

/** Test keys: the fake test taker's id, for any id in the path. */
export function testIdParam(c: Call): number {
  return pathId(c.params[0]) ?? F.fakeId(c.params[0]);
}

/** A test taker's row with its invitation's token and its career navigation profile (at most one: test_taker_id is unique). */
type TestTakerAnswerRow = TestTakerRow & { invitation_token: string | null; profile_id: string; has_profile: number };
const TEST_TAKER_ANSWER_SQL = `SELECT t.*, i.token AS invitation_token, p.id AS profile_id, p.test_taker_id IS NOT NULL AS has_profile
  FROM test_takers t
  LEFT JOIN invitations i ON i.id = t.invitation_id
  LEFT JOIN career_navigation_profiles p ON p.test_taker_id = t.id
  WHERE t.id = ? AND t.account_id = ?`;

/**
 * The test taker and what its answer links to, read in one statement where
 * testTakerObject alone makes three: a report's completion reads one per
 * person (docs/performance.md, "Fairness report").
 */
export function getTestTaker(c: Call): Reply {
  if (c.auth.mode === 'test') return json(200, F.fakeTestTaker(fakeCtx(c), testIdParam(c)));
  const id = pathId(c.params[0]);
  if (id === null) fail(MSG.testTakerNotFound);
  const reads = c.takerReads?.(id) ?? {};
  // Its scorecard, asked for beside it, read all of it already (routes/results.ts): nothing to read again.
  const { row, invitation, assigned, profile } = reads;
  if (row && invitation !== undefined && assigned && profile !== undefined) {
    return json(200, testTakerObject(c.store, row, 'live', c.origin, { token: invitation?.token ?? '', profile: profile ?? undefined }, assigned));
  }
  if (row === null) fail(MSG.testTakerNotFound);
  const answer = c.store.get<TestTakerAnswerRow>(TEST_TAKER_ANSWER_SQL, id, c.auth.accountId);
  if (!answer) fail(MSG.testTakerNotFound);
  const links = { token: answer.invitation_token ?? '', profile: answer.has_profile ? { id: answer.profile_id } : undefined };
  reads.assigned ??= assignedAssessments(c.store, id);
  return json(200, testTakerObject(c.store, answer, 'live', c.origin, links, reads.assigned));
}
