/**
 * The bulk row retry as a pure decision, like the client's own (client/retry.ts
 * decideRetry): what to do after one row's send failed depends only on what
 * failed, the attempt and an injected random number, so it is unit-tested
 * without a server or a clock. send.ts carries the decision out (looks up,
 * waits, slows down).
 *
 * The client has already retried each request on its own terms; this is the
 * row's second line: a 429 that outlasted the client halves the run's
 * concurrency and waits, a lost POST is looked up before any new send, and
 * what certainly did nothing (5xx, no connection) is tried again, until the
 * attempts run out or the client's breaker says the service is gone.
 */
import { isDuplicateMessage } from '../api/messages.js';
import { ApiError, AuthenticationError, BadRequestError, NetworkError, RateLimitError, ServerError, ServiceGoneError, UnknownOutcomeError } from '../client/errors.js';
import { AuthError, CancelError } from '../core/errors.js';

/** Sends of one row, the first included. */
export const ROW_ATTEMPTS = 6;
/** The longest wait on a 429's Retry-After. */
export const MAX_ROW_WAIT_MS = 30_000;

/** What went wrong with one row's send, as the row retry sees it; `text` is the error for the results file. */
export type RowFailure = { text: string } & (
  /** The service is gone (breaker), the key is refused, or the run was cancelled: the run stops. */
  | { kind: 'stop' }
  /** 400: the service refused the row (a duplicate is looked up to tell this row's own from someone else's). */
  | { kind: 'refused' }
  /** 429 after the client's own retries. */
  | { kind: 'rate-limited'; retryAfterSeconds?: number }
  /** A POST lost after it may have been done (the client looked up and resent once). */
  | { kind: 'unknown-outcome' }
  /** 5xx or no connection: nothing was done. */
  | { kind: 'transient' }
  /** Anything else: the row failed. */
  | { kind: 'other' }
);

export type RowRetryDecision =
  | { action: 'stop' }
  | { action: 'fail'; error: string }
  /** A 400 saying the email is already invited: look the invitation up and decide whose it is. */
  | { action: 'look-up-duplicate'; message: string }
  /**
   * Wait `delayMs` (after halving the concurrency when `slowDown`, after
   * looking the email up when `lookUpFirst`: a found own invitation ends the
   * row as created); when `last`, the row then fails (transient) instead of
   * being sent again.
   */
  | { action: 'wait'; delayMs: number; slowDown: boolean; lookUpFirst: boolean; last: boolean };

/** The error's message for the results file: the API's own words when it answered. */
function rowErrorText(err: unknown): string {
  if (err instanceof ApiError) return err.apiText;
  return err instanceof Error ? err.message : String(err);
}

/** Sorts a send's error into what the row retry distinguishes (by class; a bare HTTP status counts too). */
export function classifyRowError(err: unknown): RowFailure {
  const text = rowErrorText(err);
  const raw = err && typeof err === 'object' ? (err as { status?: unknown }).status : undefined;
  const status = typeof raw === 'number' ? raw : undefined;
  if (err instanceof ServiceGoneError) return { kind: 'stop', text };
  if (err instanceof BadRequestError || status === 400) return { kind: 'refused', text };
  if (err instanceof AuthenticationError || err instanceof AuthError || err instanceof CancelError) return { kind: 'stop', text };
  if (err instanceof RateLimitError) return { kind: 'rate-limited', retryAfterSeconds: err.retryAfterSeconds, text };
  if (status === 429) return { kind: 'rate-limited', text };
  // Before NetworkError: a lost POST is one.
  if (err instanceof UnknownOutcomeError) return { kind: 'unknown-outcome', text };
  if (err instanceof ServerError || err instanceof NetworkError || (status !== undefined && status >= 500)) return { kind: 'transient', text };
  return { kind: 'other', text };
}

/**
 * Decides what follows a failed send of a row; `attempt` counts from 0 (the
 * first send). A 429 waits for its Retry-After (1 s without one, at most
 * MAX_ROW_WAIT_MS, plus up to 250 ms of jitter) and halves the concurrency;
 * a lost POST and a transient failure back off 200 ms × 2^attempt.
 */
export function decideRowRetry(f: RowFailure, attempt: number, random: () => number): RowRetryDecision {
  const last = attempt + 1 >= ROW_ATTEMPTS;
  switch (f.kind) {
    case 'stop':
      return { action: 'stop' };
    case 'refused':
      return isDuplicateMessage(f.text) ? { action: 'look-up-duplicate', message: f.text } : { action: 'fail', error: f.text };
    case 'other':
      return { action: 'fail', error: f.text };
    case 'rate-limited':
      return { action: 'wait', delayMs: Math.min(MAX_ROW_WAIT_MS, (f.retryAfterSeconds ?? 1) * 1000) + random() * 250, slowDown: true, lookUpFirst: false, last };
    case 'unknown-outcome':
      return { action: 'wait', delayMs: 200 * 2 ** attempt, slowDown: false, lookUpFirst: true, last };
    case 'transient':
      return { action: 'wait', delayMs: 200 * 2 ** attempt, slowDown: false, lookUpFirst: false, last };
  }
}

/**
 * The run's pace: how many rows may be in flight. Halved on a 429 that
 * outlasted the client's own retries (and the row retry says slowDown), it
 * creeps back up by one slot per `limit` rows created. No I/O: the pool of
 * run.ts reads `limit` at every slot it grants.
 */
export class Pace {
  limit: number;
  private successes = 0;
  constructor(readonly max: number) {
    this.limit = max;
  }
  /** Halve on a 429 that outlasted the client's own retries. */
  slowDown(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
  }
  /** Creep back up: one more slot per `limit` successes. */
  ok(): void {
    if (this.limit >= this.max) return;
    if (++this.successes >= this.limit) {
      this.limit++;
      this.successes = 0;
    }
  }
}
