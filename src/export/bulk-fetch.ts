/**
 * Many GETs (scorecards, job-fit reports) with bounded concurrency. Ids may
 * arrive while the fetch runs (from a complete list being discovered), results
 * leave in the order the ids came in, and one failed item never stops the rest:
 * it is reported (stderr, or `--errors FILE` as NDJSON) and counted, and the
 * caller turns "some failed" into exit 3.
 *
 * Transient failures: the client already retries 429, 5xx and dropped
 * connections with backoff; an id whose GET still fails for a transient cause
 * is asked again (ask-again.ts), and when that cause is a 429 the pool halves
 * its concurrency for a while instead of hammering on.
 */
import { setMaxListeners } from 'node:events';
import { askAgain, EXPORT_RETRIES, isLongRetryAfter, MAX_RETRY_AFTER_MS } from '../listing/ask-again.js';
import type { Session } from '../core/session.js';
import { JobfitError } from '../core/errors.js';
import type { IdFeed } from './id-feed.js';
import { limiter } from '../core/pool.js';

/**
 * The most ids fetched and not yet handed to onResult: a slow writer (or one
 * id held back by a long Retry-After, the rest waiting for its turn) stops
 * the pool there, so the outcomes held stay bounded whatever the run's size.
 */
const AHEAD = 1024;

/** What happened to one id. */
export type Outcome<R> =
  | { kind: 'ok'; value: R }
  /** Expected and not a failure (e.g. a job-fit report that is not ready yet). */
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; error: unknown };

export interface BulkOptions<I, R> {
  /** Requests in flight (default 16). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called for every result in the order the ids were fed. */
  onResult: (id: I, outcome: Outcome<R>) => void | Promise<void>;
  /** Turns an error into a skip (not a failure); return the reason, or undefined to fail. */
  skipWhen?: (error: unknown) => string | undefined;
  /** Called when an item finishes (for a progress bar). */
  onSettled?: (outcome: Outcome<R>) => void;
  /**
   * An error that ends the whole run (the service is gone): no more ids are
   * taken, the ids in flight get no outcome, and bulkFetch rejects with it
   * once every earlier outcome has been delivered.
   */
  stopWhen?: (error: unknown) => boolean;
  /**
   * Ids set aside on a long Retry-After (a 429 asking for more than 10 s):
   * called with how many wait now, and the longest Retry-After asked (s).
   */
  onWaiting?: (waiting: number, retryAfterSeconds: number) => void;
}

export interface BulkResult {
  ok: number;
  skipped: number;
  failed: number;
  /** Requests sent, ids asked again included (not the client's own retries). */
  requests: number;
}

function isRateLimit(err: unknown): boolean {
  return (err as { status?: number } | null)?.status === 429;
}

function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (err as { name?: string } | null)?.name === 'AbortError';
}

/**
 * What a fetch that failed after its retries means for the run:
 * - 'abort': Ctrl-C (or the request was aborted): the run ends at once;
 * - 'park': a long Retry-After on an id that may still be set aside;
 * - 'stopping': the run is already stopping for another error;
 * - 'stop': this error ends the run (stopWhen: the service is gone);
 * - otherwise the id's outcome: skipped (skipWhen gave a reason) or failed.
 */
export function sortFailure(
  err: unknown,
  o: { signal?: AbortSignal; mayPark: boolean; stopping: boolean; stopWhen?: (error: unknown) => boolean; skipWhen?: (error: unknown) => string | undefined },
): 'abort' | 'park' | 'stopping' | 'stop' | Outcome<never> {
  if (isAbort(err, o.signal)) return 'abort';
  if (o.mayPark && isLongRetryAfter(err) && !o.stopping) return 'park';
  if (o.stopping) return 'stopping';
  if (o.stopWhen?.(err)) return 'stop';
  const reason = o.skipWhen?.(err);
  if (reason !== undefined) return { kind: 'skipped', reason };
  return { kind: 'failed', error: err };
}

/** The pool's bound as a request finishes: after a 429's cool-down it doubles back up to `max`. */
export function recoveredLimit(limit: number, max: number, now: number, coolUntil: number): number {
  return limit < max && now > coolUntil ? Math.min(max, limit * 2) : limit;
}

/**
 * One bulk fetch: the pool, the results waiting for their turn, and what
 * stops the run. Its methods are the steps: take an id (launch), fetch it
 * with retries and parking (attempt, attemptOnce, park), count it (settle),
 * and hand the outcomes over in input order (emit).
 */
class BulkRun<I, R> {
  readonly max: number;
  /** One slot per request in flight, taken before the next id; a 429 halves the bound for a while. */
  readonly pool: ReturnType<typeof limiter>;
  coolUntil = 0;
  readonly result: BulkResult = { ok: 0, skipped: 0, failed: 0, requests: 0 };
  stop: { error: unknown } | undefined;
  /** Ids taken from the feed, and outcomes handed to onResult: equal at the end, or the run fails. */
  taken = 0;
  delivered = 0;
  /** Results wait here until every earlier id has one, so output follows input order. */
  private readonly pending = new Map<number, { id: I; outcome: Outcome<R> }>();
  private nextOut = 0;
  emitting: Promise<void> = Promise.resolve();
  emitError: unknown;
  /** Wakes the ids waiting to be asked again when the run stops for another reason. */
  readonly ending = new AbortController();
  /** Ids set aside on a long Retry-After, and the longest asked. */
  private waiting = 0;
  private longest = 0;
  /** An error that ends the run at once (Ctrl-C): passed on without waiting for the ids in flight. */
  fatal = false;
  private inFlight = 0;
  private allSettled: (() => void) | undefined;
  /** Wakes launch() waiting for the outcomes handed over to catch up (see AHEAD). */
  private room: (() => void) | undefined;

  constructor(
    readonly feed: IdFeed<I>,
    private readonly fetchOne: (id: I, signal?: AbortSignal) => Promise<R>,
    readonly opts: BulkOptions<I, R>,
    private readonly fail: (err: unknown) => void,
  ) {
    this.max = Math.max(1, opts.concurrency ?? 16);
    this.pool = limiter(this.max);
    setMaxListeners(Math.max(64, this.max * 4), this.ending.signal);
  }

  private emitQueued = false;
  /** Hands over every outcome whose turn has come, one at a time, one loop at a time (a .then per outcome held a promise per person, issue 47). */
  emit(): void {
    if (this.emitQueued) return;
    this.emitQueued = true;
    this.emitting = this.emitting.then(async () => {
      while (this.pending.has(this.nextOut)) {
        const { id, outcome } = this.pending.get(this.nextOut)!;
        this.pending.delete(this.nextOut);
        this.nextOut++;
        if (this.emitError !== undefined) continue;
        this.delivered++;
        try {
          await this.opts.onResult(id, outcome);
        } catch (err) {
          this.emitError = err;
        }
        this.wakeLaunch();
      }
      this.emitQueued = false; // in the turn of the loop's last look: an outcome set after it queues a new loop
    });
  }

  /** Lets launch() take ids again (an outcome handed over, or the run stopping). */
  wakeLaunch(): void {
    const room = this.room;
    this.room = undefined;
    room?.();
  }

  /**
   * Waits while AHEAD outcomes are fetched and not handed over yet: a writer
   * that waits for its output to drain (onResult's promise) holds the fetches
   * back, instead of their results piling up in memory (issue 47).
   */
  private async roomAhead(): Promise<void> {
    while (this.taken - this.delivered >= AHEAD && this.emitError === undefined && !this.stop && !this.fatal) {
      await new Promise<void>((resolve) => (this.room = resolve));
    }
  }

  /**
   * A long Retry-After on one id does not hold its slot: the id is set aside
   * (parked) for at most 10 s while the others go on, then asked again, up to
   * EXPORT_RETRIES times; the pool is not slowed down for it.
   */
  async park(err: unknown, slot: Slot): Promise<void> {
    const ra = (err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 0;
    this.longest = Math.max(this.longest, ra);
    slot.release();
    this.waiting++;
    this.opts.onWaiting?.(this.waiting, this.longest);
    try {
      await sleepUnless(Math.min(MAX_RETRY_AFTER_MS, ra * 1000), this.ending.signal, this.opts.signal);
    } finally {
      this.waiting--;
      this.opts.onWaiting?.(this.waiting, this.longest);
    }
    slot.release = await this.pool.acquire();
  }

  /** The outcome of one id, parking it on a long Retry-After as often as allowed. */
  async attempt(id: I, slot: Slot): Promise<Outcome<R>> {
    for (let parked = 0; ; parked++) {
      try {
        return await this.attemptOnce(id, parked < EXPORT_RETRIES);
      } catch (err) {
        if (!(err instanceof Parked)) throw err;
        if (this.opts.signal?.aborted) throw this.opts.signal.reason ?? err.error;
        if (this.stop) throw new Stop(this.stop.error);
        await this.park(err.error, slot);
      }
    }
  }

  /** One fetch of an id, asked again on transient failures; its error sorted into skip, failure, park or stop. */
  async attemptOnce(id: I, mayPark: boolean): Promise<Outcome<R>> {
    const opts = this.opts;
    try {
      const value = await askAgain(
        () => {
          this.result.requests++;
          return this.fetchOne(id, opts.signal);
        },
        {
          signal: opts.signal,
          wake: this.ending.signal,
          giveUp: (err) => mayPark && isLongRetryAfter(err),
          onRetry: (err) => {
            // The client's own waits ran out on a 429: slow the whole pool down too.
            if (isRateLimit(err)) {
              this.pool.limit = Math.floor(this.pool.limit / 2);
              this.coolUntil = Date.now() + 5000;
            }
          },
        },
      );
      return { kind: 'ok', value };
    } catch (err) {
      return this.sortError(err, mayPark);
    }
  }

  /** Acts on what a failed fetch means (sortFailure): throws to abort, park or stop; else the outcome. */
  private sortError(err: unknown, mayPark: boolean): Outcome<R> {
    const sorted = sortFailure(err, { signal: this.opts.signal, mayPark, stopping: this.stop !== undefined, stopWhen: this.opts.stopWhen, skipWhen: this.opts.skipWhen });
    switch (sorted) {
      case 'abort':
        throw err;
      case 'park':
        throw new Parked(err);
      case 'stopping':
        throw new Stop(this.stop!.error);
      case 'stop':
        this.ending.abort();
        throw new Stop(err);
      default:
        return sorted;
    }
  }

  /** Fetches one id and counts its outcome, which then waits for its turn. */
  async settle(next: { id: I; index: number }, slot: Slot): Promise<void> {
    let outcome: Outcome<R>;
    try {
      outcome = await this.attempt(next.id, slot);
    } catch (err) {
      if (!(err instanceof Stop)) throw err;
      this.stop ??= { error: err.error };
      this.wakeLaunch();
      return;
    }
    if (outcome.kind === 'ok') this.result.ok++;
    else if (outcome.kind === 'skipped') this.result.skipped++;
    else this.result.failed++;
    this.opts.onSettled?.(outcome);
    this.pending.set(next.index, { id: next.id, outcome });
    this.emit();
  }

  /** Takes ids from the feed as slots free up, until it is drained or the run stops; then waits for those in flight. */
  async launch(): Promise<void> {
    for (;;) {
      await this.roomAhead();
      if (this.emitError !== undefined || this.stop || this.fatal) break;
      const release = await this.pool.acquire();
      if (this.stop || this.fatal) {
        release();
        break;
      }
      const next = await this.feed.next();
      if (!next) {
        release();
        break;
      }
      this.taken++;
      if (this.stop) {
        release();
        break;
      }
      if (this.opts.signal?.aborted) {
        release();
        throw this.opts.signal.reason ?? new Error('aborted');
      }
      this.start(next, { release });
    }
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.allSettled = resolve));
  }

  /** Runs one id in its slot, without waiting for it. */
  private start(next: { id: I; index: number }, slot: Slot): void {
    this.inFlight++;
    const done = () => {
      const limit = recoveredLimit(this.pool.limit, this.max, Date.now(), this.coolUntil);
      if (limit !== this.pool.limit) this.pool.limit = limit;
      slot.release();
      if (--this.inFlight === 0) this.allSettled?.();
    };
    this.settle(next, slot).then(done, (err: unknown) => {
      this.fatal = true;
      this.fail(err);
      this.wakeLaunch();
      done();
    });
  }
}

export async function bulkFetch<I, R>(
  feed: IdFeed<I>,
  fetchOne: (id: I, signal?: AbortSignal) => Promise<R>,
  opts: BulkOptions<I, R>,
): Promise<BulkResult> {
  // Every request in flight listens to Ctrl-C on the same signal.
  if (opts.signal) setMaxListeners(Math.max(64, Math.max(1, opts.concurrency ?? 16) * 4), opts.signal);
  let fail!: (err: unknown) => void;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const run = new BulkRun(feed, fetchOne, opts, (err) => fail(err));
  await Promise.race([run.launch(), failed]);
  await run.emitting;
  if (run.emitError !== undefined) throw run.emitError;
  if (run.stop) throw run.stop.error;
  // By construction every id taken gets one outcome, in order; say so loudly if not.
  if (run.delivered !== run.taken || run.taken !== feed.count) {
    throw new JobfitError(`${feed.count - run.delivered} of ${feed.count} ids got no outcome; the export is incomplete (a bug: please report it).`);
  }
  return run.result;
}

/** The pool slot an id holds; replaced when a parked id takes a slot again. */
interface Slot {
  release: () => void;
}

/** An id to set aside on a long Retry-After, out of attemptOnce(). */
class Parked {
  constructor(readonly error: unknown) {}
}

/** Waits `ms`, or less when either signal aborts. */
function sleepUnless(ms: number, ...signals: Array<AbortSignal | undefined>): Promise<void> {
  return new Promise((resolve) => {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    const done = () => {
      clearTimeout(timer);
      for (const s of live) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of live) {
      if (s.aborted) return done();
      s.addEventListener('abort', done, { once: true });
    }
  });
}

/** Carries an error that ends the run out of attempt(). */
class Stop {
  constructor(readonly error: unknown) {}
}

/**
 * Says what is waiting on a long Retry-After (bulkFetch's onWaiting): a line
 * when ids are first set aside, then at most one every 10 s while some wait.
 */
export function waitingNotice(ctx: Session, noun: string): (waiting: number, retryAfterSeconds: number) => void {
  let last = 0;
  return (waiting, ra) => {
    const now = Date.now();
    if (waiting === 0 || now - last < 10_000) return;
    last = now;
    ctx.info(
      `${waiting} ${noun}${waiting === 1 ? ' waits' : 's wait'} on the service's Retry-After (it asked for up to ${Math.round(ra)} s): each is asked again within ${MAX_RETRY_AFTER_MS / 1000} s, up to ${EXPORT_RETRIES} times, while the others go on.`,
    );
  };
}
