/**
 * Sending one row of bulk invite: the POST, the row retry (decided in
 * retry.ts, carried out here: look-ups, waits, the pace), telling this row's
 * own invitation from someone else's, and settling the rows an interrupted
 * run left in flight by their email (never a second POST).
 */
import type { CreateInvitationBody, InvitationListItem } from '../api/index.js';
import { MSG } from '../api/messages.js';
import { readId } from '../api/ids.js';
import type { CreatedCheck } from '../client/client.js';
import { ServiceGoneError } from '../client/errors.js';
import { type BulkApi, findInvitationByEmail } from './account.js';
import type { RowOutcome } from './journal.js';
import { classifyRowError, decideRowRetry, type Pace } from './row-retry.js';
import type { BulkSender } from './types.js';

/** Waits, or less when the run is stopped (`signal`). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((r) => {
    if (signal?.aborted) return r();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      r();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** What a row asks for, to tell its own invitation from someone else's. */
export interface RowAsk {
  email: string;
  first: string;
  last: string;
  /** The team the invitation goes to (the row's, or the inviter's default). */
  teamId?: number;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * An invitation found by email is this row's own (made by an earlier or
 * interrupted run of it, or by a lost POST the client recovered): the same
 * person on the same team. Anything else is someone else's invitation in the way.
 */
function isOwn(found: InvitationListItem, ask: RowAsk): boolean {
  return (ask.teamId === undefined || found.team?.id === ask.teamId) && same(found.first_name, ask.first) && same(found.last_name, ask.last);
}

/** The service's refusal, and which invitation is in the way. */
function conflict(msg: string, found: InvitationListItem | undefined): RowOutcome {
  if (!found) return { status: 'failed', error: msg };
  const team = found.team ? `team ${found.team.display_name} (${found.team.id})` : 'another team';
  const when = found.created_at ? `, created ${found.created_at}` : '';
  return { status: 'failed', error: `${msg}: invitation ${found.id} on ${team}, for ${found.first_name} ${found.last_name}${when}` };
}

/** The email looked up; a lookup that fails is "not found", unless the service is gone. */
function lookUp(api: BulkApi, email: string, signal: AbortSignal): Promise<InvitationListItem | undefined> {
  return findInvitationByEmail(api, email, signal).catch((e) => {
    if (e instanceof ServiceGoneError) throw e;
    return undefined;
  });
}

/** The id of a 201, or undefined when it gives none a person could use (null, "", 0, "pending": the invitation was still made). */
function createdId(raw: unknown): number | undefined {
  try {
    return readId(raw);
  } catch {
    return undefined;
  }
}

/** The 201 check in batches (confirm-batch.ts), and what to call once the POST is answered (the row's slot released). */
export interface RowBatch {
  check: CreatedCheck;
  answered: () => void;
}

/**
 * Sends one row, retrying as decideRowRetry (retry.ts) says. A 400 duplicate
 * is "exists" only when the invitation in the way is this row's own (isOwn),
 * otherwise the row failed with the service's message and the invitation in
 * the way; a lost POST is resolved by the client (lookup, never a blind
 * resend) and looked up again here before any new send.
 */
export async function sendRow(api: BulkSender, body: CreateInvitationBody, ask: RowAsk, pace: Pace, signal: AbortSignal, batch?: RowBatch, random: () => number = Math.random): Promise<RowOutcome> {
  const email = ask.email;
  // The 201 is answered once its id is to be confirmed: the row's slot is free for the next POST meanwhile.
  const confirmed: CreatedCheck | undefined = batch && ((id, e, sig) => (batch.answered(), batch.check(id, e, sig)));
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await api.createInvitationDetailed(body, signal, confirmed);
      pace.ok();
      const id = createdId((r.invitation as { id?: unknown } | null)?.id);
      if (id === undefined) {
        // A 201 without an id (none, 0, "pending"): the invitation was made, but
        // which one is unknown. Resolved by the email, as a dropped POST is; never sent again.
        const found = await lookUp(api, email, signal);
        if (found && isOwn(found, ask)) return { status: 'created', id: readId(found.id, `id of the invitation for ${email}`), url: found.assessment_url };
        return { ...UNANSWERED, error: NO_ID };
      }
      return { status: 'created', id, url: r.invitation.assessment_url };
    } catch (err) {
      const failure = classifyRowError(err);
      const d = decideRowRetry(failure, attempt, random);
      switch (d.action) {
        case 'stop':
          throw err;
        case 'fail':
          return { status: 'failed', error: d.error };
        case 'look-up-duplicate': {
          const found = await lookUp(api, email, signal);
          if (found && d.message === MSG.duplicateInvitationSameTeam(email) && isOwn(found, ask)) return { status: 'exists', id: found.id, url: found.assessment_url };
          return conflict(d.message, found);
        }
        case 'wait': {
          if (d.slowDown) pace.slowDown();
          if (d.lookUpFirst) {
            // The client looked the email up and resent once; look again before any new send.
            const found = await lookUp(api, email, signal);
            if (found && isOwn(found, ask)) return { status: 'created', id: found.id, url: found.assessment_url };
          }
          await sleep(d.delayMs, signal);
          if (d.last) return { status: 'failed', error: failure.text, transient: true };
        }
      }
    }
  }
}

/**
 * The rows of a run that the service did not answer, one after another,
 * through every retry (a service whose reads work but whose writes all fail
 * never trips the client's breaker, which counts requests): at this many the
 * run stops as for a service that is gone. JOBFIT_BREAKER_SECONDS=0 turns it
 * off with the client's breaker.
 */
export function rowBreakerBound(concurrency: number, env: Record<string, string | undefined>): number {
  if (env.JOBFIT_BREAKER_SECONDS?.trim() === '0') return Number.POSITIVE_INFINITY;
  return Math.max(5, concurrency);
}

/** Rows sent before a crash with no outcome: the email lookup decides, never a second POST. */
export async function resolveInFlight(api: BulkApi, ask: RowAsk, signal: AbortSignal): Promise<RowOutcome | undefined> {
  const found = await findInvitationByEmail(api, ask.email, signal);
  // Someone else's invitation is not this row's: the send then gets the service's refusal.
  return found && isOwn(found, ask) ? { status: 'created', id: found.id, url: found.assessment_url } : undefined;
}

export const NOT_SENT: RowOutcome = { status: 'not_sent', error: 'not sent: the run stopped first (--resume sends it)' };
const NO_ID = 'the service answered 201 without an invitation id, and looking the email up did not find it yet (--resume looks it up again, it never sends twice)';
export const UNANSWERED: RowOutcome = { status: 'unknown', error: 'sent, but no answer came before the run stopped (--resume looks it up by email, it never sends twice)' };
