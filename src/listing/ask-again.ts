/**
 * The one rule for the reads of a long export (every id of a scorecard or
 * job-fit run, every page of a complete list): a GET that still fails for a
 * transient cause after the client's own retries (a 429, a dropped
 * connection, a 502/503/504) is asked again, a few more times with backoff,
 * so that a busy or flaky service does not leave holes in an export. A GET
 * changes nothing, so asking again is always safe.
 *
 * It never retries past the circuit breaker: ServiceGoneError (the service
 * failed every request over a window) is not transient here, and the client
 * throws it at once for every request once the breaker is open, so a run
 * against a service that is really gone still ends in seconds.
 */
import { NetworkError, ProtocolError, RateLimitError, ServerError, ServiceGoneError } from '../client/errors.js';
import { backoffDelay, classifyNetworkError } from '../client/retry.js';

/** Times a GET is asked again after the client gave it up. */
export const EXPORT_RETRIES = 4;
/** The export's own backoff: 1 s, 2 s, 4 s, 8 s (jittered), or the server's Retry-After (at most 10 s). */
const BACKOFF = { initialDelayMs: 1000, maxDelayMs: 8000 };
export const MAX_RETRY_AFTER_MS = 10_000;

/** A 429 whose Retry-After is longer than the export waits for in one go (10 s): the caller may park the id instead. */
export function isLongRetryAfter(err: unknown): boolean {
  return err instanceof RateLimitError && err.retryAfterSeconds !== undefined && err.retryAfterSeconds * 1000 > MAX_RETRY_AFTER_MS;
}

/** 429, 502/503/504, or a connection lost after the request went out. */
export function isTransient(err: unknown): boolean {
  if (err instanceof ServiceGoneError) return false;
  if (err instanceof RateLimitError) return true;
  if (err instanceof ServerError) return err.status === 502 || err.status === 503 || err.status === 504;
  if (err instanceof NetworkError) return classifyNetworkError(err.code) === 'dropped';
  return false;
}

/** A 2xx answer whose body was not JSON (an HTML page, half a JSON body): asked again like a 502 once the service has answered well. */
export function isGarbled(err: unknown): boolean {
  return err instanceof ProtocolError && err.garbled;
}

export interface AskAgainOptions {
  /** An error not to wait for here: thrown at once, for the caller to deal with (see isLongRetryAfter). */
  giveUp?: (err: unknown) => boolean;
  /** Another cause that is transient here (see isGarbled). */
  alsoTransient?: (err: unknown) => boolean;
  /** Ctrl-C: stop waiting and give up with the last error. */
  signal?: AbortSignal;
  /** The run is ending for another reason: stop waiting likewise. */
  wake?: AbortSignal;
  /** Called before each wait, with the error that caused it. */
  onRetry?: (err: unknown) => void;
  /** Injected in tests (resolves early when `signal` aborts). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Runs `get`, asking again up to EXPORT_RETRIES times while it fails for a transient cause. */
export async function askAgain<T>(get: () => Promise<T>, opts: AskAgainOptions = {}): Promise<T> {
  let stop: AbortSignal | undefined;
  for (let tries = 0; ; tries++) {
    try {
      return await get();
    } catch (err) {
      if (tries >= EXPORT_RETRIES || opts.giveUp?.(err) || !(isTransient(err) || opts.alsoTransient?.(err))) throw err;
      // Made only when needed: most GETs never fail.
      stop ??= AbortSignal.any([opts.signal, opts.wake].filter((s): s is AbortSignal => s !== undefined));
      if (stop.aborted) throw err;
      opts.onRetry?.(err);
      const hint = err instanceof RateLimitError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : undefined;
      const backoff = backoffDelay(tries, BACKOFF, opts.random ?? Math.random);
      await (opts.sleep ?? sleep)(hint !== undefined ? Math.min(MAX_RETRY_AFTER_MS, Math.max(hint, 100)) : backoff, stop);
      if (stop.aborted) throw err;
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
