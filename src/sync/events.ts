/**
 * `webhook listen --sync DB`: each event names a person whose state moved;
 * their rows are brought up to date within a second, the way a sync run
 * would do it (a batch of events is a small sync run over those invitations
 * only, recorded in sync_runs). What an event cannot say (edits, people
 * whose events were never delivered) is still the scheduled `jobfit sync`'s
 * job; both write the same rows.
 */
import { resolve } from 'node:path';
import type { SyncSession } from './run.js';
import { readId } from '../api/ids.js';
import { fileErrorCause } from '../core/files.js';
import { errorText } from '../export/error-sink.js';
import { type EventQueue, eventQueue, isBusy } from './event-queue.js';
import { isPostgresUrl, openSyncStore } from './open.js';
import { SyncLockedError } from './store.js';
import { syncOnce } from './run.js';

type Json = Record<string, unknown>;

export interface EventSync {
  /** Notes the person an event is about; applied shortly after, with whatever else arrived. */
  event(e: unknown): void;
  /**
   * Applies what is queued, then closes the database. Resolves with the
   * sentence of people neither synced nor kept on disk (the queue could not
   * be written: a full disk), for the listener's exit 1; undefined otherwise.
   */
  close(): Promise<string | undefined>;
}

const DEBOUNCE_MS = 300;
const BUSY_RETRY_MS = 5000;

/** An id as a number or a numeric string (src/api/ids.ts); anything else names nobody. */
const idOf = (v: unknown): number | undefined => {
  try {
    const id = readId(v);
    return id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
};

/** Which invitation (or, failing that, test taker) an event is about. */
export function personOf(e: unknown): { invitationId?: number; testTakerId?: number } {
  const o = ((e as { data?: { object?: unknown } } | null)?.data?.object ?? {}) as Json;
  if (o.object === 'invitation' && idOf(o.id)) return { invitationId: idOf(o.id) };
  if (idOf(o.invitation_id)) return { invitationId: idOf(o.invitation_id) };
  if (idOf(o.test_taker_id)) return { testTakerId: idOf(o.test_taker_id) };
  if (o.object === 'test_taker' && idOf(o.id)) return { testTakerId: idOf(o.id) };
  return {};
}

/**
 * Why the lock could not be taken, for the trace: a scheduled sync is running
 * (it may well cover these), or another process holds the database busy; the
 * batch is tried again after it. Anything else is also said as a warning.
 */
function lockTrouble(ctx: SyncSession, err: unknown, name: string, people: number): string {
  if (err instanceof SyncLockedError) return err.message;
  if (isBusy(err)) return `${name} is busy (another process is writing to it); ${people} people kept.`;
  ctx.warn(`could not lock ${name}: ${errorText(err)}; the people of the events are kept and tried again.`);
  return `could not lock ${name}: ${errorText(err)}.`;
}

/** One batch: the invitations (and the test takers' invitations) read and synced as a small sync run. */
async function syncPeople(ctx: SyncSession, client: Awaited<ReturnType<SyncSession['client']>>, db: Parameters<typeof syncOnce>[2], name: string, invIds: number[], takerIds: number[]): Promise<void> {
  for (const id of takerIds) {
    const t = (await client.getTestTaker(id, ctx.io.signal)) as Json;
    const inv = idOf(t.invitation_id);
    if (inv) invIds.push(inv);
  }
  const items: Json[] = [];
  for (const id of new Set(invIds)) items.push((await client.getInvitation(id, ctx.io.signal)) as Json);
  const r = await syncOnce(ctx, client, db, { full: false, concurrency: 4, items });
  ctx.info(
    `sync: ${items.length} ${items.length === 1 ? 'person' : 'people'} brought up to date in ${name} (${r.requests} requests, ${r.inserted} rows inserted, ${r.updated} updated${r.errors ? `, ${r.errors} failed: the next sync retries them` : ''}).`,
  );
}

/**
 * What a listener stopped by a signal (before syncing what was queued) says
 * of those people: kept on disk for the next listener, or (the queue could
 * not be written) the sentence of the exit 1.
 */
function stoppedWithQueued(ctx: SyncSession, queue: EventQueue | undefined, queued: number, unkept: Error | undefined, file: string): string | undefined {
  if (queued === 0) return undefined;
  const people = `${queued} ${queued === 1 ? 'person' : 'people'} from the last events`;
  if (queue && unkept) {
    return `${people} ${queued === 1 ? 'was' : 'were'} not synced and could not be kept in ${queue.path} (${fileErrorCause(unkept)}); \`jobfit sync --db ${file}\` brings them up to date.`;
  }
  ctx.info(`${people} not synced; ${queue ? `kept in ${queue.path}, the next \`webhook listen --sync\` on this database syncs them` : 'the next `jobfit sync` picks them up'}.`);
  return undefined;
}

export async function startEventSync(ctx: SyncSession, file: string): Promise<EventSync> {
  const target = isPostgresUrl(file) ? file : resolve(file);
  // Kept on disk until stored, across a busy database and a restart (event-queue.ts). Read first: a queue that cannot be read whole refuses the start, before anything is opened.
  const queue = eventQueue(isPostgresUrl(file) ? undefined : target);
  const { invitations, takers } = queue?.load() ?? { invitations: new Set<number>(), takers: new Set<number>() };
  // Opened now: a file that is not ours, or from a newer jobfit, is refused before listening starts.
  const db = await openSyncStore(target);
  const client = await ctx.client({ announce: false }).catch(async (err: unknown) => {
    await db.close();
    throw err;
  });
  const name = isPostgresUrl(file) ? db.label : file;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let queueSaid = false;
  /** The last save's error: what is queued now is not on disk. */
  let unkept: Error | undefined;

  const keep = () => {
    const err = queue?.save({ invitations, takers });
    unkept = err;
    if (err && !queueSaid) {
      queueSaid = true;
      ctx.warn(`could not keep the people of the events not yet synced in ${queue!.path} (${errorText(err)}); a restart would lose them.`);
    }
  };

  const schedule = (ms = DEBOUNCE_MS) => {
    if (closed) return;
    timer ??= setTimeout(() => {
      timer = undefined;
      // Never a rejection left unhandled: apply says what failed and keeps the people.
      chain = chain.then(apply).catch((err: unknown) => ctx.warn(`sync: ${errorText(err)}`));
    }, ms);
  };

  /** Puts a batch back (it was not stored) and tries again later. */
  const putBack = (invIds: number[], takerIds: number[], why: string) => {
    for (const id of invIds) invitations.add(id);
    for (const id of takerIds) takers.add(id);
    ctx.debug(`sync: ${why} Retrying in ${BUSY_RETRY_MS / 1000} s.`);
    schedule(BUSY_RETRY_MS);
  };

  async function apply(): Promise<void> {
    if (invitations.size === 0 && takers.size === 0) return;
    const invIds = [...invitations];
    const takerIds = [...takers];
    invitations.clear();
    takers.clear();
    try {
      await db.acquireLock(() => ctx.io.now());
    } catch (err: unknown) {
      return putBack(invIds, takerIds, lockTrouble(ctx, err, name, invIds.length + takerIds.length));
    }
    const people = invIds.length + takerIds.length;
    try {
      await syncPeople(ctx, client, db, name, [...invIds], takerIds);
    } catch (err) {
      const reason = (err as { reason?: unknown }).reason ?? err;
      if (isBusy(reason) && !ctx.io.signal.aborted) putBack(invIds, takerIds, `${name} became busy mid-batch; ${people} people kept.`);
      else ctx.warn(`could not sync ${people} ${people === 1 ? 'person' : 'people'} into ${name}: ${errorText(reason)}; the next \`jobfit sync\` picks them up.`);
    } finally {
      await db.releaseLock();
      keep();
    }
  }

  if (invitations.size + takers.size > 0) {
    ctx.info(`sync: ${invitations.size + takers.size} people from events an earlier listener answered are synced first.`);
    schedule();
  }

  return {
    event(e) {
      const p = personOf(e);
      if (p.invitationId) invitations.add(p.invitationId);
      else if (p.testTakerId) takers.add(p.testTakerId);
      else return;
      keep();
      schedule();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain.catch(() => {});
      // What arrived last is applied before the database closes, unless Ctrl-C cut the requests.
      const lost = ctx.io.signal.aborted ? stoppedWithQueued(ctx, queue, invitations.size + takers.size, unkept, file) : undefined;
      if (!ctx.io.signal.aborted) await apply().catch(() => {});
      await db.close();
      return lost;
    },
  };
}
