/**
 * The request sender (after stripe-node's RequestSender): bearer auth, base
 * URL joining, JSON bodies, and the loop around one request that asks the
 * pure decisions (redirect.ts, retry.ts) what to do with each answer, the
 * breaker (breaker.ts) whether the service is still there, and turns the end
 * into an answer or a typed error (errors.ts). The wire is in transport.ts,
 * reading and checking an answer in response.ts. The `-v` trace never shows
 * a whole key.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AuthError, CancelError } from '../core/errors.js';
import { hideUrlPasswords, maskKey, modeOfKey, redactKey } from '../config/mask.js';
import { errorFromResponse, LOGIN_HINT, NetworkError, ProtocolError, ServiceGoneError, UnknownOutcomeError } from './errors.js';
import { Breaker, DEFAULT_BREAKER } from './breaker.js';
import { decideRedirect, redirectError, redirectTrace } from './redirect.js';
import { checkContentType, checkMode, checkShape, DEFAULT_MAX_BODY_BYTES, parseBody, readBytes, readText } from './response.js';
import { classifyNetworkError, DEFAULT_RETRY, decideRetry, isNonIdempotent, type RetryOptions } from './retry.js';
import type { Attempt, HttpClientOptions, HttpResponse, Outgoing, RequestOptions, Tries } from './request-types.js';
import { assertSafeTransport, joinParsed } from './url.js';
import { DEFAULT_TIMEOUTS, describeNetworkError, errorCode, exchange, header, isAbort, sizeText, type Timeouts, type Transport } from './transport.js';

/**
 * The error of an aborted call: the signal's own CancelError when it carries
 * one (which signal), else a CancelError whose `cause` is the abort's reason
 * (what the caller passed to `controller.abort(reason)`, or the signal's own
 * AbortError), so a program can tell its own stop from Ctrl-C.
 */
function interrupted(signal: AbortSignal | undefined, err: unknown): CancelError {
  if (signal?.reason instanceof CancelError) return signal.reason;
  return new CancelError('Interrupted.', undefined, { cause: signal?.aborted ? signal.reason : err });
}

/** ` (retry N)` on the trace lines of a request sent again. */
function retrySuffix(tries: Tries): string {
  const sent = tries.retries + tries.rateLimitWaits;
  return sent > 0 ? ` (retry ${sent})` : '';
}

export type { ExpectedShape } from './response.js';
export type { Headers, Timeouts } from './transport.js';
export type { HttpClientOptions, HttpResponse, QueryValue, RequestOptions } from './request-types.js';
export { assertSafeTransport, joinUrl } from './url.js';

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
  private dispatcher?: Transport;
  /** The agent being built (undici is loaded on the first request that needs it). */
  private building?: Promise<Transport>;
  private readonly ownsDispatcher: boolean;
  private readonly env: Record<string, string | undefined>;
  private readonly maxBodyBytes: number;
  /** Shared by every request of this client: a run over many ids stops when the service is gone. */
  readonly breaker: Breaker;
  /**
   * The latest time the service's answers stated in their `Date` header (ms
   * since the epoch, to the second), undefined before an answer with one: the
   * service's own clock had passed it when the answer was received. Sync
   * compares the service's timestamps with it (src/sync/run.ts), not with ours.
   */
  get serviceTime(): number | undefined {
    return this.latestDate;
  }
  private latestDate?: number;

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

  /** The key as it may be shown (its mode and last characters); worked out once, as every answer's mode check names it. */
  get maskedKey(): string {
    this.masked ??= maskKey(this.apiKey);
    return this.masked;
  }
  private masked?: string;

  private getDispatcher(): Promise<Transport> {
    this.building ??= import('./undici-agents.js').then((m) => (this.dispatcher = m.makeDispatcher(this.baseUrl, this.env, this.timeouts)));
    return this.building;
  }

  /** Closes the connections kept alive, so the process can exit at once. */
  async close(): Promise<void> {
    const d = this.ownsDispatcher ? await this.building?.catch(() => undefined) : undefined;
    this.building = undefined;
    this.dispatcher = this.ownsDispatcher ? undefined : this.dispatcher;
    await d?.close();
  }

  /**
   * Sends a request with the retry policy. Throws a typed ApiError for non-2xx
   * answers (unless throwOnError is false), NetworkError when no answer came,
   * UnknownOutcomeError when a POST was lost after it may have been sent,
   * ProtocolError for a 2xx answer that is not the API's JSON (with `expect`),
   * and RedirectError for a redirect it will not follow.
   */
  async request<T = unknown>(opts: RequestOptions): Promise<HttpResponse<T>> {
    const out = this.outgoing(opts);
    const tries: Tries = { retries: 0, rateLimitWaits: 0, redirects: 0 };
    for (;;) {
      const got = await this.attempt(out, tries);
      if (this.followed(out, got, tries)) continue;
      const ok = got.status !== undefined && got.status >= 200 && got.status < 300;
      if (!ok && (await this.waitedToRetry(out, got, tries))) continue;
      return this.answer<T>(out, got as Attempt & { status: number }, ok, tries);
    }
  }

  /** The request's URL, headers and body; refuses at once a keyed route without a key. */
  private outgoing(opts: RequestOptions): Outgoing {
    const method = opts.method.toUpperCase();
    const base = this.parsedBase();
    const url = joinParsed(base.origin, base.path, opts.path, opts.query);
    const relPath = url.pathname.slice(base.path.length) + url.search;
    const auth = opts.auth !== false;
    if (auth && !this.apiKey) {
      // No key at all: the service would answer 404 'API key is required'; say it plainly instead.
      throw new AuthError('No API key is configured.', LOGIN_HINT);
    }
    // Compression is not asked for: the answers are small, and inflating costs
    // CPU on every request of a bulk run. A server that compresses anyway is decoded.
    const headers: Record<string, string> = { accept: opts.accept ?? 'application/json', 'accept-encoding': 'identity', 'user-agent': this.userAgent };
    if (auth && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    // A call's own signal replaces the client's (Ctrl-C), on purpose: a bulk run
    // finishes the POSTs in flight when Ctrl-C comes (bulk/sending.ts), so it
    // sends them with a signal of its own that Ctrl-C does not abort.
    return { opts, method, url, relPath, auth, signal: opts.signal ?? this.signal, headers, payload };
  }

  private parsedBase(): { origin: string; path: string } {
    if (!this.base) {
      const b = new URL(this.baseUrl);
      this.base = { origin: b.origin, path: b.pathname.replace(/\/+$/, '') };
    }
    return this.base;
  }

  /** Sends the request once: the answer or the network error, traced and told to the breaker. */
  private async attempt(out: Outgoing, tries: Tries): Promise<Attempt> {
    const { method, url, signal } = out;
    const suffix = retrySuffix(tries);
    // The trace's lines are only made when there is a trace (-v): a run of thousands of requests made them for nothing.
    const tracing = this.traceFn !== undefined;
    if (tracing) this.trace(`→ ${method} ${url.pathname}${url.search}${suffix}`);
    if (tracing && suffix === '' && tries.redirects === 0 && out.auth) this.trace(`  Authorization: Bearer ${this.maskedKey}`);
    if (this.breaker.isOpen) throw this.gone();
    const started = this.now();
    const got: Attempt = { headers: {}, raw: Buffer.alloc(0), ms: 0 };
    try {
      const res = await this.exchangeOnce(out);
      got.headers = res.headers;
      got.raw = res.body;
      got.status = res.status;
      this.noteDate(header(res.headers, 'date'));
    } catch (err) {
      if (isAbort(err, signal)) throw interrupted(signal, err);
      got.code = errorCode(err) ?? 'UNKNOWN';
      got.cause = err;
      if (got.code === 'JOBFIT_TOO_LARGE') {
        throw new ProtocolError(`The answer to ${method} ${out.relPath} is larger than ${sizeText(this.maxBodyBytes)}; it was not read.`, { cause: err });
      }
    }
    got.ms = this.now() - started;
    if (got.status !== undefined && got.status < 500) this.breaker.success();
    else this.breaker.failure(got.status !== undefined ? `HTTP ${got.status}` : describeNetworkError(got.code, this.timeouts));
    if (tracing) this.trace(got.status !== undefined ? `← ${got.status} ${got.ms}ms${suffix}` : `← ${got.code} after ${got.ms}ms${suffix}`);
    return got;
  }

  /** The service's clock from an answer's Date header (serviceTime); the answers of one second share their header, parsed once. */
  private noteDate(text: string | undefined): void {
    if (text === this.lastDateText) return;
    this.lastDateText = text;
    const date = Date.parse(text ?? '');
    if (Number.isFinite(date) && date > (this.latestDate ?? Number.NEGATIVE_INFINITY)) this.latestDate = date;
  }
  private lastDateText?: string;

  /** One exchange: on the kept-alive connections, or (`fresh`) on a connection opened for it alone and closed after. */
  private async exchangeOnce(out: Outgoing) {
    const { method, url, signal } = out;
    // The embedded stub (a dispatcher given, in this process) has no connections to be stale.
    const own = out.opts.fresh && this.ownsDispatcher ? (await import('./undici-agents.js')).makeDispatcher(this.baseUrl, this.env, this.timeouts) : undefined;
    try {
      return await exchange(own ?? this.dispatcher ?? (await this.getDispatcher()), url, method, out.headers, out.payload, signal, this.timeouts, this.maxBodyBytes);
    } finally {
      void own?.destroy().catch(() => {});
    }
  }

  /** True when the answer is a redirect to follow (the URL moves); a redirect it will not follow throws, unless the caller takes any answer. */
  private followed(out: Outgoing, got: Attempt, tries: Tries): boolean {
    const facts = { method: out.method, status: got.status, location: header(got.headers, 'location'), url: out.url, baseOrigin: this.parsedBase().origin, redirects: tries.redirects };
    const redirect = decideRedirect(facts);
    if (!redirect) return false;
    this.trace(redirectTrace(redirect));
    if (redirect.follow) {
      tries.redirects++;
      out.url = redirect.target;
      return true;
    }
    if (out.opts.throwOnError !== false) throw redirectError(redirect, facts, out.relPath, (t) => this.redact(t));
    return false;
  }

  /**
   * After a failed attempt: true once the wait before the next one is over;
   * false when the answer is final. With no answer at all and no retry left,
   * throws the network error (or UnknownOutcomeError for a lost write).
   */
  private async waitedToRetry(out: Outgoing, got: Attempt, tries: Tries): Promise<boolean> {
    const { method, signal } = out;
    const ra = got.headers['retry-after'];
    const facts = { method, path: out.relPath, retries: tries.retries, rateLimitWaits: tries.rateLimitWaits, status: got.status, retryAfter: Array.isArray(ra) ? ra[0] : ra, errorCode: got.code, nowMs: this.now() };
    const decision = decideRetry(facts, this.retry, this.random);
    if (decision.retry) {
      this.trace(`  waiting ${decision.delayMs}ms before retry ${tries.retries + tries.rateLimitWaits + 1} (${decision.reason})`);
      if (this.breaker.isOpen) throw this.gone();
      try {
        await this.sleep(decision.delayMs, signal ? AbortSignal.any([signal, this.breaker.signal]) : this.breaker.signal);
      } catch (err) {
        if (this.breaker.isOpen && !signal?.aborted) throw this.gone();
        if (isAbort(err, signal)) throw interrupted(signal, err);
        throw err;
      }
      if (decision.waited) tries.rateLimitWaits++;
      else tries.retries++;
      return true;
    }
    if (got.status === undefined) throw this.noAnswer(out, got, decision.unknownOutcome);
    return false;
  }

  /** The error of a request that got no answer: a lost write's outcome is unknown; anything else could not reach or was cut off. */
  private noAnswer(out: Outgoing, got: Attempt, unknownOutcome: boolean | undefined): Error {
    const { method, relPath, url } = out;
    const { code, cause } = got;
    const what = describeNetworkError(code, this.timeouts);
    if (unknownOutcome && isNonIdempotent(method)) {
      return new UnknownOutcomeError(`${method} ${relPath} to ${this.baseUrl} was lost (${what}); it may or may not have been done.`, { url: url.toString(), code, cause, requestSent: true });
    }
    const message = classifyNetworkError(code) === 'dropped' ? `No complete answer from ${this.baseUrl} to ${method} ${relPath} (${what}).` : `Could not reach ${this.baseUrl} (${what}).`;
    const slow = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'JOBFIT_TOTAL_TIMEOUT';
    const hint = slow ? 'the service is slow or stalled; JOBFIT_TIMEOUT (seconds) waits longer' : undefined;
    return new NetworkError(message, { url: url.toString(), code, cause, hint });
  }

  /** The final answer: read and checked as the caller expects, or the typed error of a non-2xx one. */
  private async answer<T>(out: Outgoing, got: Attempt & { status: number }, ok: boolean, tries: Tries): Promise<HttpResponse<T>> {
    const { method, relPath, opts } = out;
    const { status, headers } = got;
    const limits = { maxBytes: this.maxBodyBytes, apiKey: this.apiKey, trace: (line: string) => this.trace(line) };
    const contentType = header(headers, 'content-type');
    const done = (data: unknown): HttpResponse<T> => ({ status, headers, data: data as T, retries: tries.retries + tries.rateLimitWaits, durationMs: got.ms });
    if (ok && opts.expect === 'bytes') {
      const bytes = await readBytes(got.raw, headers, method, relPath, status, limits);
      checkContentType(contentType, opts.accept ?? 'application/json', status, method, relPath);
      return done(bytes);
    }
    const text = await readText(got.raw, headers, method, relPath, status, limits);
    const { data, kind } = parseBody(text, contentType);
    if (!ok) {
      if (opts.throwOnError === false) return done(data);
      throw this.refused(out, got, data);
    }
    if (opts.expect) checkShape(opts.expect, data, kind, text, contentType, status, method, relPath);
    checkMode(data, this.keyMode, this.maskedKey, method, relPath);
    return done(data);
  }

  /** The typed error of a non-2xx answer; a write the server failed (5xx but 503) may have happened. */
  private refused(out: Outgoing, got: Attempt & { status: number }, data: unknown): Error {
    const { method, relPath, url } = out;
    const { status } = got;
    const err = errorFromResponse({ status, method, path: relPath, body: data, headers: got.headers });
    if (isNonIdempotent(method) && status >= 500 && status !== 503) {
      return new UnknownOutcomeError(`${err.message}; it may or may not have been done.`, { url: url.toString(), code: String(status), cause: err, requestSent: true, hint: err.hint });
    }
    return err;
  }

  private redact(text: string): string {
    return redactKey(text, this.apiKey);
  }
}
