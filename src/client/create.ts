/**
 * The one client factory. Every client (a command's, `login` checking a key
 * before it is saved, a library user's) is built here, so the environment's
 * settings apply to all of them the same way (when it is given an `env`): JOBFIT_TIMEOUT (seconds to wait
 * for an answer, and between two chunks of it), JOBFIT_MAX_RETRIES (caps every
 * retry, 429s included) and JOBFIT_BREAKER_SECONDS (breaker.ts).
 */
import { UsageError } from '../core/errors.js';
import { breakerFromEnv } from './breaker.js';
import { JobfitClient } from './client.js';
import { HttpClient, type HttpClientOptions } from './http.js';

/** Settings that come from the environment or from the caller. */
export type ClientSettings = Pick<HttpClientOptions, 'timeouts' | 'retry' | 'breaker'>;

export interface CreateClientOptions extends HttpClientOptions {
  /** Check answers against the reference schemas and trace mismatches (default: when there is a trace). */
  verbose?: boolean;
  /** The caller's own defaults (e.g. a quick healthcheck); the environment's settings win over them, `timeouts`/`retry`/`breaker` given here win over both. */
  defaults?: ClientSettings;
}

/** A non-negative number from the environment; undefined when unset or empty; a usage error when not a number. */
function positiveNumber(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${name} must be a non-negative number, got "${raw}".`);
  return n;
}

/** JOBFIT_TIMEOUT, JOBFIT_MAX_RETRIES and JOBFIT_BREAKER_SECONDS as client settings (only those that are set). */
export function settingsFromEnv(env: Record<string, string | undefined>): ClientSettings {
  const timeoutS = positiveNumber(env, 'JOBFIT_TIMEOUT');
  const maxRetries = positiveNumber(env, 'JOBFIT_MAX_RETRIES');
  return {
    timeouts: timeoutS === undefined ? undefined : { headersMs: timeoutS * 1000, bodyMs: timeoutS * 1000 },
    // The user's number caps every retry, 429s included (no extra waits on the server's Retry-After).
    retry: maxRetries === undefined ? undefined : { maxRetries: Math.floor(maxRetries), maxRateLimitWaits: 0 },
    breaker: breakerFromEnv(env),
  };
}

function merged<T extends object>(...parts: Array<T | undefined>): T | undefined {
  const given = parts.filter((p): p is T => p !== undefined);
  return given.length === 0 ? undefined : Object.assign({}, ...given);
}

export function clientForConnection(opts: CreateClientOptions): JobfitClient {
  const { verbose, defaults, ...http } = opts;
  // The settings of the environment it is given (the CLI's io.env), never of process.env on its own: a
  // program using the library configures its client itself (src/lib/client.ts).
  const env: ClientSettings = opts.env ? settingsFromEnv(opts.env) : {};
  const client = new HttpClient({
    ...http,
    timeouts: merged(defaults?.timeouts, env.timeouts, opts.timeouts),
    retry: merged(defaults?.retry, env.retry, opts.retry),
    breaker: merged(defaults?.breaker, env.breaker, opts.breaker),
  });
  return new JobfitClient(client, { verbose: verbose ?? Boolean(opts.trace) });
}
