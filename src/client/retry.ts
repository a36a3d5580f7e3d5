/**
 * The retry policy as pure functions (after stripe-node's RequestSender):
 * the decision depends only on its input, and the delay only on the attempt,
 * the server's hint and an injected random number, so both are unit-tested
 * without a server or a clock.
 */

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay; also the floor of every delay. */
  initialDelayMs: number;
  /** Cap of the exponential backoff. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
  /**
   * 429s with a Retry-After the server gave (and short enough to wait) are
   * waited out this many times per request without using up maxRetries: the
   * service is there and said when to come back, so a busy service does not
   * leave a request fewer chances against dropped connections.
   */
  maxRateLimitWaits: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  maxRateLimitWaits: 6,
};

/** Error codes for which nothing reached the server: any method may be re-sent. */
// JOBFIT_PROXY_CLOSED: the proxy closed the CONNECT before the tunnel was open (undici-agents.ts).
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'JOBFIT_PROXY_CLOSED']);
/** Connection lost or stalled after the request may have been sent. */
const DROPPED_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  // The client's own deadline for a whole answer (a body that trickles).
  'JOBFIT_TOTAL_TIMEOUT',
]);

export type FailureKind = 'not-sent' | 'dropped' | 'other';

export function classifyNetworkError(code: string | undefined): FailureKind {
  if (!code) return 'other';
  if (NOT_SENT_CODES.has(code)) return 'not-sent';
  if (DROPPED_CODES.has(code)) return 'dropped';
  return 'other';
}

export interface AttemptOutcome {
  method: string;
  /** Path relative to the base URL, without the query. */
  path: string;
  /** Retries already made that count against maxRetries (0 after the first attempt). */
  retries: number;
  /** 429s already waited out on the server's Retry-After, outside maxRetries (default 0). */
  rateLimitWaits?: number;
  /** Set when an HTTP answer arrived. */
  status?: number;
  /** The Retry-After header, when there was one. */
  retryAfter?: string;
  /** Set when no HTTP answer arrived. */
  errorCode?: string;
  /** Date.now() at decision time, for an HTTP-date Retry-After. */
  nowMs: number;
}

export type RetryDecision =
  /** `waited`: a 429 waited out on the server's word, not counted against maxRetries. */
  | { retry: true; delayMs: number; reason: string; waited?: boolean }
  | { retry: false; reason: string; unknownOutcome?: boolean };

/** Writes that are not safe to repeat: the outcome of a lost one must be looked up. */
export function isNonIdempotent(method: string): boolean {
  const m = method.toUpperCase();
  return m === 'POST' || m === 'PATCH';
}

/** Seconds (`120`) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - nowMs);
}

/**
 * Exponential backoff: initial × 2^retries, capped, then jittered into
 * [50%, 100%] of that and never below the floor (initial delay), so a burst
 * of clients spreads out but none hammers the server.
 */
export function backoffDelay(retries: number, opts: Pick<RetryOptions, 'initialDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const exp = Math.min(opts.initialDelayMs * 2 ** Math.max(0, retries), opts.maxDelayMs);
  const jittered = exp * (0.5 + 0.5 * random());
  return Math.round(Math.max(opts.initialDelayMs, jittered));
}

/**
 * Decides whether to send again. GET and PUT are repeated after 429, 5xx and
 * dropped connections. POST/PATCH are repeated only when the server certainly
 * did nothing (429, 503, or the connection never opened); a lost POST returns
 * `unknownOutcome` for the caller to resolve. A 429 with a Retry-After is
 * waited out up to maxRateLimitWaits times before it uses up maxRetries.
 */
export function decideRetry(o: AttemptOutcome, opts: RetryOptions, random: () => number): RetryDecision {
  const unsafe = isNonIdempotent(o.method);
  let reason: string;
  let serverDelay: number | undefined;

  if (o.status !== undefined) {
    if (o.status === 429) {
      reason = '429';
      serverDelay = parseRetryAfter(o.retryAfter, o.nowMs);
    } else if (o.status >= 500) {
      reason = String(o.status);
      if (o.status === 503) serverDelay = parseRetryAfter(o.retryAfter, o.nowMs);
      // 500/502/504 may come after the write happened.
      if (unsafe && o.status !== 503) return { retry: false, reason, unknownOutcome: true };
    } else {
      return { retry: false, reason: String(o.status) };
    }
  } else {
    const kind = classifyNetworkError(o.errorCode);
    reason = o.errorCode ?? 'network error';
    if (kind === 'other') return { retry: false, reason };
    if (kind === 'dropped' && unsafe) return { retry: false, reason, unknownOutcome: true };
  }

  const waits = o.rateLimitWaits ?? 0;
  if (o.status === 429 && serverDelay !== undefined && serverDelay <= opts.maxRetryAfterMs && waits < opts.maxRateLimitWaits) {
    return { retry: true, delayMs: Math.max(serverDelay, backoffDelay(waits, opts, random)), reason: '429, Retry-After', waited: true };
  }
  if (o.retries >= opts.maxRetries) return { retry: false, reason: `${reason}, retries exhausted` };
  if (serverDelay !== undefined && serverDelay > opts.maxRetryAfterMs) {
    return { retry: false, reason: `${reason}, Retry-After ${Math.round(serverDelay / 1000)}s is too long to wait` };
  }
  const backoff = backoffDelay(o.retries, opts, random);
  // The server's hint is a minimum; the backoff still applies so retries spread out.
  const delayMs = serverDelay !== undefined ? Math.max(serverDelay, backoff) : backoff;
  return { retry: true, delayMs, reason: serverDelay !== undefined ? `${reason}, Retry-After` : reason };
}
