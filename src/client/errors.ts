/**
 * One error class per status family, each with the API's own message, the
 * request (method and path), the raw body and a hint. All extend JobfitError
 * so main() maps them to exit codes without knowing about HTTP.
 */
import { ExitCode, type ExitCodeValue, JobfitError } from '../cli/errors.js';

export const LOGIN_HINT = 'run `jobfit login` or set JOBFIT_API_KEY';
export const SCORE_PROFILES_HINT = 'see `jobfit score-profiles` for the valid short names';
const KEY_ERRORS = ['API key is required', 'Account not found for API key'];

export interface ApiErrorInit {
  status: number;
  method: string;
  /** Path relative to the base URL, with the query string. */
  path: string;
  /** The API's `error` field: a string, or an array for some schema errors. */
  apiMessage?: string | unknown[];
  body?: unknown;
  headers?: Record<string, string | string[] | undefined>;
  hint?: string;
  exitCode?: ExitCodeValue;
}

/** The `error` field as one line: an array becomes its items joined by "; ". */
export function apiMessageText(m: string | unknown[] | undefined): string | undefined {
  if (m === undefined) return undefined;
  if (typeof m === 'string') return m;
  return m.map((e) => (typeof e === 'string' ? e : e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : JSON.stringify(e))).join('; ');
}

export class ApiError extends JobfitError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly apiMessage?: string | unknown[];
  readonly body?: unknown;
  readonly headers: Record<string, string | string[] | undefined>;

  constructor(init: ApiErrorInit, fallback?: string) {
    const text = apiMessageText(init.apiMessage) ?? fallback ?? `the service answered ${init.status}`;
    super(`${text} (${init.status} from ${init.method} ${init.path})`, {
      exitCode: init.exitCode ?? ExitCode.FAILURE,
      hint: init.hint,
    });
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.apiMessage = init.apiMessage;
    this.body = init.body;
    this.headers = init.headers ?? {};
  }

  /** The API's message alone, for results files and tables. */
  get apiText(): string {
    return apiMessageText(this.apiMessage) ?? `HTTP ${this.status}`;
  }
}

/** 400: validation failures, unknown ids, business rules. */
export class BadRequestError extends ApiError {}
/** 404 that is not about the key (e.g. a career navigation profile). */
export class NotFoundError extends ApiError {}
/** 404 'API key is required' / 'Account not found for API key': exit 4. */
export class AuthenticationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super({ ...init, exitCode: ExitCode.AUTH, hint: init.hint ?? LOGIN_HINT });
  }
}
/** 405 and other 4xx the reference does not describe. */
export class ClientRequestError extends ApiError {}
/** 429, after the retries ran out. */
export class RateLimitError extends ApiError {
  /** Seconds the server asked us to wait, when it said. */
  readonly retryAfterSeconds?: number;
  constructor(init: ApiErrorInit, retryAfterSeconds?: number) {
    super({ ...init, hint: init.hint ?? 'the service is rate limiting; wait a little and run the command again' }, 'too many requests');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
/** 5xx, after the retries ran out. */
export class ServerError extends ApiError {
  constructor(init: ApiErrorInit) {
    super({ ...init, hint: init.hint ?? 'the service had a problem; try again later' }, 'the service failed');
  }
}

/** No HTTP answer at all: refused, reset, DNS, timeout, TLS. */
export class NetworkError extends JobfitError {
  readonly url: string;
  readonly code?: string;
  /** The request may have reached the server (a write's outcome is unknown). */
  readonly requestSent: boolean;
  constructor(message: string, opts: { url: string; code?: string; hint?: string; cause?: unknown; requestSent?: boolean }) {
    super(message, {
      hint: opts.hint ?? 'check the base URL (--base-url, JOBFIT_BASE_URL or the profile), your network and HTTPS_PROXY/NO_PROXY',
      cause: opts.cause,
    });
    this.url = opts.url;
    this.code = opts.code;
    this.requestSent = opts.requestSent ?? false;
  }
}

function isKeyError(m: string | unknown[] | undefined): boolean {
  return typeof m === 'string' && KEY_ERRORS.some((k) => m.trim().toLowerCase() === k.toLowerCase());
}

/** Builds the typed error for a non-2xx answer. */
export function errorFromResponse(init: ApiErrorInit): ApiError {
  const { status } = init;
  const body = init.body;
  const apiMessage =
    init.apiMessage ??
    (body && typeof body === 'object' && !Array.isArray(body) && 'error' in body
      ? ((body as { error: unknown }).error as string | unknown[])
      : typeof body === 'string' && body.trim()
        ? body.trim().slice(0, 300)
        : undefined);
  const full: ApiErrorInit = { ...init, apiMessage };
  if (status === 404 && isKeyError(apiMessage)) return new AuthenticationError(full);
  if (status === 401 || status === 403) return new AuthenticationError(full);
  if (status === 400) {
    const bare = init.path.split('?')[0];
    const hint = /\/scorecard$/.test(bare) && /\bsp\b|score.?profile/i.test(apiMessageText(apiMessage) ?? '') ? SCORE_PROFILES_HINT : undefined;
    return new BadRequestError({ ...full, hint: init.hint ?? hint });
  }
  if (status === 404) {
    // Only career navigation profiles answer 404 by design; elsewhere it usually means a wrong base URL.
    const wrongBase = !/^\/career-navigation-profiles\//.test(init.path);
    return new NotFoundError({ ...full, hint: init.hint ?? (wrongBase ? 'check that the base URL is the root of the v2 API (it ends in /v2)' : undefined) }, 'not found');
  }
  if (status === 429) return new RateLimitError(full);
  if (status >= 500) return new ServerError(full);
  return new ClientRequestError(full);
}
