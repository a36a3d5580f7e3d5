/**
 * The circuit breaker every long run shares through the client: when every
 * request over a window failed to reach the service or got a 5xx answer (and
 * there were at least a few of them), the service is taken as gone. From then
 * on every request, those waiting to retry included, fails at once with
 * ServiceGoneError, so a run of thousands of ids ends in seconds with one
 * sentence instead of retrying each id for half a minute.
 *
 * Any other answer (2xx, 4xx, 429: the service is there, even if busy) closes
 * the window. Pure apart from the injected clock; unit-tested without a server.
 */

export interface BreakerOptions {
  /** How long every request must have failed (default 15 s). */
  windowMs: number;
  /** How many failed attempts at least (default 4). */
  minFailures: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { windowMs: 15_000, minFailures: 4 };

import { setMaxListeners } from 'node:events';

export class Breaker {
  private firstFailureAt: number | undefined;
  private failures = 0;
  private readonly controller = new AbortController();
  /** Why it opened: the last failure's cause and how long failures lasted. */
  trippedBy?: { cause: string; seconds: number; failures: number };

  constructor(
    readonly opts: BreakerOptions = DEFAULT_BREAKER,
    private readonly now: () => number = Date.now,
  ) {
    // Every request waiting to retry listens on it: many at once is normal, not a leak.
    setMaxListeners(0, this.controller.signal);
  }

  /** Aborted when the breaker opens: wakes requests waiting to retry. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isOpen(): boolean {
    return this.trippedBy !== undefined;
  }

  /** An answer that shows the service is there. */
  success(): void {
    if (this.isOpen) return;
    this.firstFailureAt = undefined;
    this.failures = 0;
  }

  /** No answer, or a 5xx. Returns true when this failure opened the breaker. */
  failure(cause: string): boolean {
    if (this.isOpen) return false;
    const t = this.now();
    this.firstFailureAt ??= t;
    this.failures++;
    const elapsed = t - this.firstFailureAt;
    if (elapsed >= this.opts.windowMs && this.failures >= this.opts.minFailures) {
      this.trippedBy = { cause, seconds: Math.round(elapsed / 1000), failures: this.failures };
      this.controller.abort();
      return true;
    }
    return false;
  }
}

/** `JOBFIT_BREAKER_SECONDS` (0 turns the breaker off); undefined for the default. */
export function breakerFromEnv(env: Record<string, string | undefined>): BreakerOptions | undefined {
  const v = env.JOBFIT_BREAKER_SECONDS;
  if (v === undefined || v.trim() === '') return undefined;
  const s = Number(v);
  if (!Number.isFinite(s) || s < 0) return undefined;
  return { ...DEFAULT_BREAKER, windowMs: s === 0 ? Number.POSITIVE_INFINITY : s * 1000 };
}
