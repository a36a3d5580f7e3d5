/**
 * The HTTP transport on undici: bearer auth, base URL joining, JSON bodies,
 * timeouts, keep-alive, proxies from the environment, retries (policy in
 * retry.ts), typed errors and a `-v` trace that never shows a whole key.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { AuthError, CancelError, UsageError } from '../cli/errors.js';
import { maskKey, modeOfKey, redactKey } from '../config/mask.js';
import { errorFromResponse, LOGIN_HINT, NetworkError } from './errors.js';
import { DEFAULT_RETRY, decideRetry, isNonIdempotent, type RetryOptions } from './retry.js';

export type Headers = Record<string, string | string[] | undefined>;
export type QueryValue = string | number | boolean | null | undefined;

export interface Timeouts {
  /** Opening the connection (TCP + TLS). */
  connectMs: number;
  /** From sending the request to the response headers. */
  headersMs: number;
  /** Between two chunks of the response body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

export interface HttpClientOptions {
  /** Root of the API, including /v2. */
  baseUrl: string;
  apiKey?: string;
  /** Receives `-v` trace lines; the key is masked before they get here. */
  trace?: (line: string) => void;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryOptions>;
  /** Injected in tests so retries take no time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** A ready dispatcher (tests); otherwise one is built from the environment's proxy settings. */
  dispatcher?: Dispatcher;
  /** Where HTTPS_PROXY/HTTP_PROXY/NO_PROXY are read (io.env). */
  env?: Record<string, string | undefined>;
  /** Aborts requests and retry waits (Ctrl-C). */
  signal?: AbortSignal;
  userAgent?: string;
}

export interface RequestOptions {
  method: string;
  /** Relative to the base URL, e.g. `/teams`; may carry its own query string. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Send the key (default true; false for the healthcheck). */
  auth?: boolean;
  /** Return non-2xx answers instead of throwing (the raw `api` command). */
  throwOnError?: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON, or null when empty. */
  data: T;
  /** Retries made before this answer. */
  retries: number;
  durationMs: number;
}

/** A POST was lost after it may have reached the server: its outcome is unknown. */
export class UnknownOutcomeError extends NetworkError {}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK.has(h) || /^127\.\d+\.\d+\.\d+$/.test(h) || h.endsWith('.localhost');
}

/** Refuses to send a live key in clear text anywhere but this machine. */
export function assertSafeTransport(baseUrl: string, apiKey: string | undefined): void {
  if (!apiKey || modeOfKey(apiKey) !== 'live') return;
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `Refusing to send a live key over plain http:// to ${url.host}.`,
      'use an https:// base URL, or a test key for a server on this machine',
    );
  }
}

/** Joins the base URL (which has its own path, /v2) and a route path. */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const base = new URL(baseUrl);
  return joinParsed(base.origin, base.pathname.replace(/\/+$/, ''), path, query);
}

/** joinUrl with the base already split (the client parses its base URL once, not per request). */
function joinParsed(origin: string, basePath: string, path: string, query?: Record<string, QueryValue>): URL {
  const [p, qs] = path.split('?', 2);
  const url = new URL(`${origin}${basePath}${p.startsWith('/') ? p : `/${p}`}`);
  if (qs) url.search = qs;
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.append(k, String(v));
  }
  return url;
}

function makeDispatcher(baseUrl: string, env: Record<string, string | undefined>, t: Timeouts): Dispatcher {
  const agentOpts = {
    connectTimeout: t.connectMs,
    headersTimeout: t.headersMs,
    bodyTimeout: t.bodyMs,
    keepAliveTimeout: 10_000,
  };
  const host = new URL(baseUrl).hostname;
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY;
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY;
  // The embedded stub and local servers never go through a proxy.
  if (isLoopbackHost(host) || (!httpProxy && !httpsProxy)) return new Agent(agentOpts);
  // Pass the values explicitly so the proxy follows io.env, not process.env.
  return new EnvHttpProxyAgent({
    ...agentOpts,
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  });
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (err instanceof Error && (err.name === 'AbortError' || errorCode(err) === 'UND_ERR_ABORTED'));
}

function describeNetworkError(code: string | undefined, t: Timeouts): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `no connection within ${t.connectMs / 1000}s`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `no answer within ${t.headersMs / 1000}s`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `the answer stalled for ${t.bodyMs / 1000}s`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'EPIPE':
      return 'the connection was closed';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return null;
  if ((contentType ?? '').includes('json') || /^\s*[[{"]|^\s*(null|true|false|-?\d)/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Fall through: a broken JSON body is shown as text.
    }
  }
  return text;
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Raw header list (name, value, name, value…) to an object, lower-case names, repeated names as arrays (as undici's request() gives them). */
function headersOf(raw: Buffer[]): Headers {
  const out: Headers = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toString('latin1').toLowerCase();
    if (name === '__proto__') continue;
    const value = raw[i + 1].toString('latin1');
    const had = out[name];
    if (had === undefined) out[name] = value;
    else if (Array.isArray(had)) had.push(value);
    else out[name] = [had, value];
  }
  return out;
}

/**
 * One exchange through the dispatcher with a handler that only gathers the
 * answer's bytes. undici's request() builds a Readable stream and its
 * handler per request; for the small JSON answers of this API that cost about
 * a quarter of the client's CPU per request (measured: ~200 vs ~150 µs), which
 * is what a bulk invite or an export of thousands of items spends its time on.
 */
function exchange(dispatcher: Dispatcher, url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, t: Timeouts): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const abortError = () => {
      const reason: unknown = signal?.reason;
      if (reason instanceof Error && reason.name === 'AbortError') return reason;
      const err = new Error('This operation was aborted', { cause: reason });
      err.name = 'AbortError';
      return err;
    };
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    let abortRequest: ((err: Error) => void) | undefined;
    let pending: Error | undefined;
    const onAbort = () => {
      const err = abortError();
      if (abortRequest) abortRequest(err);
      else pending = err;
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    let status = 0;
    let resHeaders: Headers = {};
    const chunks: Buffer[] = [];
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abort: (err?: Error) => void) {
        if (pending) abort(pending);
        else abortRequest = abort;
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[]) {
        // 1xx informational answers come before the real one.
        if (statusCode < 200) return true;
        status = statusCode;
        resHeaders = headersOf(rawHeaders);
        return true;
      },
      onData(chunk: Buffer) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        done();
        resolve({ status, headers: resHeaders, text: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8') });
      },
      onError(err: Error) {
        done();
        reject(err);
      },
    } as unknown as Dispatcher.DispatchHandler;
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.search ? `${url.pathname}${url.search}` : url.pathname,
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          headersTimeout: t.headersMs,
          bodyTimeout: t.bodyMs,
        },
        handler,
      );
    } catch (err) {
      done();
      reject(err);
    }
  });
}

export class HttpClient {
  readonly baseUrl: string;
  /** The base URL's origin and path (without a trailing slash), parsed on the first request. */
  private base?: { origin: string; path: string };
  readonly keyMode?: 'live' | 'test';
  private readonly apiKey?: string;
  private readonly timeouts: Timeouts;
  private readonly retry: RetryOptions;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly traceFn?: (line: string) => void;
  private readonly signal?: AbortSignal;
  private readonly userAgent: string;
  private dispatcher?: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly env: Record<string, string | undefined>;

  constructor(opts: HttpClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.apiKey = opts.apiKey;
    assertSafeTransport(this.baseUrl, this.apiKey);
    this.keyMode = opts.apiKey ? modeOfKey(opts.apiKey) : undefined;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.sleep = opts.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
    this.traceFn = opts.trace;
    this.signal = opts.signal;
    this.userAgent = opts.userAgent ?? 'jobfit-cli';
    this.dispatcher = opts.dispatcher;
    this.ownsDispatcher = !opts.dispatcher;
    this.env = opts.env ?? process.env;
  }

  /** Writes a trace line with any trace of the key masked (belt and braces). */
  trace(line: string): void {
    if (this.traceFn) this.traceFn(redactKey(line, this.apiKey));
  }

  get maskedKey(): string {
    return maskKey(this.apiKey);
  }

  private getDispatcher(): Dispatcher {
    this.dispatcher ??= makeDispatcher(this.baseUrl, this.env, this.timeouts);
    return this.dispatcher;
  }

  /** Closes the connections kept alive, so the process can exit at once. */
  async close(): Promise<void> {
    if (this.dispatcher && this.ownsDispatcher) {
      const d = this.dispatcher;
      this.dispatcher = undefined;
      await d.close();
    }
  }

  /**
   * Sends a request with the retry policy. Throws a typed ApiError for non-2xx
   * answers (unless throwOnError is false), NetworkError when no answer came,
   * and UnknownOutcomeError when a POST was lost after it may have been sent.
   */
  async request<T = unknown>(opts: RequestOptions): Promise<HttpResponse<T>> {
    const method = opts.method.toUpperCase();
    if (!this.base) {
      const b = new URL(this.baseUrl);
      this.base = { origin: b.origin, path: b.pathname.replace(/\/+$/, '') };
    }
    const url = joinParsed(this.base.origin, this.base.path, opts.path, opts.query);
    const relPath = url.pathname.slice(this.base.path.length) + url.search;
    const shown = `${url.pathname}${url.search}`;
    const auth = opts.auth !== false;
    if (auth && !this.apiKey) {
      // No key at all: the service would answer 404 'API key is required'; say it plainly instead.
      throw new AuthError('No API key is configured.', LOGIN_HINT);
    }
    const signal = opts.signal ?? this.signal;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (auth && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }

    for (let retries = 0; ; retries++) {
      const suffix = retries > 0 ? ` (retry ${retries})` : '';
      this.trace(`→ ${method} ${shown}${suffix}`);
      if (retries === 0 && auth) this.trace(`  Authorization: Bearer ${this.maskedKey}`);
      const started = this.now();
      let status: number | undefined;
      let resHeaders: Headers = {};
      let text = '';
      let code: string | undefined;
      let cause: unknown;
      try {
        const res = await exchange(this.getDispatcher(), url, method, headers, payload, signal, this.timeouts);
        resHeaders = res.headers;
        text = res.text;
        status = res.status;
      } catch (err) {
        if (isAbort(err, signal)) throw new CancelError('Interrupted.');
        code = errorCode(err) ?? 'UNKNOWN';
        cause = err;
      }
      const ms = this.now() - started;

      if (status !== undefined) {
        this.trace(`← ${status} ${ms}ms${suffix}`);
      } else {
        this.trace(`← ${code} after ${ms}ms${suffix}`);
      }

      const ok = status !== undefined && status >= 200 && status < 300;
      if (!ok) {
        const ra = resHeaders['retry-after'];
        const decision = decideRetry(
          {
            method,
            path: relPath,
            retries,
            status,
            retryAfter: Array.isArray(ra) ? ra[0] : ra,
            errorCode: code,
            nowMs: this.now(),
          },
          this.retry,
          this.random,
        );
        if (decision.retry) {
          this.trace(`  waiting ${decision.delayMs}ms before retry ${retries + 1} (${decision.reason})`);
          try {
            await this.sleep(decision.delayMs, signal);
          } catch (err) {
            if (isAbort(err, signal)) throw new CancelError('Interrupted.');
            throw err;
          }
          continue;
        }
        if (status === undefined) {
          const what = describeNetworkError(code, this.timeouts);
          if (decision.unknownOutcome && isNonIdempotent(method)) {
            throw new UnknownOutcomeError(`${method} ${relPath} to ${this.baseUrl} was lost (${what}); it may or may not have been done.`, {
              url: url.toString(),
              code,
              cause,
              requestSent: true,
            });
          }
          throw new NetworkError(`Could not reach ${this.baseUrl} (${what}).`, { url: url.toString(), code, cause });
        }
      }

      const data = parseBody(text, String(resHeaders['content-type'] ?? ''));
      const response: HttpResponse<T> = { status: status!, headers: resHeaders, data: data as T, retries, durationMs: ms };
      if (!ok) {
        if (opts.throwOnError === false) return response;
        const err = errorFromResponse({ status: status!, method, path: relPath, body: data, headers: resHeaders });
        if (isNonIdempotent(method) && status! >= 500 && status !== 503) {
          // The write may have happened before the server failed.
          throw new UnknownOutcomeError(`${err.message}; it may or may not have been done.`, {
            url: url.toString(),
            code: String(status),
            cause: err,
            requestSent: true,
            hint: err.hint,
          });
        }
        throw err;
      }
      this.checkMode(data, method, relPath);
      return response;
    }
  }

  /** Every keyed answer carries `mode`; one that disagrees with the key means the wrong server or key. */
  private checkMode(data: unknown, method: string, path: string): void {
    if (!this.keyMode || !data || typeof data !== 'object' || Array.isArray(data)) return;
    const mode = (data as { mode?: unknown }).mode;
    if ((mode === 'live' || mode === 'test') && mode !== this.keyMode) {
      throw new AuthError(
        `The service answered ${method} ${path} in ${mode} mode, but the key is a ${this.keyMode} key (${this.maskedKey}).`,
        'check the key and the base URL of the profile (`jobfit whoami`)',
      );
    }
  }
}
