/**
 * The invitation list against the test-taker list (read right after it): the
 * test takers the one names must be as many as the other counts, those it
 * shows and the first did not name must have accepted since (sinceVerdict,
 * plan.ts), and a pair that does not add up is read once more before the run
 * fails (docs/sync.md).
 */
import type { JobfitError } from '../core/errors.js';
import { errorText } from '../export/error-sink.js';
import { type FetchPage, listComplete } from '../listing/complete-list.js';
import { ListedItems, listed, namedTakers } from './listed.js';
import { droppedError, sinceVerdict, takerListCheck, unnamedTakers } from './plan.js';
import { type Json, obj, optId } from './rows.js';
import type { RunState } from './run-state.js';

/** The most requests the check of the test takers accepted since the invitation list was read makes (checkSince). */
const SINCE_CHECK_REQUESTS = 50;

/** One complete read of the invitation list, as the test-taker check reads it. */
export interface Reading {
  items: ListedItems;
  /** The service's clock before the read began (the latest Date header of an answer received before it); undefined: none seen. */
  clock: number | undefined;
  /** Test takers of invitations the list showed not accepted that the run then fetched accepted. */
  accepted: ReadonlySet<number>;
}

/**
 * The test takers the invitation list names are as many as the test-taker
 * list (read right after it) says, counting those it shows that the
 * invitation list did not name as accepted since; and those must really
 * have accepted since (checkSince). The test takers compared are the ones
 * the list itself names: those the fetch found accepted since may have
 * accepted after the test-taker list was read, and it would not count them.
 */
export async function checkTakerList(s: RunState, first: Reading, takerList: Json): Promise<void> {
  const named = namedTakers(first.items);
  const pair = takerListCheck(takerList, named);
  const say = () => s.ctx.debug(`sync: ${pair.since} test takers accepted after the invitation list was read (the next run syncs them)`);
  if (pair.error) {
    if (pair.since > 0) say();
    return recheckTakers(s, pair.error);
  }
  await checkSince(s, first, unnamedTakers(takerList, named));
  if (pair.since > 0) say();
}

/**
 * The invitation list and the test-taker list did not add up. A person
 * deleted between the two reads, or more than 50 accepting during the first
 * (the test-taker list shows only its newest 50), makes them differ with
 * nothing wrong: so the pair is read once more (the complete invitation
 * list, then the test-taker list right after it) and that pair decides. A
 * server that drops people drops them again, and the run fails with what
 * the second pair says (docs/sync.md). Costs nothing when the first pair
 * adds up; these requests count as their own kinds ("… recheck").
 */
async function recheckTakers(s: RunState, first: JobfitError): Promise<void> {
  s.ctx.debug(`sync: ${first.message} Reading both lists once more: a person deleted, or many accepting, between the two reads would explain it.`);
  const again = new ListedItems();
  let unreadable = false;
  const clock = s.client.http.serviceTime;
  const fetchPage: FetchPage<Json> = (q, sig) => s.req('invitation_list_recheck', () => s.client.listInvitations(q, sig)) as Promise<{ total_count?: number; data: Json[] }>;
  await listComplete(
    fetchPage,
    {},
    (it) => {
      try {
        again.push(listed(obj(it)));
      } catch {
        unreadable = true;
      }
    },
    { signal: s.signal, noun: 'invitations', concurrency: Math.min(8, s.o.concurrency) },
  );
  const answer = obj(await s.req('test_taker_list_recheck', () => s.client.listTestTakers({}, s.signal)));
  // An item the first reading read and this one cannot names no test taker: nothing decided, the first answer stands.
  if (unreadable) throw first;
  const namedAgain = namedTakers(again);
  const pair = takerListCheck(answer, namedAgain);
  if (pair.error) throw pair.error;
  await checkSince(s, { items: again, clock, accepted: new Set() }, unnamedTakers(answer, namedAgain));
  s.ctx.debug(`sync: read again, the lists add up (${namedAgain.size} test takers named${pair.since > 0 ? `, ${pair.since} accepted since` : ''})`);
}

/**
 * The test takers the test-taker list shows and the invitation list did not
 * name (at most its 50) count as accepted after that list was read; each
 * must be able to have (plan.ts, sinceVerdict): its invitation (GET
 * /test-takers/:id) was read without a test taker, or was created (GET
 * /invitations/:id) after the service's clock said the read began. One
 * that cannot was left out by the list: the run fails. No request when
 * there is none, or when the fetch already found its invitation read
 * without it; at most SINCE_CHECK_REQUESTS in all. What cannot be known (a
 * field missing, a request refused, no Date header, the requests spent) is
 * taken as accepted since, the weaker rule, and -v says so.
 */
async function checkSince(s: RunState, reading: Reading, unnamed: number[]): Promise<void> {
  if (unnamed.length === 0) return;
  let budget = SINCE_CHECK_REQUESTS;
  const unknown: string[] = [];
  const ask = async <T>(kind: string, taker: number, fetch: () => Promise<unknown>, pick: (j: Json) => T | undefined, what: string): Promise<T | undefined> => {
    if (budget-- <= 0) return void unknown.push(`${taker} (not looked up: the check's ${SINCE_CHECK_REQUESTS} requests were spent)`);
    try {
      const value = pick(obj(await s.req(kind, fetch)));
      if (value === undefined) unknown.push(`${taker} (${what} missing)`);
      return value;
    } catch (err) {
      if (s.stop !== undefined) throw s.stop;
      unknown.push(`${taker} (${what}: ${errorText(err)})`);
      return undefined;
    }
  };
  const invitationOf = new Map<number, number>();
  await settled(
    unnamed
      .filter((taker) => !reading.accepted.has(taker))
      .map(async (taker) => {
        const inv = await ask('test_taker_since_check', taker, () => s.client.getTestTaker(taker, s.signal), (j) => readable(() => optId(j.invitation_id)), 'its invitation_id');
        if (inv !== undefined) invitationOf.set(taker, inv);
      }),
  );
  const wanted = new Set(invitationOf.values());
  const listedAs = new Map<number, number | null>();
  if (wanted.size > 0) for (const it of reading.items) if (wanted.has(it.id)) listedAs.set(it.id, it.takerId);
  const dropped: Array<{ taker: number; invitation: number }> = [];
  await settled(
    [...invitationOf].map(async ([taker, invitation]) => {
      let created: number | undefined;
      if (!listedAs.has(invitation)) {
        if (reading.clock === undefined) return void unknown.push(`${taker} (invitation ${invitation} not listed, and the service's answers carry no Date header to compare its created_at with)`);
        created = await ask('invitation_since_check', taker, () => s.client.getInvitation(invitation, s.signal), (j) => timeOf(j.created_at), `the created_at of invitation ${invitation}`);
        if (created === undefined) return;
      }
      if (sinceVerdict(listedAs.get(invitation), created, reading.clock) === 'dropped') dropped.push({ taker, invitation });
    }),
  );
  if (unknown.length > 0) s.ctx.debug(`sync: taken as accepted after the invitation list was read without knowing (the weaker rule): test taker ${unknown.join(', ')}`);
  if (dropped.length > 0) throw droppedError(dropped.sort((a, b) => a.taker - b.taker));
}


/** Waits for every promise (a stop must not leave requests unawaited), then throws the first rejection, if any. */
async function settled(promises: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What `read` gives, or undefined when it throws or gives null (a value that is not one is as good as missing). */
function readable<T>(read: () => T | null): T | undefined {
  try {
    return read() ?? undefined;
  } catch {
    return undefined;
  }
}

/** An ISO 8601 timestamp as ms since the epoch; undefined for anything else. */
function timeOf(v: unknown): number | undefined {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : undefined;
}
