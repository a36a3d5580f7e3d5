/**
 * A sync's middle steps: the change feed (the complete invitation list, or a
 * webhook batch's items), the plan of each item (plan.ts, against what the
 * database holds for a slice of the list at a time: stored.ts), then the
 * people to look at, `concurrency` at a time: each accepted invitation's test
 * taker, results and invitation as the plan says, committed together.
 */
import { type FetchPage, listComplete } from '../listing/complete-list.js';
import type { Apply } from './commits.js';
import { type Listed, ListedItems, listed } from './listed.js';
import { type PlanOptions, type ResultFetch, type TakerState, SKIP, completedOf, invitationNeedsFetch, planWork, resultsToFetch, storedState, takerNeedsFetch } from './plan.js';
import { type Json, invitationRow, jobFitRows, obj, profileRow, scorecardRow, str, testTakerRows } from './rows.js';
import type { RunState } from './run-state.js';
import type { Row, Writer } from './store.js';
import { type Stored, SLICE, storedFor } from './stored.js';

/** The complete invitation list (or the webhook batch's items), as the plan reads it. */
export async function changeFeed(s: RunState): Promise<ListedItems> {
  // Only what the plan needs of each item is kept, in typed arrays (not the items: a flat memory at 100,000).
  const items = new ListedItems();
  const take = (it: Json) => {
    try {
      items.push(listed(it));
    } catch (err) {
      s.itemFailed(`invitation ${typeof it.id === 'string' || typeof it.id === 'number' ? it.id : '(no id)'}`, err);
    }
  };
  if (s.o.items) for (const it of s.o.items) take(it);
  else {
    const fetchPage: FetchPage<Json> = (q, sig) => s.req('invitation_list', () => s.client.listInvitations(q, sig)) as Promise<{ total_count?: number; data: Json[] }>;
    await listComplete(fetchPage, {}, (it) => take(obj(it)), {
      signal: s.signal,
      noun: 'invitations',
      onTotal: (n) => items.reserve(n),
      concurrency: Math.min(8, s.o.concurrency),
      onRequest: (q, a) => s.ctx.debug(`  list: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
    });
    // People looked at in id order, not the search's (listed.ts, sortById).
    items.sortById();
  }
  return items;
}

/** The plan of every list item, a slice at a time against what the database holds for that slice. */
export async function planAll(s: RunState, items: ListedItems, plan: PlanOptions): Promise<{ work: ListedItems; testTakers: number }> {
  const work = new ListedItems();
  // A first sync works on every item: room for all of them at once (rows never written cost no memory).
  work.reserve(items.length);
  let testTakers = 0;
  for (let start = 0; start < items.length; start += SLICE) {
    const slice = items.slice(start, start + SLICE);
    // --full looks at everything: nothing to compare.
    const stored = plan.full ? await storedFor(s.db, []) : await storedFor(s.db, slice);
    const p = planWork(slice, stored, plan, (reason) => s.skip(reason));
    for (const item of p.work) work.push(item);
    testTakers += p.testTakers;
  }
  return { work, testTakers };
}

/** Looks at every planned item, `concurrency` at a time, a slice at a time; resolves with the test takers of invitations accepted after the list was read. */
export async function fetchAll(s: RunState, work: ListedItems, plan: PlanOptions): Promise<Set<number>> {
  s.bar = s.progress?.(work.length);
  const accepted = new Set<number>();
  const going = () => s.stop === undefined && !s.signal.aborted;
  for (let start = 0; start < work.length && going(); start += SLICE) {
    const slice = work.slice(start, start + SLICE);
    const stored = await storedFor(s.db, slice);
    let next = 0;
    const worker = async () => {
      while (next < slice.length && going()) {
        const w = slice[next++];
        const errorsBefore = s.errors;
        if (w.takerId === null) await notAcceptedYet(s, w, accepted, stored, plan);
        else await person(s, w, stored, plan);
        s.bar?.tick({ error: s.errors > errorsBefore });
      }
    };
    await Promise.all(Array.from({ length: s.o.concurrency }, worker));
  }
  await s.commits.flush();
  if (s.signal.aborted) s.stop ??= s.signal.reason;
  if (s.stop !== undefined) throw s.stop;
  s.bar?.stop();
  return accepted;
}

/** An invitation the list showed not accepted: fetched; accepted since, its test taker is synced with it. */
async function notAcceptedYet(s: RunState, w: Listed, accepted: Set<number>, stored: Stored, plan: PlanOptions): Promise<void> {
  const row = await invitation(s, w, '');
  if (row && row.test_taker_id !== null) {
    accepted.add(Number(row.test_taker_id));
    await person(s, { ...w, takerId: Number(row.test_taker_id) }, stored, plan);
  } else if (row) await s.commits.write((wr) => wr.upsert('invitations', ['id'], row, s.counts));
}

async function invitation(s: RunState, w: Listed, basis: string): Promise<Row | undefined> {
  try {
    const inv = obj(await s.req('invitation', () => s.client.getInvitation(w.id, s.signal)));
    return invitationRow(inv, w.listHash, basis);
  } catch (err) {
    if (s.stop !== undefined) throw s.stop;
    s.itemFailed(`invitation ${w.id}`, err);
    return undefined;
  }
}

/** One accepted invitation: its test taker, results and invitation as the plan says, written in one transaction. */
async function person(s: RunState, w: Listed, stored: Stored, plan: PlanOptions): Promise<void> {
  const takerId = w.takerId!;
  const taker = await testTaker(s, w, stored, plan.full);
  if (!taker) return;
  const tasks = results(s, takerId, taker.state, stored, plan);
  const inv = stored.invitations.get(w.id);
  const invFetch = invitationNeedsFetch(inv, w, taker.state.basis, plan.full) ? invitation(s, w, taker.state.basis) : undefined;
  if (!invFetch) s.skip(SKIP.invitation);
  // Settle everything before deciding: a stop must not leave requests unawaited.
  const settled = await Promise.allSettled([Promise.all(tasks), invFetch]);
  if (s.stop !== undefined) throw s.stop;
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  const applies = (settled[0] as PromiseFulfilledResult<Array<Apply | undefined>>).value;
  const invRow = (settled[1] as PromiseFulfilledResult<Row | undefined>).value;
  // A new person whose invitation could not be read is not written at all (the keys need both); the next run tries again.
  if (invFetch && !invRow && !inv) return;
  const rows = taker.rows;
  await s.commits.write(async (wr) => {
    if (rows) {
      await wr.upsert('test_takers', ['id'], rows.taker, s.counts);
      for (const a of rows.assessments) await wr.upsert('assigned_assessments', ['test_taker_id', 'id'], a, s.counts);
      await wr.prune('assigned_assessments', 'test_taker_id', takerId, 'id', rows.assessments.map((a) => Number(a.id)), s.counts);
    }
    for (const apply of applies) await apply?.(wr);
    if (invRow) await wr.upsert('invitations', ['id'], invRow, s.counts);
  });
}

/** The test taker's state: fetched (with its rows) when the plan says so, else as stored; undefined when it could not be read. */
async function testTaker(s: RunState, w: Listed, stored: Stored, full: boolean): Promise<{ state: TakerState; rows?: ReturnType<typeof testTakerRows> } | undefined> {
  const takerId = w.takerId!;
  const t = stored.takers.get(takerId);
  if (t !== undefined && !takerNeedsFetch(t, w, full)) {
    s.skip(SKIP.taker);
    return { state: storedState(t) };
  }
  try {
    const json = obj(await s.req('test_taker', () => s.client.getTestTaker(takerId, s.signal)));
    const rows = testTakerRows(json, w.teamId, w.listHash);
    const invId = rows.taker.invitation_id;
    // The keys between the two tables hold only if both sides agree.
    if (invId !== null && invId !== w.id) throw new Error(`it names invitation ${invId}, and invitation ${w.id} names it`);
    return { rows, state: { basis: String(rows.taker.basis), completed: completedOf(String(rows.taker.completed_tests)), profileId: str(json.career_navigation_profile_id) } };
  } catch (err) {
    if (s.stop !== undefined) throw s.stop;
    s.itemFailed(`test taker ${takerId}`, err);
    return undefined;
  }
}

/** The results the plan fetches for this person, each resolving with its writes (undefined: an item error, counted). */
function results(s: RunState, takerId: number, state: TakerState, stored: Stored, plan: PlanOptions): Array<Promise<Apply | undefined>> {
  const { fetch, skips } = resultsToFetch(takerId, state, stored, plan);
  for (const reason of skips) s.skip(reason);
  return fetch.map((f) =>
    result(s, takerId, f, state.basis).catch((err: unknown) => {
      if (s.stop !== undefined) throw s.stop;
      s.itemFailed(`test taker ${takerId} (${RESULT_NAMES[f.kind]}${f.kind === 'scorecard' ? ` ${f.sp}` : ''})`, err);
      return undefined;
    }),
  );
}

async function result(s: RunState, takerId: number, f: ResultFetch, basis: string): Promise<Apply> {
  const { client, signal, counts } = s;
  if (f.kind === 'scorecard') {
    const c = await s.req('scorecard', () => client.getScorecard(takerId, f.sp, signal));
    const row = scorecardRow(obj(c), takerId, f.sp, basis);
    return (w: Writer) => w.upsert('scorecards', ['test_taker_id', 'score_profile'], row, counts);
  }
  if (f.kind === 'job_fit_report') {
    const r = await s.req('job_fit_report', () => client.getJobFitReport(takerId, signal));
    const rows = jobFitRows(obj(r), takerId, basis);
    return async (w: Writer) => {
      await w.upsert('job_fit_reports', ['test_taker_id'], rows.report, counts);
      for (const occ of rows.occupations) await w.upsert('job_fit_occupations', ['test_taker_id', 'rank'], occ, counts);
      await w.prune('job_fit_occupations', 'test_taker_id', takerId, 'rank', rows.occupations.map((x) => Number(x.rank)), counts);
    };
  }
  const p = await s.req('career_navigation_profile', () => client.getCareerNavigationProfile(f.id, signal));
  // Keyed to the test taker that names it (the key to test_takers holds).
  const row = profileRow({ ...obj(p), id: f.id }, takerId);
  return (w: Writer) => w.upsert('career_navigation_profiles', ['id'], row, counts);
}

/** How an item error names a result. */
const RESULT_NAMES: Record<ResultFetch['kind'], string> = {
  scorecard: 'scorecard',
  job_fit_report: 'job-fit report',
  career_navigation_profile: 'career navigation profile',
};
