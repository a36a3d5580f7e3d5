/**
 * createClient for programs: a typed client from a base URL and a key, with no
 * configuration file, profile or environment variable read on the way (the
 * CLI resolves those in src/cli/create-context.ts and src/client/create.ts).
 */
import { clientForConnection, type JobfitClient } from '../client/index.js';

export interface ClientOptions {
  /** Root of API v2, e.g. `https://api.example.com/v2` or a stub's `url`. */
  baseUrl: string;
  /** `sk_live_…` or `sk_test_…`. A live key is refused over plain http:// except to this machine. */
  apiKey: string;
  /** How long to wait for an answer's headers, and between two chunks of its body (default 30,000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt for an answer that did not come or a 429/502/503/504 (default 3). */
  maxRetries?: number;
  /** Aborts every request of this client and its retry waits. */
  signal?: AbortSignal;
  /** Receives one line per request and retry (the CLI's `-v` trace); the key is always masked. */
  trace?: (line: string) => void;
  /** The User-Agent header (default `jobfit-cli`). */
  userAgent?: string;
}

function positive(name: string, v: number | undefined, whole: boolean): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (whole && !Number.isInteger(v)) || (!whole && v === 0)) {
    throw new TypeError(`${name} must be a ${whole ? 'whole number, 0 or more' : 'number above 0'}; got ${String(v)}.`);
  }
  return v;
}

/** A typed client; close() it when done so the process can exit at once. */
export function createClient(opts: ClientOptions): JobfitClient {
  if (!opts || typeof opts.baseUrl !== 'string' || !URL.canParse(opts.baseUrl)) throw new TypeError('createClient: baseUrl must be an absolute URL.');
  if (typeof opts.apiKey !== 'string' || opts.apiKey === '') throw new TypeError('createClient: apiKey must be a non-empty string.');
  const timeoutMs = positive('timeoutMs', opts.timeoutMs, false);
  const maxRetries = positive('maxRetries', opts.maxRetries, true);
  return clientForConnection({
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    signal: opts.signal,
    trace: opts.trace,
    userAgent: opts.userAgent,
    // As JOBFIT_TIMEOUT and JOBFIT_MAX_RETRIES do for the CLI (settingsFromEnv in src/client/create.ts), which
    // reads them from an `env` only when given one: none is given here.
    timeouts: timeoutMs === undefined ? undefined : { headersMs: timeoutMs, bodyMs: timeoutMs },
    retry: maxRetries === undefined ? undefined : { maxRetries, maxRateLimitWaits: 0 },
  });
}
