/**
 * The sync plan: the rules that decide, from the invitation list and what
 * the database already holds, what a run fetches, what it skips (and why),
 * what it marks gone, and whether its counts add up. No I/O: what the
 * database holds comes in as a Stored (src/sync/stored.ts, one slice of the
 * list at a time); pure functions, each unit tested in
 * test/sync/plan.test.ts. src/sync/run.ts carries them out.
 *
 * - an invitation is fetched when it is new, its list item changed, or (once
 *   accepted) its test taker's state moved since it was fetched;
 * - a test taker is fetched when it is new, its invitation's list item
 *   changed, or some assessment was still open at the last fetch;
 * - a result is fetched when its stored `basis` differs from the test taker's
 *   state (the completed set changed since it was fetched);
 * - `--full` fetches everything the list names;
 * - every list read must add up to the total_count it states (when it
 *   states one), and the tables to what the lists say;
 * - a test taker the test-taker list shows and the invitation list did not
 *   name counts as accepted since that list was read only if it can have
 *   (sinceVerdict).
 */
import { JobfitError } from '../core/errors.js';
import { readId } from '../api/ids.js';
import { TEST_ID } from '../api/catalog.js';
import { type Json, obj } from './rows.js';
import { type Listed, ListedItems } from './listed.js';
import type { Stored, StoredInvitation, StoredTestTaker } from './stored.js';

/** What the plan needs of the run's options. */
export interface PlanOptions {
  /** Score profiles whose scorecards are kept. */
  sps: readonly string[];
  full: boolean;
}

/** What results depend on: the test taker's `basis`, the assessments they completed, their career navigation profile. */
export interface TakerState {
  basis: string;
  completed: Set<number>;
  profileId: string | null;
}

export function storedState(t: StoredTestTaker): TakerState {
  return { basis: t.basis, completed: completedOf(t.completed_tests), profileId: t.career_navigation_profile_id };
}

/** `completed_tests` ("1,4") as a set of assessment ids. */
export function completedOf(text: string): Set<number> {
  return new Set(text ? text.split(',').map(Number) : []);
}

/** The reference: the job-fit report needs Personality and Career Interests complete. */
export function jobFitReady(completed: Set<number>): boolean {
  return completed.has(TEST_ID.personality) && completed.has(TEST_ID.interests);
}

export const SKIP = {
  pending: 'invitations not accepted yet and unchanged in the list',
  person: 'test takers with every assessment complete, results stored and the invitation unchanged',
  taker: 'test takers with every assessment complete (not fetched again)',
  noScorecard: 'scorecards of test takers who completed nothing yet',
  scorecard: 'scorecards up to date',
  noJobFit: 'job-fit reports not ready (Personality and Career Interests not both complete)',
  jobFit: 'job-fit reports up to date',
  profile: 'career navigation profiles already stored',
  invitation: 'invitations unchanged',
} as const;

/**
 * Whether a list item needs looking at this run: undefined when it does, else
 * why it is skipped. An accepted invitation is skipped only when its test
 * taker can no longer change (every assessment complete, fetched with this
 * list item) and its invitation and every result are stored at that state.
 */
export function planItem(item: Listed, stored: Stored, o: PlanOptions): string | undefined {
  const { id, listHash: itemHash, takerId } = item;
  if (o.full) return undefined;
  const inv = stored.invitations.get(id);
  if (takerId === null) return inv && inv.list_hash === itemHash ? SKIP.pending : undefined;
  const t = stored.takers.get(takerId);
  if (t === undefined || t.list_hash !== itemHash || t.assessments_open !== 0) return undefined;
  const state = storedState(t);
  const invFresh = inv !== undefined && inv.list_hash === itemHash && inv.basis === t.basis;
  const resultsFresh =
    o.sps.every((sp) => state.completed.size === 0 || stored.cards.get(`${takerId}/${sp}`) === t.basis) &&
    (!jobFitReady(state.completed) || stored.reports.get(takerId) === t.basis) &&
    (state.profileId === null || stored.profiles.has(state.profileId));
  return invFresh && resultsFresh ? SKIP.person : undefined;
}

/** The items to look at, in list order, and how many of all the items name a test taker; `skip` hears each reason. */
export function planWork(items: Iterable<Listed>, stored: Stored, o: PlanOptions, skip: (reason: string) => void): { work: ListedItems; testTakers: number } {
  const work = new ListedItems();
  let testTakers = 0;
  for (const item of items) {
    if (item.takerId !== null) testTakers++;
    const reason = planItem(item, stored, o);
    if (reason === undefined) work.push(item);
    else skip(reason);
  }
  return { work, testTakers };
}

/** Whether a test taker is fetched again: new, its list item changed, or something was still open at the last fetch. */
export function takerNeedsFetch(t: StoredTestTaker | undefined, item: Listed, full: boolean): boolean {
  return full || t === undefined || t.list_hash !== item.listHash || t.assessments_open > 0;
}

/** A result to fetch for a test taker. */
export type ResultFetch = { kind: 'scorecard'; sp: string } | { kind: 'job_fit_report' } | { kind: 'career_navigation_profile'; id: string };

/** The results of one test taker to fetch at `state`, in request order, and the reasons for the others skipped. */
export function resultsToFetch(takerId: number, state: TakerState, stored: Stored, o: PlanOptions): { fetch: ResultFetch[]; skips: string[] } {
  const fetch: ResultFetch[] = [];
  const skips: string[] = [];
  for (const sp of o.sps) {
    if (state.completed.size === 0) skips.push(SKIP.noScorecard);
    else if (!o.full && stored.cards.get(`${takerId}/${sp}`) === state.basis) skips.push(SKIP.scorecard);
    else fetch.push({ kind: 'scorecard', sp });
  }
  if (!jobFitReady(state.completed)) skips.push(SKIP.noJobFit);
  else if (!o.full && stored.reports.get(takerId) === state.basis) skips.push(SKIP.jobFit);
  else fetch.push({ kind: 'job_fit_report' });
  if (state.profileId !== null) {
    if (!o.full && stored.profiles.has(state.profileId)) skips.push(SKIP.profile);
    else fetch.push({ kind: 'career_navigation_profile', id: state.profileId });
  }
  return { fetch, skips };
}

/** Whether an accepted invitation is fetched again: new, its list item changed, or its test taker's state moved. */
export function invitationNeedsFetch(inv: StoredInvitation | undefined, item: Listed, basis: string, full: boolean): boolean {
  return full || inv === undefined || inv.list_hash !== item.listHash || inv.basis !== basis;
}

/** Rows to mark gone (held, not listed, not marked yet) and rows back (listed again, marked gone). Rows are never deleted. */
export function goneMarks(rows: Iterable<{ id: number; gone_at: string | null }>, listedIds: { has(id: number): boolean }): { gone: number[]; back: number[] } {
  const gone: number[] = [];
  const back: number[] = [];
  for (const r of rows) {
    if (!listedIds.has(r.id) && r.gone_at === null) gone.push(r.id);
    else if (listedIds.has(r.id) && r.gone_at !== null) back.push(r.id);
  }
  return { gone, back };
}

/** How many invitations and test takers: as the service lists them, or as the tables hold them (not gone). */
export interface Tally {
  invitations: number;
  testTakers: number;
}

/** What a sync says when counts do not add up: exit 1 (JobfitError), what was committed is kept. */
const COUNTS_HINT = 'run the sync again with --full; if it persists, report it';

/**
 * The summary is the tables': what the service lists must be what the
 * database holds as not gone. An error when they differ (the caller asks only
 * when no item error explains a difference).
 */
export function countCheck(listedCount: Tally, held: Tally, label: string): JobfitError | undefined {
  if (held.invitations === listedCount.invitations && held.testTakers === listedCount.testTakers) return undefined;
  return new JobfitError(
    `The counts do not add up: the service lists ${listedCount.invitations} invitations and ${listedCount.testTakers} test takers, ${label} holds ${held.invitations} and ${held.testTakers}.`,
    { hint: COUNTS_HINT },
  );
}

/** A list answer's total_count, when it states one (a number, or a string of digits); undefined when it does not. */
export function statedTotal(answer: Json): number | undefined {
  const t = answer.total_count;
  if (typeof t === 'number' && Number.isSafeInteger(t) && t >= 0) return t;
  if (typeof t === 'string' && /^\d{1,15}$/.test(t.trim())) return Number(t.trim());
  return undefined;
}

/**
 * A list read whole in one request (teams, users, score profiles) must hold
 * as many items as its total_count says. A list that states no count is taken
 * as it is (nothing to check it against).
 */
export function wholeListCheck(answer: Json, noun: string): JobfitError | undefined {
  const total = statedTotal(answer);
  const held = Array.isArray(answer.data) ? answer.data.length : 0;
  if (total === undefined || total === held) return undefined;
  return new JobfitError(`The counts do not add up: the service's list of ${noun} says ${total} (total_count) and holds ${held}.`, { hint: COUNTS_HINT });
}

/**
 * The test takers the complete invitation list names (`named`, as the list
 * read them) must be as many as the test-taker list's total_count (one
 * unfiltered request, read after the invitation list). That
 * answer's items (the newest, up to the cap) may name test takers accepted
 * after the invitation list was read: those are counted (`since`), not
 * missing; the next run syncs them. Only their ids are read (a strict server
 * sends little else). No error when the answer states no count.
 */
export function takerListCheck(answer: Json, named: { has(id: number): boolean; size: number }): { error?: JobfitError; since: number } {
  const total = statedTotal(answer);
  const since = unnamedTakers(answer, named).length;
  if (total === undefined || total === named.size + since) return { since };
  const also = since > 0 ? ` (and ${since} accepted since it was read)` : '';
  return {
    since,
    error: new JobfitError(`The counts do not add up: the service's list of test takers says ${total} (total_count), the invitation list names ${named.size}${also}.`, { hint: COUNTS_HINT }),
  };
}

/** The test takers of a test-taker list answer that the invitation list did not name (distinct, in the answer's order: newest first). */
export function unnamedTakers(answer: Json, named: { has(id: number): boolean }): number[] {
  const unnamed = new Set<number>();
  for (const item of Array.isArray(answer.data) ? answer.data : []) {
    const id = readId(obj(item).id, 'id of an item of the list of test takers');
    if (!named.has(id)) unnamed.add(id);
  }
  return [...unnamed];
}

/**
 * What the service's clocks and commits are allowed: an invitation created up
 * to this long before the service's clock said the invitation list read
 * began may still have been missed by it (written by a server whose clock is
 * a little behind, or committed after its created_at was set).
 */
export const CLOCK_ALLOWANCE_MS = 60_000;

/**
 * Whether a test taker the invitation list did not name can have accepted
 * after that list was read: only if its invitation was read without a test
 * taker (accepted after its page was read), or was not read at all because it
 * was created after the read began. `listedAs`: the test taker the list item
 * of its invitation named (null: none; undefined: the list did not have it);
 * `createdAt`: that invitation's created_at; `clock`: the service's time
 * before the read began (its Date header). `unknown` when what decides is not
 * known: the weaker rule (counted as accepted since) applies.
 */
export function sinceVerdict(listedAs: number | null | undefined, createdAt: number | undefined, clock: number | undefined): 'since' | 'dropped' | 'unknown' {
  if (listedAs === null) return 'since';
  // Read with a test taker, and another one: the list names someone else for it.
  if (listedAs !== undefined) return 'dropped';
  if (createdAt === undefined || clock === undefined) return 'unknown';
  return createdAt >= clock - CLOCK_ALLOWANCE_MS ? 'since' : 'dropped';
}

/** The failure of a run whose invitation list left out test takers the test-taker list shows: `dropped` pairs test taker and invitation. */
export function droppedError(dropped: ReadonlyArray<{ taker: number; invitation: number }>): JobfitError {
  const shown = dropped.slice(0, 5).map((d) => `${d.taker} (invitation ${d.invitation})`);
  const more = dropped.length > 5 ? ` and ${dropped.length - 5} more` : '';
  const n = dropped.length;
  return new JobfitError(
    `The counts do not add up: the service's list of test takers shows ${n} test taker${n > 1 ? 's' : ''} the invitation list does not name, and who cannot have accepted after it was read: ${shown.join(', ')}${more}.`,
    { hint: COUNTS_HINT },
  );
}
