/**
 * The HTTP transport on undici: bearer auth, base URL joining, JSON bodies,
 * timeouts, keep-alive, proxies from the environment, retries (policy in
 * retry.ts), typed errors and a `-v` trace that never shows a whole key.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { AuthError, CancelError, UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../config/loopback.js';
import { hideUrlPasswords, maskKey, modeOfKey, redactKey } from '../config/mask.js';
import { errorFromResponse, htmlSummary, isHtml, LOGIN_HINT, NetworkError, ProtocolError, RedirectError, ServiceGoneError } from './errors.js';
import { Breaker, DEFAULT_BREAKER, type BreakerOptions } from './breaker.js';
import { classifyNetworkError, DEFAULT_RETRY, decideRetry, isNonIdempotent, type RetryOptions } from './retry.js';

export type Headers = Record<string, string | string[] | undefined>;
export type QueryValue = string | number | boolean | null | undefined;

export interface Timeouts {
  /** Opening the connection (TCP + TLS). */
  connectMs: number;
  /** From sending the request to the response headers. */
  headersMs: number;
  /** Between two chunks of the response body. */
  bodyMs: number;
  /**
   * The whole exchange, from sending to the last byte: a body that trickles
   * (a byte now and then, never stalling for bodyMs) must still end.
   * Default: headersMs + bodyMs + 1s (undici checks its own timeouts about
   * once a second; the margin lets them report first).
   */
  totalMs?: number;
}

function totalOf(t: Timeouts): number {
  return t.totalMs ?? t.headersMs + t.bodyMs + 1000;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

/**
 * The largest answer read (after decompression). The API's biggest answers
 * (a list of 150 items, a job-fit report) are well under 1 MB; anything near
 * this is not the API, and reading it whole could exhaust memory.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What a 2xx answer of a typed route must be: any JSON object, or a list envelope (an object with a data array). */
export type ExpectedShape = 'object' | 'list';

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
  /** The largest answer read, in bytes (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** When the service counts as gone (default DEFAULT_BREAKER; see breaker.ts). */
  breaker?: Partial<BreakerOptions>;
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
  /** Check the shape of a 2xx answer (typed routes); the raw `api` command takes anything. */
  expect?: ExpectedShape;
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

// localhost, 127.0.0.0/8 and ::1 only (not *.localhost): see config/loopback.ts.
export { isLoopbackHost };

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
  const q = path.indexOf('?');
  const p = q < 0 ? path : path.slice(0, q);
  let search = q < 0 ? '' : path.slice(q + 1);
  // One URL parse per request (setting search and appending to searchParams reparsed it twice).
  let params: URLSearchParams | undefined;
  for (const k in query) {
    const v = query[k];
    if (v !== undefined && v !== null && v !== '') (params ??= new URLSearchParams(search)).append(k, String(v));
  }
  if (params) search = params.toString();
  return new URL(`${origin}${basePath}${p.startsWith('/') ? p : `/${p}`}${search ? `?${search}` : ''}`);
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
    case 'JOBFIT_TOTAL_TIMEOUT':
      return `the answer did not finish within ${totalOf(t) / 1000}s`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'EPIPE':
      return 'the connection was closed';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

type BodyKind = 'empty' | 'json' | 'invalid-json' | 'html' | 'text';

const LOOKS_JSON = /^\s*[[{"]|^\s*(null|true|false|-?\d)/;

function parseBody(text: string, contentType: string | undefined): { data: unknown; kind: BodyKind } {
  if (!/\S/.test(text)) return { data: null, kind: 'empty' };
  const saysJson = (contentType ?? '').includes('json');
  // A server that is not ours may label JSON as text/plain, or send none at all.
  if (saysJson || LOOKS_JSON.test(text)) {
    try {
      return { data: JSON.parse(text), kind: 'json' };
    } catch {
      // A broken JSON body is shown as text.
      if (!isHtml(text, contentType)) return { data: text, kind: 'invalid-json' };
    }
  }
  return { data: text, kind: isHtml(text, contentType) ? 'html' : 'text' };
}

function errorWithCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Undoes a Content-Encoding the client never asked for (it sends
 * `accept-encoding: identity`, but some servers and proxies compress anyway),
 * never inflating past `max` bytes (a small gzip can hold gigabytes).
 */
async function decodeBody(body: Buffer, encoding: string, max: number): Promise<Buffer> {
  const codings = encoding
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0 || body.length === 0) return body;
  const zlib = await import('node:zlib');
  const opts = { maxOutputLength: max };
  let out = body;
  // Codings are listed in the order they were applied.
  for (const c of codings.reverse()) {
    if (c === 'gzip' || c === 'x-gzip') out = zlib.gunzipSync(out, opts);
    else if (c === 'br') out = zlib.brotliDecompressSync(out, opts);
    else if (c === 'deflate') {
      try {
        out = zlib.inflateSync(out, opts);
      } catch (err) {
        // Some servers send raw deflate without the zlib header.
        if (errorCode(err) === 'ERR_BUFFER_TOO_LARGE') throw err;
        out = zlib.inflateRawSync(out, opts);
      }
    } else throw errorWithCode(`unsupported content-encoding ${c}`, 'JOBFIT_UNKNOWN_ENCODING');
  }
  return out;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

interface RawResponse {
  status: number;
  headers: Headers;
  body: Buffer;
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
function exchange(dispatcher: Dispatcher, url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, t: Timeouts, maxBytes: number): Promise<RawResponse> {
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
    const fail = (err: Error) => {
      if (abortRequest) abortRequest(err);
      else pending = err;
    };
    const total = setTimeout(() => fail(errorWithCode('the answer did not finish in time', 'JOBFIT_TOTAL_TIMEOUT')), totalOf(t));
    total.unref?.();
    const done = () => {
      clearTimeout(total);
      signal?.removeEventListener('abort', onAbort);
    };
    let status = 0;
    let resHeaders: Headers = {};
    const chunks: Buffer[] = [];
    let received = 0;
    const tooLarge = () => errorWithCode(`the answer is larger than ${sizeText(maxBytes)}`, 'JOBFIT_TOO_LARGE');
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
        const declared = Number(resHeaders['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          fail(tooLarge());
          return false;
        }
        return true;
      },
      onData(chunk: Buffer) {
        received += chunk.length;
        if (received > maxBytes) {
          chunks.length = 0;
          fail(tooLarge());
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        done();
        resolve({ status, headers: resHeaders, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) });
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
  private readonly maxBodyBytes: number;
  /** Shared by every request of this client: a run over many ids stops when the service is gone. */
  readonly breaker: Breaker;

  constructor(opts: HttpClientOptions) {
    // A password in the URL is never sent (requests go to its origin) and never printed.
    this.baseUrl = hideUrlPasswords(opts.baseUrl.replace(/\/+$/, ''));
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
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.breaker = new Breaker({ ...DEFAULT_BREAKER, ...opts.breaker }, this.now);
  }

  private gone(): ServiceGoneError {
    return new ServiceGoneError(this.baseUrl, this.breaker.trippedBy!);
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
   * UnknownOutcomeError when a POST was lost after it may have been sent,
   * ProtocolError for a 2xx answer that is not the API's JSON (with `expect`),
   * and RedirectError for a redirect it will not follow.
   */
  async request<T = unknown>(opts: RequestOptions): Promise<HttpResponse<T>> {
    const method = opts.method.toUpperCase();
    if (!this.base) {
      const b = new URL(this.baseUrl);
      this.base = { origin: b.origin, path: b.pathname.replace(/\/+$/, '') };
    }
    let url = joinParsed(this.base.origin, this.base.path, opts.path, opts.query);
    const relPath = url.pathname.slice(this.base.path.length) + url.search;
    const auth = opts.auth !== false;
    if (auth && !this.apiKey) {
      // No key at all: the service would answer 404 'API key is required'; say it plainly instead.
      throw new AuthError('No API key is configured.', LOGIN_HINT);
    }
    const signal = opts.signal ?? this.signal;
    // Compression is not asked for: the answers are small, and inflating costs
    // CPU on every request of a bulk run. A server that compresses anyway is decoded.
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity', 'user-agent': this.userAgent };
    if (auth && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }

    // Retries that count against maxRetries, and 429s waited out on the server's word (retry.ts).
    let retries = 0;
    let rateLimitWaits = 0;
    let redirects = 0;
    for (;;) {
      const shown = `${url.pathname}${url.search}`;
      const sent = retries + rateLimitWaits;
      const suffix = sent > 0 ? ` (retry ${sent})` : '';
      this.trace(`→ ${method} ${shown}${suffix}`);
      if (sent === 0 && redirects === 0 && auth) this.trace(`  Authorization: Bearer ${this.maskedKey}`);
      if (this.breaker.isOpen) throw this.gone();
      const started = this.now();
      let status: number | undefined;
      let resHeaders: Headers = {};
      let raw: Buffer = Buffer.alloc(0);
      let code: string | undefined;
      let cause: unknown;
      try {
        const res = await exchange(this.getDispatcher(), url, method, headers, payload, signal, this.timeouts, this.maxBodyBytes);
        resHeaders = res.headers;
        raw = res.body;
        status = res.status;
      } catch (err) {
        if (isAbort(err, signal)) throw new CancelError('Interrupted.');
        code = errorCode(err) ?? 'UNKNOWN';
        cause = err;
        if (code === 'JOBFIT_TOO_LARGE') {
          throw new ProtocolError(`The answer to ${method} ${relPath} is larger than ${sizeText(this.maxBodyBytes)}; it was not read.`, { cause: err });
        }
      }
      const ms = this.now() - started;
      if (status !== undefined && status < 500) this.breaker.success();
      else this.breaker.failure(status !== undefined ? `HTTP ${status}` : describeNetworkError(code, this.timeouts));

      if (status !== undefined) {
        this.trace(`← ${status} ${ms}ms${suffix}`);
      } else {
        this.trace(`← ${code} after ${ms}ms${suffix}`);
      }

      // Redirects: followed only for reads, only within the exact origin of the
      // base URL (scheme, host and port: another port of the same host is
      // another server, and http is not https), a few times.
      const location = header(resHeaders, 'location');
      if (status !== undefined && status >= 300 && status < 400 && status !== 304 && location) {
        let target: URL | undefined;
        try {
          target = new URL(location, url);
        } catch {
          target = undefined;
        }
        const sameOrigin = target !== undefined && target.origin === this.base.origin;
        const read = method === 'GET' || method === 'HEAD';
        // The trace names the host and port, so a move to another port shows.
        const dest = target ? `${target.host} ${target.pathname}${target.search}` : 'an unreadable location';
        if (target && sameOrigin && read && redirects < MAX_REDIRECTS) {
          redirects++;
          this.trace(`  following ${status} to ${dest}`);
          url = target;
          continue;
        }
        this.trace(`  ${status} to ${target ? target.host : 'an unreadable location'}${target && !sameOrigin ? ' (another origin)' : ''}: not followed`);
        if (opts.throwOnError !== false) {
          const where = target ? (sameOrigin ? `${target.pathname}${target.search}` : target.href) : location;
          const shownWhere = this.redact(hideUrlPasswords(where.length > 160 ? `${where.slice(0, 159)}…` : where));
          if (!target || !sameOrigin) {
            const other = target ? `another origin (${target.protocol === url.protocol ? target.host : `${target.protocol}//${target.host}`})` : 'an address that is not a URL';
            throw new RedirectError(`The service redirected ${method} ${relPath} to ${shownWhere}, ${other}; not followed, so the key is not sent there.`, {
              status,
              location: shownWhere,
              hint: 'if that is the service, use it as the base URL (--base-url or JOBFIT_BASE_URL)',
            });
          }
          if (!read) {
            throw new RedirectError(`The service redirected ${method} ${relPath} to ${shownWhere} (${status}); a ${method} is not sent again to another address.`, {
              status,
              location: shownWhere,
              hint: 'check the base URL: the service may have moved',
            });
          }
          throw new RedirectError(`The service redirected ${method} ${relPath} more than ${MAX_REDIRECTS} times; stopped following.`, {
            status,
            location: shownWhere,
            hint: 'check the base URL',
          });
        }
      }

      const ok = status !== undefined && status >= 200 && status < 300;
      if (!ok) {
        const ra = resHeaders['retry-after'];
        const decision = decideRetry(
          {
            method,
            path: relPath,
            retries,
            rateLimitWaits,
            status,
            retryAfter: Array.isArray(ra) ? ra[0] : ra,
            errorCode: code,
            nowMs: this.now(),
          },
          this.retry,
          this.random,
        );
        if (decision.retry) {
          this.trace(`  waiting ${decision.delayMs}ms before retry ${sent + 1} (${decision.reason})`);
          if (this.breaker.isOpen) throw this.gone();
          try {
            await this.sleep(decision.delayMs, signal ? AbortSignal.any([signal, this.breaker.signal]) : this.breaker.signal);
          } catch (err) {
            if (this.breaker.isOpen && !signal?.aborted) throw this.gone();
            if (isAbort(err, signal)) throw new CancelError('Interrupted.');
            throw err;
          }
          if (decision.waited) rateLimitWaits++;
          else retries++;
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
          const message =
            classifyNetworkError(code) === 'dropped'
              ? `No complete answer from ${this.baseUrl} to ${method} ${relPath} (${what}).`
              : `Could not reach ${this.baseUrl} (${what}).`;
          const slow = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'JOBFIT_TOTAL_TIMEOUT';
          const hint = slow ? 'the service is slow or stalled; JOBFIT_TIMEOUT (seconds) waits longer' : undefined;
          throw new NetworkError(message, { url: url.toString(), code, cause, hint });
        }
      }

      const text = await this.bodyText(raw, resHeaders, method, relPath, status!);
      const contentType = header(resHeaders, 'content-type');
      const { data, kind } = parseBody(text, contentType);
      const response: HttpResponse<T> = { status: status!, headers: resHeaders, data: data as T, retries: retries + rateLimitWaits, durationMs: ms };
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
      if (opts.expect) this.checkShape(opts.expect, data, kind, text, contentType, status!, method, relPath);
      this.checkMode(data, method, relPath);
      return response;
    }
  }

  private redact(text: string): string {
    return redactKey(text, this.apiKey);
  }

  /** The body as text: decompressed when the server compressed it anyway, without a BOM, the key masked. */
  private async bodyText(raw: Buffer, headers: Headers, method: string, path: string, status: number): Promise<string> {
    let body = raw;
    const encoding = header(headers, 'content-encoding');
    if (encoding) {
      try {
        body = await decodeBody(raw, encoding, this.maxBodyBytes);
      } catch (err) {
        const code = errorCode(err);
        if (code === 'ERR_BUFFER_TOO_LARGE') {
          throw new ProtocolError(`The answer to ${method} ${path} is larger than ${sizeText(this.maxBodyBytes)} once decompressed; it was not read.`, { status, cause: err });
        }
        const what = code === 'JOBFIT_UNKNOWN_ENCODING' ? `an encoding the client cannot read (content-encoding: ${encoding})` : `a body that is not valid ${encoding} (content-encoding: ${encoding})`;
        throw new ProtocolError(`The service answered ${method} ${path} with ${what}.`, { status, cause: err, hint: 'a proxy may be changing the answers; try without it (NO_PROXY)' });
      }
      this.trace(`  decoded content-encoding ${encoding} (${raw.length} → ${body.length} bytes)`);
    }
    let text = body.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    // A server that echoes the key (in an error, a page) must not get it printed.
    if (this.apiKey && text.includes(this.apiKey)) text = this.redact(text);
    return text;
  }

  /** A 2xx answer of a typed route must be a JSON object (a list: with a data array); anything else is one sentence. */
  private checkShape(expect: ExpectedShape, data: unknown, kind: BodyKind, text: string, contentType: string | undefined, status: number, method: string, path: string): void {
    const answered = `The service answered ${method} ${path}`;
    let what: string | undefined;
    switch (kind) {
      case 'empty':
        what = status === 204 ? 'no content (HTTP 204) where JSON was expected' : `an empty body (HTTP ${status}) instead of JSON`;
        break;
      case 'html': {
        const title = htmlSummary(text);
        what = `an HTML page${title ? ` ("${title.slice(0, 80)}")` : ''} instead of JSON (HTTP ${status})`;
        break;
      }
      case 'invalid-json':
        what = `a body that is not valid JSON (HTTP ${status}, ${text.length} characters${contentType ? `, ${contentType.split(';')[0]}` : ''})`;
        break;
      case 'text': {
        const flat = text.replace(/\s+/g, ' ').trim();
        what = `plain text instead of JSON (HTTP ${status}): "${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}"`;
        break;
      }
      case 'json':
        if (data === null) what = `null instead of a JSON object (HTTP ${status})`;
        else if (Array.isArray(data)) what = `a JSON array instead of an object (HTTP ${status})`;
        else if (typeof data !== 'object') what = `a JSON ${typeof data} instead of an object (HTTP ${status})`;
        else if (expect === 'list' && !Array.isArray((data as { data?: unknown }).data)) {
          what = `an object without a data array where a list was expected (HTTP ${status})`;
        }
        break;
    }
    if (!what) return;
    // A write answered 2xx was accepted: what it did is unknown, not undone.
    const hint = isNonIdempotent(method) ? `the ${method} was accepted (HTTP ${status}) and may have been done; check before sending it again` : undefined;
    throw new ProtocolError(`${answered} with ${what}.`, { status, hint });
  }

  /** Every keyed answer carries `mode`; one that disagrees with the key means the wrong server or key. A missing mode is let through. */
  private checkMode(data: unknown, method: string, path: string): void {
    if (!this.keyMode || !data || typeof data !== 'object' || Array.isArray(data)) return;
    const raw = (data as { mode?: unknown }).mode;
    const mode = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
    if ((mode === 'live' || mode === 'test') && mode !== this.keyMode) {
      throw new AuthError(
        `The service answered ${method} ${path} in ${mode} mode, but the key is a ${this.keyMode} key (${this.maskedKey}).`,
        'check the key and the base URL of the profile (`jobfit whoami`)',
      );
    }
  }
}

const MAX_REDIRECTS = 5;

function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}
