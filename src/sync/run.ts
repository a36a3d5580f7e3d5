/**
 * One sync run: read what can have changed, fetch only that, apply it.
 *
 * The service has no "changed since" filter, so the complete invitation list
 * (src/listing/complete-list.ts, about total/150 requests) is the change feed:
 * its items carry `accepted_at` and `test_taker_id`. Every other decision
 * compares that list with what the database already holds; those rules are
 * the sync plan (src/sync/plan.ts), the rows are built by src/sync/rows.ts,
 * and people's rows are committed many to a transaction (src/sync/commits.ts).
 * This file carries the plan out, one step after another, each step in its
 * own file over the run's state (run-state.ts): the account and its profiles
 * and the small lists (accept.ts), the change feed, the plan, fetch and
 * apply (fetch-people.ts), the test-taker list's count (taker-check.ts),
 * then what the service no longer has and the count checks (gone.ts).
 *
 * Every decision reads the database, not "what this run saw", so a run killed
 * at any moment leaves nothing the next run skips wrongly; a person's rows are
 * written in one transaction (with other people's: commits are batched).
 *
 * Exact or loudly wrong: every list read is checked against the total_count
 * it states (plan.ts), and the tables against the lists; a count that does
 * not add up fails the run (exit 1) at its end, keeping what it committed.
 * A test taker the invitation list did not name passes as accepted since it
 * was read only once the service says it can have (checkSince).
 */
import type { JobfitClient } from '../client/client.js';
import { errorText } from '../export/error-sink.js';
import type { Progress } from '../format/progress.js';
import { acceptRun, smallLists } from './accept.js';
import { changeFeed, fetchAll, planAll } from './fetch-people.js';
import { checkCounts, markGone } from './gone.js';
import type { PlanOptions } from './plan.js';
import { obj } from './rows.js';
import { type RunTally, type SyncOptions, type SyncSession, RunState } from './run-state.js';
import { DatabaseGoneError, type SyncStore } from './store.js';
import { checkTakerList } from './taker-check.js';

export type { SyncOptions, SyncSession } from './run-state.js';

export interface SyncReport extends RunTally {
  runId: number;
  status: 'ok' | 'partial';
  seconds: number;
  invitations: number;
  testTakers: number;
  /** What was not fetched, and why: reason → count. */
  skipped: Record<string, number>;
  scoreProfiles: string[];
}

/** Where a run stands, for the summary of a run that stops early. */
export interface SyncProgress {
  /** People whose rows are committed. */
  done: number;
  total: number;
}

/** A run stopped by something that ends every request (service gone, key refused, Ctrl-C). */
export class SyncStopped extends Error {
  constructor(readonly reason: unknown, readonly progress: SyncProgress) {
    super('sync stopped');
  }
}

export async function syncOnce(ctx: SyncSession, client: JobfitClient, db: SyncStore, o: SyncOptions, progress?: (total: number) => Progress): Promise<SyncReport> {
  const s = new RunState(ctx, client, db, o, progress);
  try {
    return await run(s);
  } catch (err) {
    throw await stopped(s, err);
  } finally {
    await s.sink.close();
  }
}

/** The run's steps, in order. */
async function run(s: RunState): Promise<SyncReport> {
  const sps = await acceptRun(s);
  const small = await smallLists(s);
  // Every answer so far was received before the invitation list read begins: an invitation created before this moment must be in it.
  const clock = s.client.http.serviceTime;
  const items = await changeFeed(s);
  // Read right after the invitation list: what the two say is compared at the end. Not for a
  // test key: its lists are fakes (the reference: "a well-formed fake object"), nothing to add up.
  const complete = !s.o.items;
  const takerList = complete && s.mode === 'live' ? obj(await s.req('test_taker_list', () => s.client.listTestTakers({}, s.signal))) : undefined;
  const plan: PlanOptions = { sps, full: s.o.full };
  const planned = await planAll(s, items, plan);
  let testTakers = planned.testTakers;
  s.total = planned.work.length;
  s.ctx.debug(`sync: ${items.length} invitations listed (${testTakers} accepted); ${s.total} to look at, ${items.length - s.total} up to date`);
  const accepted = await fetchAll(s, planned.work, plan);
  // Only a complete list says what is gone (not a webhook batch).
  if (complete) {
    // Before anything is marked gone: an invitation list that leaves people out marks nobody gone. An
    // item error skips it: an invitation that could not be read names no test taker.
    if (takerList && s.errors === 0) await checkTakerList(s, { items, clock, accepted }, takerList);
    const listedTakers = await markGone(s, items, accepted, small);
    testTakers = listedTakers.size;
    await checkCounts(s, items, listedTakers);
  }
  if (s.listProblems.length > 0) throw s.listProblems[0];
  const status = s.errors > 0 ? 'partial' : 'ok';
  await s.finish(status);
  return {
    runId: s.runId!,
    status,
    seconds: (s.ctx.io.now().getTime() - s.started.getTime()) / 1000,
    ...s.tally(),
    invitations: items.length,
    testTakers,
    skipped: s.skipped,
    scoreProfiles: sps,
  };
}

/** After a failure: what was fetched before it is kept, the run is recorded; the error to throw (SyncStopped for a stop). */
async function stopped(s: RunState, err: unknown): Promise<unknown> {
  s.bar?.stop();
  try {
    await s.commits.flush();
  } catch {
    // the error that stopped the run is the one to report
  }
  if (err instanceof DatabaseGoneError) s.stop ??= err;
  const reason = s.stop ?? err;
  const interrupted = s.signal.aborted;
  await s.finish(interrupted ? 'interrupted' : 'failed', interrupted ? 'interrupted' : errorText(reason)).catch(() => {});
  if (s.stop !== undefined || interrupted) return new SyncStopped(reason, { done: s.commits.done, total: s.total });
  return err;
}
