/**
 * One error class per status family, each with the API's own message, the
 * request (method and path), the raw body and a hint. All extend JobfitError
 * so main() maps them to exit codes without knowing about HTTP.
 */
import { ExitCode, type ExitCodeValue, JobfitError } from '../core/errors.js';
import { routeAt } from '../api/route-match.js';
import { type RouteDef, ROUTES } from '../api/routes.js';
import { parseRetryAfter } from './retry.js';

export const LOGIN_HINT = 'run `jobfit login` or set JOBFIT_API_KEY';
export const SCORE_PROFILES_HINT = 'see `jobfit score-profiles` for the valid short names';
const KEY_ERRORS = ['API key is required', 'Account not found for API key'];

export interface ApiErrorInit {
  status: number;
  method: string;
  /** Path relative to the base URL, with the query string. */
  path: string;
  /** The API's `error` field: a string, or an array for some schema errors (any JSON from a foreign server). */
  apiMessage?: unknown;
  body?: unknown;
  headers?: Record<string, string | string[] | undefined>;
  hint?: string;
  exitCode?: ExitCodeValue;
}

/** The `error` field as one line, whatever its type: arrays joined by "; ", objects by their message. */
export function apiMessageText(m: unknown): string | undefined {
  if (m === undefined || m === null) return undefined;
  if (typeof m === 'string') return m;
  if (typeof m === 'number' || typeof m === 'boolean') return String(m);
  if (Array.isArray(m)) {
    const parts = m.map((e) => apiMessageText(e)).filter((t): t is string => Boolean(t));
    return parts.length ? parts.join('; ') : undefined;
  }
  if (typeof m === 'object') {
    const o = m as Record<string, unknown>;
    // The usual names for the human part of an error object.
    for (const k of ['message', 'detail', 'error', 'title', 'description', 'msg']) {
      const t = apiMessageText(o[k]);
      if (t) {
        const field = typeof o.field === 'string' ? o.field : typeof o.path === 'string' ? o.path : undefined;
        return field && !t.startsWith(`${field}:`) ? `${field}: ${t}` : t;
      }
    }
    return JSON.stringify(m);
  }
  return String(m);
}

/** Longest API message or path shown in one error line. */
const MAX_TEXT = 200;

function oneLine(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const HTML = /^\s*(<!doctype html|<html|<head|<body|<\?xml|<!--)/i;

/** True when a body is an HTML page (a proxy's error page, a portal, a web server's default). */
export function isHtml(text: string, contentType?: string): boolean {
  return /html/i.test(contentType ?? '') || HTML.test(text);
}

function decodeEntities(s: string): string {
  return s
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** What an HTML page says in a few words: its title, else its first heading, else its text. */
export function htmlSummary(html: string): string | undefined {
  const pick = (re: RegExp) => {
    const m = re.exec(html);
    return m ? oneLine(decodeEntities(m[1].replace(/<[^>]*>/g, ' '))) : '';
  };
  const title = pick(/<title[^>]*>([\s\S]*?)<\/title>/i) || pick(/<h1[^>]*>([\s\S]*?)<\/h1>/i);
  if (title) return title;
  const text = oneLine(decodeEntities(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')), 80);
  return text || undefined;
}

/** The message of a non-JSON error body: an HTML page's title, or plain text on one line. */
function textMessage(body: string, contentType?: string): string | undefined {
  if (!body.trim()) return undefined;
  if (isHtml(body, contentType)) {
    const s = htmlSummary(body);
    return s ? `${s}, an HTML page` : 'an HTML page';
  }
  return oneLine(body);
}

export class ApiError extends JobfitError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly apiMessage?: unknown;
  readonly body?: unknown;
  readonly headers: Record<string, string | string[] | undefined>;

  constructor(init: ApiErrorInit, fallback?: string) {
    const api = apiMessageText(init.apiMessage);
    const text = api ? oneLine(api) : (fallback ?? `the service answered ${init.status}`);
    super(`${text} (${init.status} from ${init.method} ${oneLine(init.path, 120)})`, {
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

/** A POST was lost after it may have reached the server: its outcome is unknown. */
export class UnknownOutcomeError extends NetworkError {}

/**
 * The circuit breaker opened (client/breaker.ts): every request over a window
 * failed to reach the service or got 5xx. Long runs stop on it at once and
 * say what was done; exit 1.
 */
export class ServiceGoneError extends JobfitError {
  readonly baseUrl: string;
  constructor(baseUrl: string, trippedBy: { cause: string; seconds: number; failures: number }) {
    super(`The service at ${baseUrl} failed every request for ${trippedBy.seconds} s (${trippedBy.failures} attempts, last: ${trippedBy.cause}); stopped.`, {
      hint: 'check that the service is up and the base URL is right; JOBFIT_BREAKER_SECONDS sets how long to wait (0: never give up)',
    });
    this.baseUrl = baseUrl;
  }
}

function isKeyError(m: unknown): boolean {
  return typeof m === 'string' && KEY_ERRORS.some((k) => m.trim().toLowerCase() === k.toLowerCase());
}

function headerOf(h: ApiErrorInit['headers'], name: string): string | undefined {
  const v = h?.[name];
  return Array.isArray(v) ? v[0] : v;
}

/** "in 24h (after 2026-01-03 10:00 UTC)" for a wait the client will not sit through. */
export function describeWait(ms: number, nowMs = Date.now()): string {
  const s = Math.ceil(ms / 1000);
  const span = s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)}h`;
  const at = new Date(nowMs + ms).toISOString().slice(0, 16).replace('T', ' ');
  return `in ${span} (after ${at} UTC)`;
}

/** Builds the typed error for a non-2xx answer. */
export function errorFromResponse(init: ApiErrorInit): ApiError {
  const { status } = init;
  const body = init.body;
  const contentType = headerOf(init.headers, 'content-type');
  const apiMessage =
    init.apiMessage ??
    (body && typeof body === 'object' && !Array.isArray(body) && 'error' in body
      ? (body as { error: unknown }).error
      : typeof body === 'string'
        ? textMessage(body, contentType)
        : undefined);
  const full: ApiErrorInit = { ...init, apiMessage: apiMessageText(apiMessage) === undefined ? undefined : apiMessage };
  if (status === 404 && isKeyError(apiMessage)) return new AuthenticationError(full);
  // Not in the reference (it answers 404 for a bad key), but gateways in front of a service do.
  if (status === 401) return new AuthenticationError({ ...full, apiMessage: full.apiMessage ?? 'the service did not accept the key' });
  if (status === 403) {
    return new AuthenticationError({
      ...full,
      apiMessage: full.apiMessage ?? 'the service refused access with this key',
      hint: init.hint ?? 'check that the key belongs to this base URL (`jobfit whoami`), or run `jobfit login` with another key',
    });
  }
  if (status === 400) {
    const hint = routeAt(init.method, init.path) === 'getScorecard' && /\bsp\b|score.?profile/i.test(apiMessageText(apiMessage) ?? '') ? SCORE_PROFILES_HINT : undefined;
    return new BadRequestError({ ...full, hint: init.hint ?? hint });
  }
  if (status === 404) {
    // Only career navigation profiles answer 404 by design; elsewhere it usually means a wrong base URL.
    const route = routeAt(init.method, init.path);
    const wrongBase = !(route !== undefined && (ROUTES[route] as RouteDef).nullWhenMissing === true);
    return new NotFoundError({ ...full, hint: init.hint ?? (wrongBase ? 'check that the base URL is the root of the v2 API (it ends in /v2)' : undefined) }, 'not found');
  }
  if (status === 429) {
    const wait = parseRetryAfter(headerOf(init.headers, 'retry-after'), Date.now());
    const hint = init.hint ?? (wait !== undefined && wait > 0 ? `the service is rate limiting and asks to wait; try again ${describeWait(wait)}` : undefined);
    return new RateLimitError({ ...full, hint }, wait === undefined ? undefined : Math.ceil(wait / 1000));
  }
  if (status >= 500) return new ServerError(full);
  return new ClientRequestError(full);
}

/**
 * A 2xx answer that is not what the API sends (an HTML page, broken JSON, no
 * body, null or an array where an object belongs), or a body the client will
 * not read (too large, an unknown compression). Exit 1.
 */
export class ProtocolError extends JobfitError {
  readonly status?: number;
  /** The body was not JSON at all (an HTML page, plain text, empty, or cut short): a page that may come right when asked again. */
  readonly garbled: boolean;
  constructor(message: string, opts: { status?: number; hint?: string; cause?: unknown; garbled?: boolean } = {}) {
    super(message, {
      hint: opts.hint ?? 'check the base URL (it should be the root of the v2 API); a proxy or portal may be answering instead of the service',
      cause: opts.cause,
    });
    this.status = opts.status;
    this.garbled = opts.garbled ?? false;
  }
}

/** A redirect the client does not follow: to another host, or of a write. */
export class RedirectError extends JobfitError {
  readonly status: number;
  readonly location: string;
  constructor(message: string, opts: { status: number; location: string; hint?: string }) {
    super(message, { hint: opts.hint });
    this.status = opts.status;
    this.location = opts.location;
  }
}
