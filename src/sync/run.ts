/**
 * One sync run: read what can have changed, fetch only that, apply it.
 *
 * The service has no "changed since" filter, so the complete invitation list
 * (src/export/complete-list.ts, about total/150 requests) is the change feed:
 * its items carry `accepted_at` and `test_taker_id`. Every other decision
 * compares that list with what the database already holds:
 *
 * - an invitation is fetched when it is new, its list item changed, or (once
 *   accepted) its test taker's state moved since it was fetched (the result
 *   URLs on the invitation follow completions);
 * - a test taker is fetched when it is new, its invitation's list item
 *   changed, or some assessment was still open at the last fetch: a test taker
 *   whose assessments are all complete cannot change any more;
 * - a result (scorecard per score profile, job-fit report, career navigation
 *   profile) is fetched when its stored `basis` differs from the test taker's
 *   state, i.e. the completed set changed since it was fetched.
 *
 * Every decision reads the database, not "what this run saw", so a run killed
 * at any moment leaves nothing the next run skips wrongly; a person's rows are
 * written in one transaction (with other people's: commits are batched).
 */
import { createHash } from 'node:crypto';
import type { Session } from '../core/session.js';
import { JobfitError, UsageError } from '../core/errors.js';
import { readId } from '../api/ids.js';
import type { JobfitClient } from '../client/client.js';
import { AuthenticationError, ServiceGoneError } from '../client/errors.js';
import { createErrorSink, errorText } from '../export/bulk-fetch.js';
import { type FetchPage, listAll } from '../export/complete-list.js';
import { scoreEntries } from '../export/scorecard-rows.js';
import { TEST_ID } from '../api/catalog.js';
import type { Progress } from '../format/progress.js';
import { type Counts, DatabaseGoneError, type Row, type SyncStore, type Writer, checkOwner } from './store.js';
import { SCORE_COLUMNS, scoreColumn } from './schema.js';
import { limiter } from '../core/pool.js';

type Json = Record<string, unknown>;

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

/** Where a run stands, for the summary of a run that stops early. */
export interface SyncProgress {
  /** People whose rows are committed. */
  done: number;
  total: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : null);
/** An id that may be absent (null); present, it is an integer or a numeric string, or an error (src/api/ids.ts). */
const optId = (v: unknown): number | null => (v === null || v === undefined ? null : readId(v));
const refId = (v: unknown): number | null => optId((v as Json | null)?.id);
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

function hash(v: unknown): string {
  return createHash('sha1').update(JSON.stringify(v)).digest('hex').slice(0, 16);
}

/**
 * The fields of an invitation list item the reference promises, in a fixed
 * order: the invitation object holds them too, so an invitation fetched on
 * its own (a webhook event) hashes the same as its list item.
 */
export function listHash(i: Json): string {
  const team = obj(i.team);
  const account = obj(i.account);
  return hash([
    i.id, i.first_name, i.last_name, i.email, i.created_at, i.accepted_at, i.assessment_url, i.test_taker_id, i.custom_id, i.person_id,
    team.id, team.display_name, account.id, account.display_name,
  ].map((v) => v ?? null));
}

/** What a sync keeps of an invitation list item: its id, what the list says of it, its test taker and team. */
interface Listed {
  id: number;
  listHash: string;
  takerId: number | null;
  teamId: number | null;
}

function listed(item: Json): Listed {
  return { id: readId(item.id), listHash: listHash(item), takerId: optId(item.test_taker_id), teamId: refId(item.team) };
}

interface StoredTestTaker {
  id: number;
  gone_at: string | null;
  list_hash: string;
  basis: string;
  completed_tests: string;
  assessments_open: number;
  career_navigation_profile_id: string | null;
}

interface TakerState {
  basis: string;
  completed: Set<number>;
  profileId: string | null;
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
  const started = ctx.io.now();
  const signal = ctx.io.signal;
  const byKind: Record<string, number> = {};
  const counts: Counts = { inserted: 0, updated: 0, gone: 0 };
  const skipped: Record<string, number> = {};
  const skip = (reason: string, n = 1) => {
    skipped[reason] = (skipped[reason] ?? 0) + n;
  };
  let errors = 0;
  let stop: unknown;
  const slot = limiter(o.concurrency);
  const req = <T>(kind: string, fn: () => Promise<T>): Promise<T> =>
    slot(async () => {
      if (stop !== undefined) throw stop;
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      try {
        return await fn();
      } catch (err) {
        if (err instanceof ServiceGoneError || err instanceof AuthenticationError || err instanceof DatabaseGoneError || signal.aborted) stop ??= signal.aborted ? (signal.reason ?? err) : err;
        throw err;
      }
    });
  // Recorded once the run is accepted: a refused run (other mode, unknown profile) writes nothing.
  let runId: number | undefined;
  // One sink (one --errors file): "Error: sync of test taker 500160 (scorecard sales-rep): ...".
  const sink = createErrorSink(ctx, o.errors, 'sync of');
  const position: SyncProgress = { done: 0, total: 0 };
  /** A row built from what the service sent; one it cannot be built from (an id that is not one) is an item error. */
  const rowOr = (build: () => Row, what: string, id: unknown): Row | undefined => {
    try {
      return build();
    } catch (err) {
      errors++;
      sink.failed(`${what} ${typeof id === 'string' || typeof id === 'number' ? id : JSON.stringify(id) ?? '(no id)'}`, err);
      return undefined;
    }
  };
  let bar: Progress | undefined;

  type Apply = (w: Writer) => Promise<void>;
  // Each Apply is one person's rows: `position.done` counts them once committed, so a run that stops says what it kept.
  const pending: Apply[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  // Transactions one after another: a flush waits for the one before it.
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length === 0) return flushing;
    const batch = pending.splice(0);
    flushing = flushing
      .then(() =>
        db.transaction(async (w) => {
          for (const apply of batch) await apply(w);
        }),
      )
      .then(() => {
        position.done += batch.length;
      });
    return flushing;
  };

  const finish = async (status: string, message?: string) => {
    if (runId === undefined) return;
    await db.finishRun(runId, {
      finishedAt: ctx.io.now().toISOString(),
      status,
      requests: Object.values(byKind).reduce((a, b) => a + b, 0),
      byKind,
      inserted: counts.inserted,
      updated: counts.updated,
      gone: counts.gone,
      errors,
      message,
    });
  };

  try {
    // ---------------------------------------------------------------- whose data, which profiles
    const account = obj(await req('account', () => client.getAccount()));
    const mode = account.mode === 'test' || account.mode === 'live' ? account.mode : ctx.connection?.mode;
    if (mode !== 'live' && mode !== 'test') throw new UsageError('The service did not say whether this key is live or test; refusing to sync into a database without knowing.');
    await checkOwner(db, mode, String(account.id ?? ''));

    const meta = await db.meta();
    const remembered = JSON.parse(meta.score_profiles ?? '[]') as string[];
    const sps = o.sp ?? remembered;
    // A first sync without --sp keeps no scorecard: say so (the results it keeps are listed in docs/sync.md).
    if (sps.length === 0 && !o.items && meta.score_profiles === undefined) {
      ctx.warn('No --sp given: no scorecards will be kept (job-fit reports, test takers and invitations are). Run again with --sp <short_names> to keep scorecards; `jobfit profiles list` names them.');
    }
    if (sps.length > 0 && !o.items) {
      const list = obj(await req('score_profiles', () => client.listScoreProfiles()));
      const names = (Array.isArray(list.data) ? list.data : []).map((p) => str(obj(p).short_name)).filter((n): n is string => n !== null);
      const unknown = sps.filter((s) => !names.includes(s));
      // Test keys may answer with fake profiles: the service decides.
      if (unknown.length > 0 && mode === 'live') {
        throw new UsageError(`Unknown score profile${unknown.length > 1 ? 's' : ''} for --sp: ${unknown.join(', ')}.`, `profiles of this account: ${names.join(', ')}`);
      }
    }
    await db.setMeta('score_profiles', JSON.stringify(sps));
    runId = await db.startRun(started.toISOString(), o.full);

    // ---------------------------------------------------------------- small lists: always read whole
    const teams = obj(await req('teams', () => client.listTeams()));
    const users = obj(await req('users', () => client.listUsers()));
    const teamRows: Row[] = [];
    const userRows: Row[] = [];
    for (const t of Array.isArray(teams.data) ? teams.data.map(obj) : []) {
      const row = rowOr(() => ({ id: readId(t.id), display_name: str(t.display_name), users_count: num(t.users_count), invitations_count: num(t.invitations_count), test_takers_count: num(t.test_takers_count) }), 'team', t.id);
      if (row) teamRows.push(row);
    }
    for (const u of Array.isArray(users.data) ? users.data.map(obj) : []) {
      const row = rowOr(() => userRow(u), 'user', u.id);
      if (row) userRows.push(row);
    }
    await db.transaction(async (w) => {
      for (const row of teamRows) await w.upsert('teams', ['id'], row, counts);
      for (const row of userRows) await w.upsert('users', ['id'], row, counts);
    });

    // ---------------------------------------------------------------- the change feed
    // Only what the plan needs of each item is kept (not the items: a flat memory at 100,000).
    const items: Listed[] = [];
    const take = (it: Json) => {
      try {
        items.push(listed(it));
      } catch (err) {
        errors++;
        sink.failed(`invitation ${typeof it.id === 'string' || typeof it.id === 'number' ? it.id : '(no id)'}`, err);
      }
    };
    if (o.items) for (const it of o.items) take(it);
    else {
      const fetchPage: FetchPage<Json> = (q, s) => req('invitation_list', () => client.listInvitations(q, s)) as Promise<{ total_count?: number; data: Json[] }>;
      await listAll(fetchPage, {}, (it) => take(obj(it)), {
        signal,
        noun: 'invitations',
        concurrency: Math.min(8, o.concurrency),
        onRequest: (q, a) => ctx.debug(`  list: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
      });
    }

    // ---------------------------------------------------------------- what the database holds
    const invs = new Map((await db.all<{ id: number; list_hash: string; basis: string; gone_at: string | null }>('SELECT id, list_hash, basis, gone_at FROM invitations')).map((r) => [r.id, r]));
    const takers = new Map((await db.all<StoredTestTaker>('SELECT id, list_hash, basis, completed_tests, assessments_open, career_navigation_profile_id, gone_at FROM test_takers')).map((r) => [r.id, r]));
    const cards = new Map((await db.all<{ k: string; basis: string }>(`SELECT test_taker_id || '/' || score_profile AS k, basis FROM scorecards`)).map((r) => [r.k, r.basis]));
    const reports = new Map((await db.all<{ id: number; basis: string }>('SELECT test_taker_id AS id, basis FROM job_fit_reports')).map((r) => [r.id, r.basis]));
    const profiles = new Set((await db.all<{ id: string }>('SELECT id FROM career_navigation_profiles')).map((r) => r.id));

    // ---------------------------------------------------------------- plan
    type Work = Listed;
    const work: Work[] = [];
    let testTakers = 0;
    for (const item of items) {
      const { id, listHash: itemHash, takerId } = item;
      if (takerId !== null) testTakers++;
      const inv = invs.get(id);
      if (takerId === null) {
        if (!o.full && inv && inv.list_hash === itemHash) skip('invitations not accepted yet and unchanged in the list');
        else work.push(item);
        continue;
      }
      const t = takers.get(takerId);
      const takerFresh = !o.full && t !== undefined && t.list_hash === itemHash && t.assessments_open === 0;
      if (takerFresh) {
        const state = storedState(t);
        const invFresh = inv !== undefined && inv.list_hash === itemHash && inv.basis === t.basis;
        const resultsFresh =
          sps.every((sp) => state.completed.size === 0 || cards.get(`${takerId}/${sp}`) === t.basis) &&
          (!jobFitReady(state.completed) || reports.get(takerId) === t.basis) &&
          (state.profileId === null || profiles.has(state.profileId));
        if (invFresh && resultsFresh) {
          skip('test takers with every assessment complete, results stored and the invitation unchanged');
          continue;
        }
      }
      work.push(item);
    }
    position.total = work.length;
    ctx.debug(`sync: ${items.length} invitations listed (${testTakers} accepted); ${work.length} to look at, ${items.length - work.length} up to date`);

    // ---------------------------------------------------------------- fetch and apply
    bar = progress?.(work.length);
    // Whole people are written many to a transaction: one commit per person costs more than the requests.
    const write = async (fn: Apply) => {
      pending.push(fn);
      if (pending.length >= 200) await flush();
      else
        flushTimer ??= setTimeout(() => {
          flush().catch((err: unknown) => {
            stop ??= err;
          });
        }, 100);
    };
    const doInvitation = async (w: Work, basis: string): Promise<Row | undefined> => {
      try {
        const inv = obj(await req('invitation', () => client.getInvitation(w.id, signal)));
        return invitationRow(inv, w.listHash, basis);
      } catch (err) {
        if (stop !== undefined) throw stop;
        errors++;
        sink.failed(`invitation ${w.id}`, err);
        return undefined;
      }
    };

    const doPerson = async (w: Work): Promise<void> => {
      const takerId = w.takerId!;
      const stored = takers.get(takerId);
      let state: TakerState;
      let takerRows: { taker: Row; assessments: Row[] } | undefined;
      if (o.full || !stored || stored.list_hash !== w.listHash || stored.assessments_open > 0) {
        let t: Json;
        try {
          t = obj(await req('test_taker', () => client.getTestTaker(takerId, signal)));
          takerRows = testTakerRows(t, w.teamId, w.listHash);
          const invId = takerRows.taker.invitation_id;
          // The keys between the two tables hold only if both sides agree.
          if (invId !== null && invId !== w.id) throw new Error(`it names invitation ${invId}, and invitation ${w.id} names it`);
        } catch (err) {
          if (stop !== undefined) throw stop;
          errors++;
          sink.failed(`test taker ${takerId}`, err);
          return;
        }
        state = { basis: String(takerRows.taker.basis), completed: completedOf(String(takerRows.taker.completed_tests)), profileId: str(t.career_navigation_profile_id) };
      } else {
        skip('test takers with every assessment complete (not fetched again)');
        state = storedState(stored);
      }

      const tasks: Array<Promise<Apply | undefined>> = [];
      const failed = (what: string) => (err: unknown) => {
        if (stop !== undefined) throw stop;
        errors++;
        sink.failed(`test taker ${takerId} (${what})`, err);
        return undefined;
      };
      for (const sp of sps) {
        if (state.completed.size === 0) skip('scorecards of test takers who completed nothing yet');
        else if (!o.full && cards.get(`${takerId}/${sp}`) === state.basis) skip(`scorecards up to date`);
        else
          tasks.push(
            req('scorecard', () => client.getScorecard(takerId, sp, signal))
              .then((c) => {
                const row = scorecardRow(obj(c), takerId, sp, state.basis);
                return (w: Writer) => w.upsert('scorecards', ['test_taker_id', 'score_profile'], row, counts);
              })
              .catch(failed(`scorecard ${sp}`)),
          );
      }
      if (!jobFitReady(state.completed)) skip('job-fit reports not ready (Personality and Career Interests not both complete)');
      else if (!o.full && reports.get(takerId) === state.basis) skip('job-fit reports up to date');
      else
        tasks.push(
          req('job_fit_report', () => client.getJobFitReport(takerId, signal))
            .then((r) => {
              const rows = jobFitRows(obj(r), takerId, state.basis);
              return async (w: Writer) => {
                await w.upsert('job_fit_reports', ['test_taker_id'], rows.report, counts);
                for (const occ of rows.occupations) await w.upsert('job_fit_occupations', ['test_taker_id', 'rank'], occ, counts);
                await w.prune('job_fit_occupations', 'test_taker_id', takerId, 'rank', rows.occupations.map((x) => Number(x.rank)), counts);
              };
            })
            .catch(failed('job-fit report')),
        );
      const profileId = state.profileId;
      if (profileId !== null) {
        if (!o.full && profiles.has(profileId)) skip('career navigation profiles already stored');
        else
          tasks.push(
            req('career_navigation_profile', () => client.getCareerNavigationProfile(profileId, signal))
              .then((p) => {
                // Keyed to the test taker that names it (the key to test_takers holds).
                const row = profileRow({ ...obj(p), id: profileId }, takerId);
                return (w: Writer) => w.upsert('career_navigation_profiles', ['id'], row, counts);
              })
              .catch(failed('career navigation profile')),
          );
      }
      const inv = invs.get(w.id);
      const invFetch = o.full || !inv || inv.list_hash !== w.listHash || inv.basis !== state.basis ? doInvitation(w, state.basis) : undefined;
      if (!invFetch) skip('invitations unchanged');
      // Settle everything before deciding: a stop must not leave requests unawaited.
      const settled = await Promise.allSettled([Promise.all(tasks), invFetch]);
      if (stop !== undefined) throw stop;
      for (const s of settled) if (s.status === 'rejected') throw s.reason;
      const applies = (settled[0] as PromiseFulfilledResult<Array<Apply | undefined>>).value;
      const invRow = (settled[1] as PromiseFulfilledResult<Row | undefined>).value;
      // A new person whose invitation could not be read is not written at all (the keys need both); the next run tries again.
      if (invFetch && !invRow && !inv) return;
      await write(async (w) => {
        if (takerRows) {
          await w.upsert('test_takers', ['id'], takerRows.taker, counts);
          for (const a of takerRows.assessments) await w.upsert('assigned_assessments', ['test_taker_id', 'id'], a, counts);
          await w.prune('assigned_assessments', 'test_taker_id', takerId, 'id', takerRows.assessments.map((a) => Number(a.id)), counts);
        }
        for (const apply of applies) await apply?.(w);
        if (invRow) await w.upsert('invitations', ['id'], invRow, counts);
      });
    };

    // Test takers of invitations accepted after the list was read.
    const accepted = new Set<number>();
    let next = 0;
    const worker = async () => {
      while (next < work.length && stop === undefined && !signal.aborted) {
        const w = work[next++];
        const errorsBefore = errors;
        if (w.takerId === null) {
          const row = await doInvitation(w, '');
          // Accepted since the list was read: the invitation names a test taker, who is synced with it.
          if (row && row.test_taker_id !== null) {
            accepted.add(Number(row.test_taker_id));
            await doPerson({ ...w, takerId: Number(row.test_taker_id) });
          }
          else if (row) await write((w) => w.upsert('invitations', ['id'], row, counts));
        } else {
          await doPerson(w);
        }
        bar?.tick({ error: errors > errorsBefore });
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    await flush();
    if (signal.aborted) stop ??= signal.reason;
    if (stop !== undefined) throw stop;
    bar?.stop();

    // ---------------------------------------------------------------- what the service no longer has
    // Only a complete list says what is gone (not a webhook batch). Rows are marked, never deleted: results stay readable.
    if (!o.items) {
      const at = ctx.io.now().toISOString();
      const listedInv = new Set(items.map((i) => i.id));
      const listedTakers = new Set(items.flatMap((i) => (i.takerId === null ? [] : [i.takerId])));
      for (const id of accepted) listedTakers.add(id);
      testTakers = listedTakers.size;
      const teamIds = new Set(teamRows.map((r) => Number(r.id)));
      const userIds = new Set(userRows.map((r) => Number(r.id)));
      const [storedTeams, storedUsers] = await Promise.all([
        db.all<{ id: number; gone_at: string | null }>('SELECT id, gone_at FROM teams'),
        db.all<{ id: number; gone_at: string | null }>('SELECT id, gone_at FROM users'),
      ]);
      const marks: Array<[string, Iterable<{ id: number; gone_at: string | null }>, Set<number>]> = [
        ['teams', storedTeams, teamIds],
        ['users', storedUsers, userIds],
        ['invitations', invs.values(), listedInv],
        ['test_takers', takers.values(), listedTakers],
      ];
      await db.transaction(async (w) => {
        for (const [table, rows, present] of marks) {
          const gone: number[] = [];
          const back: number[] = [];
          for (const r of rows) {
            if (!present.has(r.id) && r.gone_at === null) gone.push(r.id);
            else if (present.has(r.id) && r.gone_at !== null) back.push(r.id);
          }
          await w.setGone(table, gone, at, counts);
          await w.setGone(table, back, null, counts);
        }
      });
      // The summary is the tables': what the service lists is what the database holds as not gone.
      const [heldInv, heldTakers] = await Promise.all([
        db.all<{ n: number }>('SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL'),
        db.all<{ n: number }>('SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL'),
      ]);
      if (errors === 0 && (Number(heldInv[0].n) !== items.length || Number(heldTakers[0].n) !== testTakers)) {
        throw new JobfitError(
          `The counts do not add up: the service lists ${items.length} invitations and ${testTakers} test takers, ${db.label} holds ${heldInv[0].n} and ${heldTakers[0].n}.`,
          { hint: 'run the sync again with --full; if it persists, report it' },
        );
      }
    }

    const status = errors > 0 ? 'partial' : 'ok';
    await finish(status);
    return {
      runId: runId!,
      status,
      seconds: (ctx.io.now().getTime() - started.getTime()) / 1000,
      requests: Object.values(byKind).reduce((a, b) => a + b, 0),
      byKind,
      inserted: counts.inserted,
      updated: counts.updated,
      gone: counts.gone,
      errors,
      invitations: items.length,
      testTakers,
      skipped,
      scoreProfiles: sps,
    };
  } catch (err) {
    bar?.stop();
    // What was fetched before the stop is kept.
    try {
      await flush();
    } catch {
      // the error that stopped the run is the one to report
    }
    if (err instanceof DatabaseGoneError) stop ??= err;
    const reason = stop ?? err;
    const interrupted = signal.aborted;
    await finish(interrupted ? 'interrupted' : 'failed', interrupted ? 'interrupted' : errorText(reason)).catch(() => {});
    if (stop !== undefined || interrupted) throw new SyncStopped(reason, position);
    throw err;
  } finally {
    await sink.close();
  }
}

function storedState(t: StoredTestTaker): TakerState {
  return { basis: t.basis, completed: completedOf(t.completed_tests), profileId: t.career_navigation_profile_id };
}

function completedOf(text: string): Set<number> {
  return new Set(text ? text.split(',').map(Number) : []);
}

/** The reference: the job-fit report needs Personality and Career Interests complete. */
function jobFitReady(completed: Set<number>): boolean {
  return completed.has(TEST_ID.personality) && completed.has(TEST_ID.interests);
}

function userRow(u: Json): Row {
  return {
    id: readId(u.id),
    first_name: str(u.first_name),
    last_name: str(u.last_name),
    email: str(u.email),
    default_team_id: refId(u.default_team),
    default_invitation_email_template_id: refId(u.default_invitation_email_template),
    default_congrats_email_template_id: refId(u.default_congrats_email_template),
    default_scheduling_link: str(u.default_scheduling_link),
    raw: JSON.stringify(withoutMode(u)),
  };
}

function withoutMode(o: Json): Json {
  const { mode: _mode, ...rest } = o;
  return rest;
}

function invitationRow(i: Json, listHash: string, basis: string): Row {
  const assessments = Array.isArray(i.invitation_assessments) ? i.invitation_assessments.map(refId).filter((x) => x !== null) : [];
  return {
    id: readId(i.id),
    created_at: str(i.created_at),
    accepted_at: str(i.accepted_at),
    first_name: str(i.first_name),
    last_name: str(i.last_name),
    email: str(i.email),
    phone: str(i.phone),
    send_via_email: bool(i.send_via_email),
    send_via_sms: bool(i.send_via_sms),
    custom_id: str(i.custom_id),
    person_id: str(i.person_id),
    ref_text: str(i.ref_text),
    team_id: refId(i.team),
    account_id: refId(i.account),
    invited_by_user_id: refId(i.invited_by_user),
    invitation_email_template_id: refId(i.invitation_email_template),
    congrats_email_template_id: refId(i.congrats_email_template),
    send_congrats_notification: bool(i.send_congrats_notification),
    target_score_profile: str(obj(i.target_score_profile).short_name),
    assessment_ids: assessments.join(','),
    assessment_url: str(i.assessment_url),
    scorecard_url: str(i.scorecard_url),
    job_fit_summary_url: str(i.job_fit_summary_url),
    career_options_spotlight_url: str(i.career_options_spotlight_url),
    career_navigation_url: str(i.career_navigation_url),
    test_taker_id: optId(i.test_taker_id),
    career_navigation_profile_id: str(i.career_navigation_profile_id),
    raw: JSON.stringify(withoutMode(i)),
    list_hash: listHash,
    basis,
  };
}

function testTakerRows(t: Json, teamId: number | null, listHash: string): { taker: Row; assessments: Row[] } {
  const takerId = readId(t.id);
  const assigned = (Array.isArray(t.assigned_assessments) ? t.assigned_assessments : []).map(obj);
  const assessments: Row[] = assigned
    .map((a, position) => ({
      id: readId(a.id),
      test_taker_id: takerId,
      position,
      assessment_id: refId(a.assessment),
      assessment_name: str(obj(a.assessment).display_name),
      assessment_short_name: str(obj(a.assessment).short_name),
      completed_at: str(a.completed_at),
      language: str(a.language),
    }));
  const completed = [...new Set(assessments.filter((a) => a.completed_at !== null).map((a) => Number(a.assessment_id)))].sort((a, b) => a - b);
  const state = assessments.map((a) => `${a.id}:${a.assessment_id}:${a.completed_at ?? ''}`).join(',');
  return {
    taker: {
      id: takerId,
      invitation_id: optId(t.invitation_id),
      team_id: teamId,
      person_id: str(t.person_id),
      custom_id: str(t.custom_id),
      phone: str(t.phone),
      scorecard_url: str(t.scorecard_url),
      job_fit_summary_url: str(t.job_fit_summary_url),
      career_navigation_url: str(t.career_navigation_url),
      career_navigation_profile_id: str(t.career_navigation_profile_id),
      completed_tests: completed.join(','),
      assessments_open: assessments.filter((a) => a.completed_at === null).length,
      raw: JSON.stringify(withoutMode(t)),
      list_hash: listHash,
      // What results depend on: the person's details (the list item) and what they completed.
      basis: `${listHash}.${hash(state)}`,
    },
    assessments,
  };
}

function scorecardRow(c: Json, takerId: number, sp: string, basis: string): Row {
  const row: Row = {
    test_taker_id: takerId,
    score_profile: sp,
    score_profile_id: refId(c.score_profile),
    invitation_id: optId(c.invitation_id),
    custom_id: str(c.custom_id),
    person_id: str(c.person_id),
    first_name: str(c.first_name),
    last_name: str(c.last_name),
    email: str(c.email),
    phone: str(c.phone),
    fitscore_raw: num(c.fitscore_raw),
    five_star_score: num(c.five_star_score),
    job_fit_percentage: num(c.job_fit_percentage),
    riasec_profile: str(c.riasec_profile),
  };
  for (const name of SCORE_NAMES) row[name] = null;
  // Short names a newer service adds stay in the raw JSON only.
  for (const e of scoreEntries(c)) {
    const col = scoreColumn(e.short_name);
    if (SCORE_NAMES.has(col)) row[col] = e.score;
  }
  row.raw = JSON.stringify(withoutMode(c));
  row.basis = basis;
  return row;
}

const SCORE_NAMES: ReadonlySet<string> = new Set(SCORE_COLUMNS);

function jobFitRows(r: Json, takerId: number, basis: string): { report: Row; occupations: Row[] } {
  const occupations = (Array.isArray(r.top_fit_occupations) ? r.top_fit_occupations : [])
    .map(obj)
    .filter((x) => num(x.rank) !== null)
    .map((x) => ({
      test_taker_id: takerId,
      rank: num(x.rank),
      job_family_number: str(x.job_family_number),
      job_family_name: str(x.job_family_name),
      job_family_job_zone: num(x.job_family_job_zone),
      job_fit_percentage: num(x.job_fit_percentage),
      job_fit_star_rating: num(x.job_fit_star_rating),
    }));
  return {
    report: { test_taker_id: takerId, invitation_id: optId(r.invitation_id), riasec_profile: str(r.riasec_profile), raw: JSON.stringify(withoutMode(r)), basis },
    occupations,
  };
}

function profileRow(p: Json, takerId: number): Row {
  return {
    id: str(p.id),
    test_taker_id: takerId,
    person_id: str(p.person_id),
    career_navigation_url: str(p.career_navigation_url),
    strengths_career_interests: str(obj(p.exercises).strengthsCareerInterests),
    target_job_name: str(obj(p.exercises).targetJobName),
    plan_job_name: str(obj(p.plan_job_1).jobName),
    plan_job_onet_code: str(obj(p.plan_job_1).onetCode),
    raw: JSON.stringify(withoutMode(p)),
  };
}
