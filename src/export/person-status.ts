/**
 * Where a person is: `pending` (invited, not accepted), `accepted` (a test
 * taker, no assessment started), `started` (some assessment started or done,
 * not all) or `completed` (every assigned assessment done), and the dates of
 * each step. The service has no such filter (api-v2: "No status field with
 * named values is given"): the state is read from `accepted_at` and the test
 * taker's `assigned_assessments`, client-side. An item's test taker is read
 * (GET /test-takers/ID) only when the filter needs to tell accepted, started
 * and completed apart, or needs the completion date.
 */
import type { JobfitClient } from '../client/client.js';

export const STATUSES = ['pending', 'accepted', 'started', 'completed'] as const;
export type PersonStatus = (typeof STATUSES)[number];
export const DATE_BASES = ['created', 'accepted', 'completed'] as const;
export type DateBase = (typeof DATE_BASES)[number];

export interface StatusFilterSpec {
  /** Kept states; undefined: any. */
  statuses?: ReadonlySet<PersonStatus>;
  /** Inclusive lower bound (ms since the epoch). */
  since?: number;
  /** Exclusive upper bound (ms since the epoch). */
  until?: number;
  /** Which date --since/--until look at (default created). */
  by: DateBase;
}

type Item = Record<string, unknown>;
interface Assigned {
  completed_at?: unknown;
  language?: unknown;
}

/** The state and completion time of a test taker (GET /test-takers/ID). */
export function stateOfTestTaker(tt: { assigned_assessments?: unknown }): { status: Exclude<PersonStatus, 'pending'>; completedAt?: number } {
  const list = Array.isArray(tt.assigned_assessments) ? (tt.assigned_assessments as Assigned[]) : [];
  const done = list.filter((a) => typeof a.completed_at === 'string');
  if (list.length > 0 && done.length === list.length) {
    return { status: 'completed', completedAt: Math.max(...done.map((a) => Date.parse(a.completed_at as string))) };
  }
  const started = done.length > 0 || list.some((a) => typeof a.language === 'string' && a.language !== '');
  return { status: started ? 'started' : 'accepted' };
}

/** Whether the test taker must be read: accepted/started/completed told apart, or the completion date. */
export function needsTestTaker(s: StatusFilterSpec): boolean {
  if (s.by === 'completed' && (s.since !== undefined || s.until !== undefined)) return true;
  if (!s.statuses) return false;
  const later = (['accepted', 'started', 'completed'] as const).filter((x) => s.statuses!.has(x)).length;
  return later > 0 && later < 3;
}

const inRange = (s: StatusFilterSpec, at: number | undefined) => {
  if (s.since === undefined && s.until === undefined) return true;
  if (at === undefined || Number.isNaN(at)) return false;
  return (s.since === undefined || at >= s.since) && (s.until === undefined || at < s.until);
};
const timeOf = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : undefined);

/**
 * The predicate for items of `resource`: invitation list items (accepted_at,
 * test_taker_id, created_at) or test taker list items (id, invitation_id,
 * created_at: a test taker is created when its invitation is accepted).
 */
export function itemPredicate(client: Pick<JobfitClient, 'getTestTaker' | 'getInvitation'>, resource: 'invitations' | 'test-takers', s: StatusFilterSpec, signal?: AbortSignal): (it: Item) => Promise<boolean> {
  const detail = needsTestTaker(s);
  return async (it) => {
    const takerId = resource === 'invitations' ? it.test_taker_id : it.id;
    const accepted = resource === 'invitations' ? typeof it.accepted_at === 'string' : true;
    if (!accepted) {
      // Pending: no later state, no acceptance or completion date.
      if (s.statuses && !s.statuses.has('pending')) return false;
      return s.by === 'created' ? inRange(s, timeOf(it.created_at)) : inRange(s, undefined);
    }
    if (s.statuses && !s.statuses.has('accepted') && !s.statuses.has('started') && !s.statuses.has('completed')) return false;
    let state: ReturnType<typeof stateOfTestTaker> | undefined;
    if (detail && (typeof takerId === 'number' || typeof takerId === 'string')) state = stateOfTestTaker((await client.getTestTaker(takerId, signal)) as Item);
    if (detail && state === undefined) return false;
    if (state && s.statuses && !s.statuses.has(state.status)) return false;
    if (s.by === 'completed') return inRange(s, state?.completedAt);
    if (s.by === 'accepted') return inRange(s, await acceptedAt(client, resource, it, signal));
    return inRange(s, timeOf(it.created_at));
  };
}

/** When the invitation was accepted: its accepted_at; for a test taker, its created_at, or its invitation's accepted_at when the list item leaves created_at out. */
async function acceptedAt(client: Pick<JobfitClient, 'getInvitation'>, resource: 'invitations' | 'test-takers', it: Item, signal?: AbortSignal): Promise<number | undefined> {
  if (resource === 'invitations') return timeOf(it.accepted_at);
  if (typeof it.created_at === 'string') return timeOf(it.created_at);
  if (typeof it.invitation_id !== 'number') return undefined;
  return timeOf(((await client.getInvitation(it.invitation_id, signal)) as Item).accepted_at);
}

/**
 * Applies an async predicate to items as they come, `concurrency` at a time,
 * and hands each one on in the order it came (kept or dropped), waiting for
 * the promise `onItem` returns. `push` returns a promise while more than
 * `held` items are waiting to be handed on (back-pressure: the caller waits
 * for it). `drain` resolves when every item is handed on, or rejects with
 * the first error.
 */
export function orderedFilter<T>(
  test: (it: T) => Promise<boolean>,
  onItem: (it: T, kept: boolean) => void | Promise<void>,
  concurrency = 8,
  held = 64,
): { push(it: T): void | Promise<void>; drain(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  let active = 0;
  const waiting: Array<() => void> = [];
  // The chain as it was after each of the last `held` pushes: the oldest is where the caller waits.
  const behind: Array<Promise<void>> = [];
  const slot = async () => {
    if (active >= concurrency) await new Promise<void>((r) => waiting.push(r));
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  return {
    push(it) {
      const verdict = slot().then(() => test(it)).finally(release);
      verdict.catch(() => {});
      chain = chain.then(async () => onItem(it, await verdict));
      behind.push(chain);
      if (behind.length <= held) return undefined;
      // An error is thrown by drain(), not here.
      return behind.shift()!.catch(() => {});
    },
    drain: () => chain,
  };
}

/** The reason an item outside the filter is counted under, in every summary. */
export const OUTSIDE_FILTER = 'outside --status/--since/--until';

/** Thrown by a gated fetch for a test taker the filter leaves out: the export counts it as skipped (OUTSIDE_FILTER). */
export class OutsideFilter extends Error {
  constructor() {
    super(OUTSIDE_FILTER);
  }
}

/**
 * For an export by test taker id (scorecard, job-fit): the fetch, preceded by
 * the filter (the test taker, and its invitation for a date of acceptance or
 * creation: a test taker is created when its invitation is accepted), and the
 * skipWhen that counts the ones left out. Undefined spec: both as given.
 */
export function gateExport<R>(
  client: Pick<JobfitClient, 'getTestTaker' | 'getInvitation'>,
  spec: StatusFilterSpec | undefined,
  fetch: (id: number, signal?: AbortSignal) => Promise<R>,
  skipWhen?: (err: unknown) => string | undefined,
): { fetch: (id: number, signal?: AbortSignal) => Promise<R>; skipWhen?: (err: unknown) => string | undefined } {
  if (!spec) return { fetch, skipWhen };
  return {
    fetch: async (id, signal) => {
      // Read once here; the predicate asks for it again and gets this copy.
      const tt = await client.getTestTaker(id, signal);
      const reader = { getTestTaker: async () => tt, getInvitation: client.getInvitation.bind(client) };
      const keep = await itemPredicate(reader, 'test-takers', { ...spec, by: spec.by === 'created' ? 'accepted' : spec.by }, signal)({ id, invitation_id: tt.invitation_id });
      if (!keep) throw new OutsideFilter();
      return fetch(id, signal);
    },
    skipWhen: (err) => (err instanceof OutsideFilter ? OUTSIDE_FILTER : skipWhen?.(err)),
  };
}
