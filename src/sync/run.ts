/**
 * One sync run: read what can have changed, fetch only that, apply it.
 *
 * The service has no "changed since" filter, so the complete invitation list
 * (src/export/complete-list.ts, about total/150 requests) is the change feed:
 * its items carry `accepted_at` and `test_taker_id`. Every other decision
 * compares that list with what the database already holds; those rules are
 * the sync plan (src/sync/plan.ts), the rows are built by src/sync/rows.ts,
 * and people's rows are committed many to a transaction (src/sync/commits.ts).
 * This file carries the plan out, one step after another: the account and
 * its profiles, the small lists (teams, users), the change feed, the plan,
 * the test-taker list's count, fetch and apply, then what the service no
 * longer has and the count checks.
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
import type { Session } from '../core/session.js';
import { UsageError } from '../core/errors.js';
import type { JobfitClient } from '../client/client.js';
import { AuthenticationError, ServiceGoneError } from '../client/errors.js';
import { type ErrorSink, createErrorSink, errorText } from '../export/error-sink.js';
import { type FetchPage, listAll } from '../export/complete-list.js';
import type { Progress } from '../format/progress.js';
import { type Limiter, limiter } from '../core/pool.js';
import type { JobfitError } from '../core/errors.js';
import { type Counts, DatabaseGoneError, type Row, type SyncStore, type Writer, checkOwner } from './store.js';
import { type Apply, CommitQueue } from './commits.js';
import {
  type PlanOptions,
  type ResultFetch,
  type TakerState,
  SKIP,
  completedOf,
  countCheck,
  droppedError,
  goneMarks,
  invitationNeedsFetch,
  planWork,
  resultsToFetch,
  sinceVerdict,
  storedState,
  takerListCheck,
  takerNeedsFetch,
  unnamedTakers,
  wholeListCheck,
} from './plan.js';
import { type Listed, IdSet, ListedItems, listed, present } from './listed.js';
import { type GoneState, type Stored, SLICE, eachGoneState, storedFor } from './stored.js';
import { type Json, invitationRow, jobFitRows, obj, optId, profileRow, scorecardRow, str, teamRow, testTakerRows, userRow } from './rows.js';


export interface SyncOptions {
  /** Score profile short names; undefined: the ones the database remembers. */
  sp?: string[];
  full: boolean;
  concurrency: number;
  errors?: string;
  /**
   * Only these invitations (list items, or invitation objects: the same
   * fields), instead of the complete list; teams and users are left alone.
   * For `webhook listen --sync`.
   */
  items?: Json[];
}

export interface SyncReport {
  runId: number;
  status: 'ok' | 'partial';
  seconds: number;
  requests: number;
  byKind: Record<string, number>;
  inserted: number;
  updated: number;
  /** Rows marked gone this run (the service no longer lists them). */
  gone: number;
  errors: number;
  invitations: number;
  testTakers: number;
  /** What was not fetched, and why: reason → count. */
  skipped: Record<string, number>;
  scoreProfiles: string[];
}

/** The counts a run's record (sync_runs) and its report share. */
type RunTally = Pick<SyncReport, 'requests' | 'byKind' | 'inserted' | 'updated' | 'gone' | 'errors'>;

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

/** What a sync needs of the run: a Session, the client, and the mode it connected in. */
export interface SyncSession extends Session {
  client(opts?: { announce?: boolean }): Promise<JobfitClient>;
  readonly connection?: { mode?: 'live' | 'test' };
}

export async function syncOnce(ctx: SyncSession, client: JobfitClient, db: SyncStore, o: SyncOptions, progress?: (total: number) => Progress): Promise<SyncReport> {
  const run = new SyncRun(ctx, client, db, o, progress);
  try {
    return await run.run();
  } catch (err) {
    throw await run.stopped(err);
  } finally {
    await run.sink.close();
  }
}

/** The most requests the check of the test takers accepted since the invitation list was read makes (SyncRun.checkSince). */
const SINCE_CHECK_REQUESTS = 50;

/** One complete read of the invitation list, as the test-taker check reads it. */
interface Reading {
  items: ListedItems;
  /** The service's clock before the read began (the latest Date header of an answer received before it); undefined: none seen. */
  clock: number | undefined;
  /** Test takers of invitations the list showed not accepted that the run then fetched accepted. */
  accepted: ReadonlySet<number>;
}

/** Small lists the run reads whole, as the ids they hold (for the gone marks); undefined: the list did not add up, nothing is marked gone by it. */
interface SmallLists {
  teams?: Set<number>;
  users?: Set<number>;
}

/** One run's state (counts, the stop, the error sink, the commit queue) and its steps, in the order run() takes them. */
class SyncRun {
  readonly sink: ErrorSink;
  private readonly started: Date;
  private readonly signal: AbortSignal;
  private readonly byKind: Record<string, number> = {};
  private readonly counts: Counts = { inserted: 0, updated: 0, gone: 0 };
  private readonly skipped: Record<string, number> = {};
  private readonly slot: Limiter;
  private readonly commits: CommitQueue;
  private errors = 0;
  /** Lists whose items did not add up to their total_count: the run fails at its end, with the first. */
  private readonly listProblems: JobfitError[] = [];
  /** What ends every request (service gone, key refused, database gone, Ctrl-C), once it happened. */
  private stop: unknown;
  // Recorded once the run is accepted: a refused run (other mode, unknown profile) writes nothing.
  private runId: number | undefined;
  /** The key's mode, once accept() has read it. */
  private mode: 'live' | 'test' | undefined;
  /** People to look at (the plan's work). */
  private total = 0;
  private bar: Progress | undefined;

  constructor(
    private readonly ctx: SyncSession,
    private readonly client: JobfitClient,
    private readonly db: SyncStore,
    private readonly o: SyncOptions,
    private readonly progress?: (total: number) => Progress,
  ) {
    this.started = ctx.io.now();
    this.signal = ctx.io.signal;
    this.slot = limiter(o.concurrency);
    // One sink (one --errors file): "Error: sync of test taker 500160 (scorecard sales-rep): ...".
    this.sink = createErrorSink(ctx, o.errors, 'sync of');
    this.commits = new CommitQueue(db, (err) => {
      this.stop ??= err;
    });
  }

  async run(): Promise<SyncReport> {
    const sps = await this.accept();
    const small = await this.smallLists();
    // Every answer so far was received before the invitation list read begins: an invitation created before this moment must be in it.
    const clock = this.client.http.serviceTime;
    const items = await this.changeFeed();
    // Read right after the invitation list: what the two say is compared at the end. Not for a
    // test key: its lists are fakes (the reference: "a well-formed fake object"), nothing to add up.
    const complete = !this.o.items;
    const takerList = complete && this.mode === 'live' ? obj(await this.req('test_taker_list', () => this.client.listTestTakers({}, this.signal))) : undefined;
    const plan: PlanOptions = { sps, full: this.o.full };
    const planned = await this.plan(items, plan);
    let testTakers = planned.testTakers;
    this.total = planned.work.length;
    this.ctx.debug(`sync: ${items.length} invitations listed (${testTakers} accepted); ${this.total} to look at, ${items.length - this.total} up to date`);
    const accepted = await this.fetchAll(planned.work, plan);
    // Only a complete list says what is gone (not a webhook batch).
    if (complete) {
      // Before anything is marked gone: an invitation list that leaves people out marks nobody gone. An
      // item error skips it: an invitation that could not be read names no test taker.
      if (takerList && this.errors === 0) await this.checkTakerList({ items, clock, accepted }, takerList);
      const listedTakers = await this.markGone(items, accepted, small);
      testTakers = listedTakers.size;
      await this.checkCounts(items, listedTakers);
    }
    if (this.listProblems.length > 0) throw this.listProblems[0];
    const status = this.errors > 0 ? 'partial' : 'ok';
    await this.finish(status);
    return {
      runId: this.runId!,
      status,
      seconds: (this.ctx.io.now().getTime() - this.started.getTime()) / 1000,
      ...this.tally(),
      invitations: items.length,
      testTakers,
      skipped: this.skipped,
      scoreProfiles: sps,
    };
  }

  /** After a failure: what was fetched before it is kept, the run is recorded; the error to throw (SyncStopped for a stop). */
  async stopped(err: unknown): Promise<unknown> {
    this.bar?.stop();
    try {
      await this.commits.flush();
    } catch {
      // the error that stopped the run is the one to report
    }
    if (err instanceof DatabaseGoneError) this.stop ??= err;
    const reason = this.stop ?? err;
    const interrupted = this.signal.aborted;
    await this.finish(interrupted ? 'interrupted' : 'failed', interrupted ? 'interrupted' : errorText(reason)).catch(() => {});
    if (this.stop !== undefined || interrupted) return new SyncStopped(reason, { done: this.commits.done, total: this.total });
    return err;
  }

  // ---------------------------------------------------------------- bookkeeping

  private skip(reason: string): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
  }

  private itemFailed(what: string, err: unknown): void {
    this.errors++;
    this.sink.failed(what, err);
  }

  /** What the run did so far: requests (in all and by kind), rows written, item errors. The run's record and its report both read it. */
  private tally(): RunTally {
    return {
      requests: Object.values(this.byKind).reduce((a, b) => a + b, 0),
      byKind: this.byKind,
      inserted: this.counts.inserted,
      updated: this.counts.updated,
      gone: this.counts.gone,
      errors: this.errors,
    };
  }

  /** One request, counted by kind; a stop ends every request after it. */
  private req<T>(kind: string, fn: () => Promise<T>): Promise<T> {
    return this.slot(async () => {
      if (this.stop !== undefined) throw this.stop;
      this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
      try {
        return await fn();
      } catch (err) {
        const signal = this.signal;
        if (err instanceof ServiceGoneError || err instanceof AuthenticationError || err instanceof DatabaseGoneError || signal.aborted) this.stop ??= signal.aborted ? (signal.reason ?? err) : err;
        throw err;
      }
    });
  }

  /** A row built from what the service sent; one it cannot be built from (an id that is not one) is an item error. */
  private rowOr(build: () => Row, what: string, id: unknown): Row | undefined {
    try {
      return build();
    } catch (err) {
      this.itemFailed(`${what} ${typeof id === 'string' || typeof id === 'number' ? id : JSON.stringify(id) ?? '(no id)'}`, err);
      return undefined;
    }
  }

  private async finish(status: string, message?: string): Promise<void> {
    if (this.runId === undefined) return;
    await this.db.finishRun(this.runId, { finishedAt: this.ctx.io.now().toISOString(), status, ...this.tally(), message });
  }

  // ---------------------------------------------------------------- whose data, which profiles

  /** Checks the key's mode and account against the database, and the score profiles; records the run. Resolves with the profiles. */
  private async accept(): Promise<string[]> {
    const { ctx, client, db, o } = this;
    const account = obj(await this.req('account', () => client.getAccount()));
    const mode = account.mode === 'test' || account.mode === 'live' ? account.mode : ctx.connection?.mode;
    if (mode !== 'live' && mode !== 'test') throw new UsageError('The service did not say whether this key is live or test; refusing to sync into a database without knowing.');
    await checkOwner(db, mode, String(account.id ?? ''));
    this.mode = mode;

    const meta = await db.meta();
    const remembered = JSON.parse(meta.score_profiles ?? '[]') as string[];
    const sps = o.sp ?? remembered;
    // A first sync without --sp keeps no scorecard: say so (the results it keeps are listed in docs/sync.md).
    if (sps.length === 0 && !o.items && meta.score_profiles === undefined) {
      ctx.warn('No --sp given: no scorecards will be kept (job-fit reports, test takers and invitations are). Run again with --sp <short_names> to keep scorecards; `jobfit profiles list` names them.');
    }
    if (sps.length > 0 && !o.items) {
      const list = obj(await this.req('score_profiles', () => client.listScoreProfiles()));
      this.checkList(list, 'score profiles');
      const names = (Array.isArray(list.data) ? list.data : []).map((p) => str(obj(p).short_name)).filter((n): n is string => n !== null);
      const unknown = sps.filter((s) => !names.includes(s));
      // Test keys may answer with fake profiles: the service decides.
      if (unknown.length > 0 && mode === 'live') {
        throw new UsageError(`Unknown score profile${unknown.length > 1 ? 's' : ''} for --sp: ${unknown.join(', ')}.`, `profiles of this account: ${names.join(', ')}`);
      }
    }
    await db.setMeta('score_profiles', JSON.stringify(sps));
    this.runId = await db.startRun(this.started.toISOString(), o.full);
    return sps;
  }

  // ---------------------------------------------------------------- small lists: always read whole

  /** Whether a list read whole adds up to its total_count; one that does not is kept as a problem (the run fails at its end). */
  private checkList(answer: Json, noun: string): boolean {
    const problem = wholeListCheck(answer, noun);
    if (problem) this.listProblems.push(problem);
    return problem === undefined;
  }

  private async smallLists(): Promise<SmallLists> {
    const teams = obj(await this.req('teams', () => this.client.listTeams()));
    const users = obj(await this.req('users', () => this.client.listUsers()));
    const whole = { teams: this.checkList(teams, 'teams'), users: this.checkList(users, 'users') };
    const teamRows: Row[] = [];
    const userRows: Row[] = [];
    for (const t of Array.isArray(teams.data) ? teams.data.map(obj) : []) {
      const row = this.rowOr(() => teamRow(t), 'team', t.id);
      if (row) teamRows.push(row);
    }
    for (const u of Array.isArray(users.data) ? users.data.map(obj) : []) {
      const row = this.rowOr(() => userRow(u), 'user', u.id);
      if (row) userRows.push(row);
    }
    await this.db.transaction(async (w) => {
      for (const row of teamRows) await w.upsert('teams', ['id'], row, this.counts);
      for (const row of userRows) await w.upsert('users', ['id'], row, this.counts);
    });
    // The rows listed are written either way; only a list that adds up says what is gone.
    return {
      teams: whole.teams ? new Set(teamRows.map((r) => Number(r.id))) : undefined,
      users: whole.users ? new Set(userRows.map((r) => Number(r.id))) : undefined,
    };
  }

  // ---------------------------------------------------------------- the change feed

  /** The complete invitation list (or the webhook batch's items), as the plan reads it. */
  private async changeFeed(): Promise<ListedItems> {
    // Only what the plan needs of each item is kept, in typed arrays (not the items: a flat memory at 100,000).
    const items = new ListedItems();
    const take = (it: Json) => {
      try {
        items.push(listed(it));
      } catch (err) {
        this.itemFailed(`invitation ${typeof it.id === 'string' || typeof it.id === 'number' ? it.id : '(no id)'}`, err);
      }
    };
    if (this.o.items) for (const it of this.o.items) take(it);
    else {
      const fetchPage: FetchPage<Json> = (q, s) => this.req('invitation_list', () => this.client.listInvitations(q, s)) as Promise<{ total_count?: number; data: Json[] }>;
      await listAll(fetchPage, {}, (it) => take(obj(it)), {
        signal: this.signal,
        noun: 'invitations',
        concurrency: Math.min(8, this.o.concurrency),
        onRequest: (q, a) => this.ctx.debug(`  list: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
      });
    }
    return items;
  }

  // ---------------------------------------------------------------- fetch and apply

  /** The plan of every list item, a slice at a time against what the database holds for that slice. */
  private async plan(items: ListedItems, plan: PlanOptions): Promise<{ work: ListedItems; testTakers: number }> {
    const work = new ListedItems();
    let testTakers = 0;
    for (let start = 0; start < items.length; start += SLICE) {
      const slice = items.slice(start, start + SLICE);
      // --full looks at everything: nothing to compare.
      const stored = plan.full ? await storedFor(this.db, []) : await storedFor(this.db, slice);
      const p = planWork(slice, stored, plan, (reason) => this.skip(reason));
      for (const item of p.work) work.push(item);
      testTakers += p.testTakers;
    }
    return { work, testTakers };
  }

  /** Looks at every planned item, `concurrency` at a time, a slice at a time; resolves with the test takers of invitations accepted after the list was read. */
  private async fetchAll(work: ListedItems, plan: PlanOptions): Promise<Set<number>> {
    this.bar = this.progress?.(work.length);
    const accepted = new Set<number>();
    const going = () => this.stop === undefined && !this.signal.aborted;
    for (let start = 0; start < work.length && going(); start += SLICE) {
      const slice = work.slice(start, start + SLICE);
      const stored = await storedFor(this.db, slice);
      let next = 0;
      const worker = async () => {
        while (next < slice.length && going()) {
          const w = slice[next++];
          const errorsBefore = this.errors;
          if (w.takerId === null) await this.notAcceptedYet(w, accepted, stored, plan);
          else await this.person(w, stored, plan);
          this.bar?.tick({ error: this.errors > errorsBefore });
        }
      };
      await Promise.all(Array.from({ length: this.o.concurrency }, worker));
    }
    await this.commits.flush();
    if (this.signal.aborted) this.stop ??= this.signal.reason;
    if (this.stop !== undefined) throw this.stop;
    this.bar?.stop();
    return accepted;
  }

  /** An invitation the list showed not accepted: fetched; accepted since, its test taker is synced with it. */
  private async notAcceptedYet(w: Listed, accepted: Set<number>, stored: Stored, plan: PlanOptions): Promise<void> {
    const row = await this.invitation(w, '');
    if (row && row.test_taker_id !== null) {
      accepted.add(Number(row.test_taker_id));
      await this.person({ ...w, takerId: Number(row.test_taker_id) }, stored, plan);
    } else if (row) await this.commits.write((wr) => wr.upsert('invitations', ['id'], row, this.counts));
  }

  private async invitation(w: Listed, basis: string): Promise<Row | undefined> {
    try {
      const inv = obj(await this.req('invitation', () => this.client.getInvitation(w.id, this.signal)));
      return invitationRow(inv, w.listHash, basis);
    } catch (err) {
      if (this.stop !== undefined) throw this.stop;
      this.itemFailed(`invitation ${w.id}`, err);
      return undefined;
    }
  }

  /** One accepted invitation: its test taker, results and invitation as the plan says, written in one transaction. */
  private async person(w: Listed, stored: Stored, plan: PlanOptions): Promise<void> {
    const takerId = w.takerId!;
    const taker = await this.testTaker(w, stored, plan.full);
    if (!taker) return;
    const tasks = this.results(takerId, taker.state, stored, plan);
    const inv = stored.invitations.get(w.id);
    const invFetch = invitationNeedsFetch(inv, w, taker.state.basis, plan.full) ? this.invitation(w, taker.state.basis) : undefined;
    if (!invFetch) this.skip(SKIP.invitation);
    // Settle everything before deciding: a stop must not leave requests unawaited.
    const settled = await Promise.allSettled([Promise.all(tasks), invFetch]);
    if (this.stop !== undefined) throw this.stop;
    for (const s of settled) if (s.status === 'rejected') throw s.reason;
    const applies = (settled[0] as PromiseFulfilledResult<Array<Apply | undefined>>).value;
    const invRow = (settled[1] as PromiseFulfilledResult<Row | undefined>).value;
    // A new person whose invitation could not be read is not written at all (the keys need both); the next run tries again.
    if (invFetch && !invRow && !inv) return;
    const rows = taker.rows;
    await this.commits.write(async (wr) => {
      if (rows) {
        await wr.upsert('test_takers', ['id'], rows.taker, this.counts);
        for (const a of rows.assessments) await wr.upsert('assigned_assessments', ['test_taker_id', 'id'], a, this.counts);
        await wr.prune('assigned_assessments', 'test_taker_id', takerId, 'id', rows.assessments.map((a) => Number(a.id)), this.counts);
      }
      for (const apply of applies) await apply?.(wr);
      if (invRow) await wr.upsert('invitations', ['id'], invRow, this.counts);
    });
  }

  /** The test taker's state: fetched (with its rows) when the plan says so, else as stored; undefined when it could not be read. */
  private async testTaker(w: Listed, stored: Stored, full: boolean): Promise<{ state: TakerState; rows?: ReturnType<typeof testTakerRows> } | undefined> {
    const takerId = w.takerId!;
    const t = stored.takers.get(takerId);
    if (t !== undefined && !takerNeedsFetch(t, w, full)) {
      this.skip(SKIP.taker);
      return { state: storedState(t) };
    }
    try {
      const json = obj(await this.req('test_taker', () => this.client.getTestTaker(takerId, this.signal)));
      const rows = testTakerRows(json, w.teamId, w.listHash);
      const invId = rows.taker.invitation_id;
      // The keys between the two tables hold only if both sides agree.
      if (invId !== null && invId !== w.id) throw new Error(`it names invitation ${invId}, and invitation ${w.id} names it`);
      return { rows, state: { basis: String(rows.taker.basis), completed: completedOf(String(rows.taker.completed_tests)), profileId: str(json.career_navigation_profile_id) } };
    } catch (err) {
      if (this.stop !== undefined) throw this.stop;
      this.itemFailed(`test taker ${takerId}`, err);
      return undefined;
    }
  }

  /** The results the plan fetches for this person, each resolving with its writes (undefined: an item error, counted). */
  private results(takerId: number, state: TakerState, stored: Stored, plan: PlanOptions): Array<Promise<Apply | undefined>> {
    const { fetch, skips } = resultsToFetch(takerId, state, stored, plan);
    for (const reason of skips) this.skip(reason);
    return fetch.map((f) =>
      this.result(takerId, f, state.basis).catch((err: unknown) => {
        if (this.stop !== undefined) throw this.stop;
        this.itemFailed(`test taker ${takerId} (${RESULT_NAMES[f.kind]}${f.kind === 'scorecard' ? ` ${f.sp}` : ''})`, err);
        return undefined;
      }),
    );
  }

  private async result(takerId: number, f: ResultFetch, basis: string): Promise<Apply> {
    const { client, signal, counts } = this;
    if (f.kind === 'scorecard') {
      const c = await this.req('scorecard', () => client.getScorecard(takerId, f.sp, signal));
      const row = scorecardRow(obj(c), takerId, f.sp, basis);
      return (w: Writer) => w.upsert('scorecards', ['test_taker_id', 'score_profile'], row, counts);
    }
    if (f.kind === 'job_fit_report') {
      const r = await this.req('job_fit_report', () => client.getJobFitReport(takerId, signal));
      const rows = jobFitRows(obj(r), takerId, basis);
      return async (w: Writer) => {
        await w.upsert('job_fit_reports', ['test_taker_id'], rows.report, counts);
        for (const occ of rows.occupations) await w.upsert('job_fit_occupations', ['test_taker_id', 'rank'], occ, counts);
        await w.prune('job_fit_occupations', 'test_taker_id', takerId, 'rank', rows.occupations.map((x) => Number(x.rank)), counts);
      };
    }
    const p = await this.req('career_navigation_profile', () => client.getCareerNavigationProfile(f.id, signal));
    // Keyed to the test taker that names it (the key to test_takers holds).
    const row = profileRow({ ...obj(p), id: f.id }, takerId);
    return (w: Writer) => w.upsert('career_navigation_profiles', ['id'], row, counts);
  }

  // ---------------------------------------------------------------- what the service no longer has

  /** Marks gone what the complete list no longer names, and back what it names again; resolves with the test takers listed. */
  private async markGone(items: ListedItems, accepted: Set<number>, small: SmallLists): Promise<IdSet> {
    // Rows are marked, never deleted: results stay readable.
    const at = this.ctx.io.now().toISOString();
    const listedNow = present(items, accepted);
    const marks: Array<['teams' | 'users' | 'invitations' | 'test_takers', { has(id: number): boolean } | undefined]> = [
      ['teams', small.teams],
      ['users', small.users],
      ['invitations', listedNow.invitations],
      ['test_takers', listedNow.testTakers],
    ];
    // What to mark is read a page at a time (ids only, of those that change), then written in one transaction.
    const changes: Array<{ table: string; gone: number[]; back: number[] }> = [];
    for (const [table, listedIds] of marks) {
      if (!listedIds) continue;
      const change = { table, gone: [] as number[], back: [] as number[] };
      await eachGoneState(this.db, table, (rows: GoneState[]) => {
        const { gone, back } = goneMarks(rows, listedIds);
        change.gone.push(...gone);
        change.back.push(...back);
      });
      changes.push(change);
    }
    await this.db.transaction(async (w) => {
      for (const { table, gone, back } of changes) {
        await w.setGone(table, gone, at, this.counts);
        await w.setGone(table, back, null, this.counts);
      }
    });
    return listedNow.testTakers;
  }

  /** The summary is the tables': a run whose tables do not hold what the lists say (and no item error explains it) fails. */
  private async checkCounts(items: ListedItems, testTakers: IdSet): Promise<void> {
    const [heldInv, heldTakers] = await Promise.all([
      this.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL'),
      this.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL'),
    ]);
    if (this.errors > 0) return;
    const err = countCheck({ invitations: items.length, testTakers: testTakers.size }, { invitations: Number(heldInv[0].n), testTakers: Number(heldTakers[0].n) }, this.db.label);
    if (err) throw err;
  }

  /**
   * The test takers the invitation list names are as many as the test-taker
   * list (read right after it) says, counting those it shows that the
   * invitation list did not name as accepted since; and those must really
   * have accepted since (checkSince). The test takers compared are the ones
   * the list itself names: those the fetch found accepted since may have
   * accepted after the test-taker list was read, and it would not count them.
   */
  private async checkTakerList(first: Reading, takerList: Json): Promise<void> {
    const named = present(first.items, []).testTakers;
    const pair = takerListCheck(takerList, named);
    const say = () => this.ctx.debug(`sync: ${pair.since} test takers accepted after the invitation list was read (the next run syncs them)`);
    if (pair.error) {
      if (pair.since > 0) say();
      return this.recheckTakers(pair.error);
    }
    await this.checkSince(first, unnamedTakers(takerList, named));
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
  private async recheckTakers(first: JobfitError): Promise<void> {
    this.ctx.debug(`sync: ${first.message} Reading both lists once more: a person deleted, or many accepting, between the two reads would explain it.`);
    const again = new ListedItems();
    let unreadable = false;
    const clock = this.client.http.serviceTime;
    const fetchPage: FetchPage<Json> = (q, s) => this.req('invitation_list_recheck', () => this.client.listInvitations(q, s)) as Promise<{ total_count?: number; data: Json[] }>;
    await listAll(
      fetchPage,
      {},
      (it) => {
        try {
          again.push(listed(obj(it)));
        } catch {
          unreadable = true;
        }
      },
      { signal: this.signal, noun: 'invitations', concurrency: Math.min(8, this.o.concurrency) },
    );
    const answer = obj(await this.req('test_taker_list_recheck', () => this.client.listTestTakers({}, this.signal)));
    // An item the first reading read and this one cannot names no test taker: nothing decided, the first answer stands.
    if (unreadable) throw first;
    const namedAgain = present(again, []).testTakers;
    const pair = takerListCheck(answer, namedAgain);
    if (pair.error) throw pair.error;
    await this.checkSince({ items: again, clock, accepted: new Set() }, unnamedTakers(answer, namedAgain));
    this.ctx.debug(`sync: read again, the lists add up (${namedAgain.size} test takers named${pair.since > 0 ? `, ${pair.since} accepted since` : ''})`);
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
  private async checkSince(reading: Reading, unnamed: number[]): Promise<void> {
    if (unnamed.length === 0) return;
    let budget = SINCE_CHECK_REQUESTS;
    const unknown: string[] = [];
    const ask = async <T>(kind: string, taker: number, fetch: () => Promise<unknown>, pick: (j: Json) => T | undefined, what: string): Promise<T | undefined> => {
      if (budget-- <= 0) return void unknown.push(`${taker} (not looked up: the check's ${SINCE_CHECK_REQUESTS} requests were spent)`);
      try {
        const value = pick(obj(await this.req(kind, fetch)));
        if (value === undefined) unknown.push(`${taker} (${what} missing)`);
        return value;
      } catch (err) {
        if (this.stop !== undefined) throw this.stop;
        unknown.push(`${taker} (${what}: ${errorText(err)})`);
        return undefined;
      }
    };
    const invitationOf = new Map<number, number>();
    await settled(
      unnamed
        .filter((taker) => !reading.accepted.has(taker))
        .map(async (taker) => {
          const inv = await ask('test_taker_since_check', taker, () => this.client.getTestTaker(taker, this.signal), (j) => readable(() => optId(j.invitation_id)), 'its invitation_id');
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
          created = await ask('invitation_since_check', taker, () => this.client.getInvitation(invitation, this.signal), (j) => timeOf(j.created_at), `the created_at of invitation ${invitation}`);
          if (created === undefined) return;
        }
        if (sinceVerdict(listedAs.get(invitation), created, reading.clock) === 'dropped') dropped.push({ taker, invitation });
      }),
    );
    if (unknown.length > 0) this.ctx.debug(`sync: taken as accepted after the invitation list was read without knowing (the weaker rule): test taker ${unknown.join(', ')}`);
    if (dropped.length > 0) throw droppedError(dropped.sort((a, b) => a.taker - b.taker));
  }
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

/** How an item error names a result. */
const RESULT_NAMES: Record<ResultFetch['kind'], string> = {
  scorecard: 'scorecard',
  job_fit_report: 'job-fit report',
  career_navigation_profile: 'career navigation profile',
};
