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
import { createWriteStream, type WriteStream } from 'node:fs';
import { createPrivateOutput, fileErrorCause } from '../core/files.js';
import { safeText } from '../format/sanitize.js';
import { askAgain } from './ask-again.js';
import type { Session } from '../core/session.js';
import { JobfitError, PartialFailureError, UsageError } from '../core/errors.js';
import { limiter } from '../core/pool.js';

/** A queue of ids that can be filled while it is being drained. */
export class IdFeed<I> {
  private readonly items: I[] = [];
  private closed = false;
  private waiters: Array<() => void> = [];
  private head = 0;
  /** Ids consumed and dropped from the front of `items`. */
  private offset = 0;
  /** Ids pushed so far. */
  count = 0;

  push(id: I): void {
    if (this.closed) throw new Error('feed closed');
    this.items.push(id);
    this.count++;
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /**
   * The next id with its position (0, 1, 2, ... in the order pushed), or
   * undefined once closed and drained. The position is taken before the
   * consumed prefix is dropped, so it never depends on that housekeeping.
   */
  async next(): Promise<{ id: I; index: number } | undefined> {
    for (;;) {
      if (this.head < this.items.length) {
        const index = this.offset + this.head;
        const id = this.items[this.head++];
        // Let the consumed prefix be collected on very long runs.
        if (this.head > 4096 && this.head * 2 > this.items.length) {
          this.items.splice(0, this.head);
          this.offset += this.head;
          this.head = 0;
        }
        return { id, index };
      }
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  static of<I>(ids: Iterable<I>): IdFeed<I> {
    const f = new IdFeed<I>();
    for (const id of ids) f.push(id);
    f.close();
    return f;
  }
}

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

export async function bulkFetch<I, R>(
  feed: IdFeed<I>,
  fetchOne: (id: I, signal?: AbortSignal) => Promise<R>,
  opts: BulkOptions<I, R>,
): Promise<BulkResult> {
  const max = Math.max(1, opts.concurrency ?? 16);
  // Every request in flight listens to Ctrl-C on the same signal.
  if (opts.signal) setMaxListeners(Math.max(64, max * 4), opts.signal);
  // One slot per request in flight, taken before the next id: the feed is read
  // no faster than its ids are fetched. A 429 halves the bound for a while.
  const pool = limiter(max);
  let coolUntil = 0;
  const result: BulkResult = { ok: 0, skipped: 0, failed: 0, requests: 0 };
  let stop: { error: unknown } | undefined;
  /** Ids taken from the feed, and outcomes handed to onResult: equal at the end, or the run fails. */
  let taken = 0;
  let delivered = 0;
  // Results wait here until every earlier id has one, so output follows input order.
  const pending = new Map<number, { id: I; outcome: Outcome<R> }>();
  let nextOut = 0;
  let emitting: Promise<void> = Promise.resolve();
  let emitError: unknown;

  const emit = () => {
    emitting = emitting.then(async () => {
      while (pending.has(nextOut)) {
        const { id, outcome } = pending.get(nextOut)!;
        pending.delete(nextOut);
        nextOut++;
        if (emitError !== undefined) continue;
        delivered++;
        try {
          await opts.onResult(id, outcome);
        } catch (err) {
          emitError = err;
        }
      }
    });
  };

  // Wakes the ids waiting to be asked again when the run stops for another reason.
  const ending = new AbortController();
  setMaxListeners(Math.max(64, max * 4), ending.signal);
  const attempt = async (id: I): Promise<Outcome<R>> => {
    try {
      const value = await askAgain(
        () => {
          result.requests++;
          return fetchOne(id, opts.signal);
        },
        {
          signal: opts.signal,
          wake: ending.signal,
          onRetry: (err) => {
            // The client's own waits ran out on a 429: slow the whole pool down too.
            if (isRateLimit(err)) {
              pool.limit = Math.floor(pool.limit / 2);
              coolUntil = Date.now() + 5000;
            }
          },
        },
      );
      return { kind: 'ok', value };
    } catch (err) {
      if (isAbort(err, opts.signal)) throw err;
      if (stop) throw new Stop(stop.error);
      if (opts.stopWhen?.(err)) {
        ending.abort();
        throw new Stop(err);
      }
      const reason = opts.skipWhen?.(err);
      if (reason !== undefined) return { kind: 'skipped', reason };
      return { kind: 'failed', error: err };
    }
  };

  // An error that ends the run at once (Ctrl-C): passed on without waiting for the ids in flight.
  let fatal = false;
  let fail!: (err: unknown) => void;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  let inFlight = 0;
  let allSettled: (() => void) | undefined;
  const settle = async (next: { id: I; index: number }): Promise<void> => {
    let outcome: Outcome<R>;
    try {
      outcome = await attempt(next.id);
    } catch (err) {
      if (!(err instanceof Stop)) throw err;
      stop ??= { error: err.error };
      return;
    }
    if (outcome.kind === 'ok') result.ok++;
    else if (outcome.kind === 'skipped') result.skipped++;
    else result.failed++;
    opts.onSettled?.(outcome);
    pending.set(next.index, { id: next.id, outcome });
    emit();
  };
  const launch = async () => {
    for (;;) {
      if (emitError !== undefined || stop || fatal) break;
      const release = await pool.acquire();
      if (stop || fatal) {
        release();
        break;
      }
      const next = await feed.next();
      if (!next) {
        release();
        break;
      }
      taken++;
      if (stop) {
        release();
        break;
      }
      if (opts.signal?.aborted) {
        release();
        throw opts.signal.reason ?? new Error('aborted');
      }
      inFlight++;
      const done = () => {
        // After a 429's cool-down, the pool recovers its concurrency as requests finish.
        if (pool.limit < max && Date.now() > coolUntil) pool.limit = Math.min(max, pool.limit * 2);
        release();
        if (--inFlight === 0) allSettled?.();
      };
      settle(next).then(done, (err: unknown) => {
        fatal = true;
        fail(err);
        done();
      });
    }
    if (inFlight > 0) await new Promise<void>((resolve) => (allSettled = resolve));
  };
  await Promise.race([launch(), failed]);
  await emitting;
  if (emitError !== undefined) throw emitError;
  if (stop) throw stop.error;
  // By construction every id taken gets one outcome, in order; say so loudly if not.
  if (delivered !== taken || taken !== feed.count) {
    throw new JobfitError(`${feed.count - delivered} of ${feed.count} ids got no outcome; the export is incomplete (a bug: please report it).`);
  }
  return result;
}

/** Carries an error that ends the run out of attempt(). */
class Stop {
  constructor(readonly error: unknown) {}
}

/** The one-line text of an error for a report. */
export function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'apiText' in err && typeof (err as { apiText: unknown }).apiText === 'string') {
    const e = err as { apiText: string; status?: number };
    return e.status ? `${e.apiText} (HTTP ${e.status})` : e.apiText;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Where per-item failures go: stderr lines, or NDJSON records in a file
 * (`{"id":…,"status":"failed"|"skipped","error":"…","http_status":…}`).
 */
export interface ErrorSink {
  failed(id: unknown, err: unknown): void;
  skipped(id: unknown, reason: string): void;
  /**
   * Flushes what was held. `stopped`: the run ended early (the service gone,
   * Ctrl-C); the per-id lines, mostly the same unreachable service, give way
   * to one line with their count.
   */
  close(opts?: { stopped?: boolean }): Promise<void>;
  /** The run was refused before it began: no --errors file is left behind. */
  discard(): void;
}

export function createErrorSink(ctx: Session, file?: string, what = 'item'): ErrorSink {
  let stream: WriteStream | undefined;
  let failures = 0;
  let first = '';
  const STDERR_MAX = 20;
  // Lines wait until close(): a progress bar redrawing its line would tear
  // them apart, and a run that stops because the service is gone says so once
  // instead of once per id.
  const held: string[] = [];
  // The file is written the one way every file for a person is (core/files.ts:
  // owner-only, never a link, a special or another user's file; in place at close).
  const output = file === undefined ? undefined : createPrivateOutput(file, '--errors');
  let writeError: Error | undefined;
  if (output) {
    stream = createWriteStream('', { fd: output.fd, autoClose: false });
    stream.on('error', (err) => {
      writeError ??= err;
    });
  }
  const record = (id: unknown, status: 'failed' | 'skipped', text: string, httpStatus?: number) => {
    if (stream) {
      stream.write(`${JSON.stringify({ id, status, error: text, ...(httpStatus ? { http_status: httpStatus } : {}) })}\n`);
      return;
    }
    if (status === 'skipped') return;
    if (failures === 0) first = `${what} ${id}: ${text}`;
    // A long list of the same failure helps nobody; the summary gives the count.
    if (failures++ < STDERR_MAX) held.push(`Error: ${what} ${id}: ${text}\n`);
    else if (failures === STDERR_MAX + 1) held.push(`(further errors not shown; use --errors FILE for all of them)\n`);
  };
  return {
    failed(id, err) {
      record(id, 'failed', errorText(err), (err as { status?: number } | null)?.status);
    },
    skipped(id, reason) {
      record(id, 'skipped', reason);
    },
    close(opts = {}) {
      // Error lines quote the service's messages: a stranger's text, sanitised.
      if (opts.stopped && failures > 0) ctx.io.stderr.write(safeText(`${failures} ${what}${failures === 1 ? '' : 's'} failed before the run stopped (the first: ${first.replace(/\.$/, '')}).\n`));
      else for (const line of held) ctx.io.stderr.write(safeText(line));
      held.length = 0;
      if (!stream || !output) return Promise.resolve();
      const s = stream;
      const out = output;
      return new Promise<void>((resolve) => {
        if (s.destroyed) return resolve();
        s.once('error', () => resolve());
        s.end(() => resolve());
      }).then(() => {
        stream = undefined;
        // A failed write is never passed off as "the failures are listed in FILE".
        if (writeError) {
          out.discard();
          throw new JobfitError(`Could not write --errors ${file}: ${fileErrorCause(writeError)}; the failures were not saved there.`, { cause: writeError });
        }
        try {
          out.commit();
        } catch (err) {
          out.discard();
          throw new JobfitError(`Could not write --errors ${file}: ${fileErrorCause(err)}; the failures were not saved there.`, { cause: err });
        }
      });
    },
    discard() {
      stream?.destroy();
      stream = undefined;
      output?.discard();
    },
  };
}

/** Exit 3 when some items failed, with one sentence saying how many. */
export function throwIfFailed(r: BulkResult, noun: string, errorsFile?: string): void {
  if (r.failed === 0) return;
  const total = r.ok + r.skipped + r.failed;
  throw new PartialFailureError(
    `${r.failed} of ${total} ${noun} could not be fetched; the others were written.`,
    errorsFile ? `the failures are listed in ${errorsFile}` : 'run again with --errors FILE to keep the list of failures',
  );
}

/** Reads ids, one per line (blank lines and # comments ignored), from text. */
export function parseIdLines(text: string, what = 'ID'): number[] {
  const ids: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (!/^\d+$/.test(line)) throw new UsageError(`Line ${i + 1} of the id list is not a ${what}: "${line.slice(0, 40)}".`);
    ids.push(Number(line));
  });
  return ids;
}
