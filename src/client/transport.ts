/**
 * The transport (after stripe-node's net/NodeHttpClient): one exchange
 * through an undici dispatcher, with keep-alive, timeouts (connect, headers,
 * body, and a deadline for the whole answer), proxies from the environment,
 * a size cap while reading, and Ctrl-C. It knows nothing of the API: retries
 * are decided in retry.ts, redirects in redirect.ts, the answer is read and
 * checked in response.ts, and http.ts puts them together.
 */
import type { Dispatcher } from 'undici';

export type Headers = Record<string, string | string[] | undefined>;

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

/** What the client needs of a dispatcher: undici's Agent, or the embedded stub's in this process (stub/in-process.ts). */
export type Transport = Pick<Dispatcher, 'dispatch' | 'close'>;

/** The first `code` along an error and its causes (undici wraps them). */
export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Ctrl-C (the signal) or an abort undici reports. */
export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (err instanceof Error && (err.name === 'AbortError' || errorCode(err) === 'UND_ERR_ABORTED'));
}

/** A network error code in a few words, for the one sentence the user sees. */
export function describeNetworkError(code: string | undefined, t: Timeouts): string {
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
    case 'JOBFIT_PROXY_CLOSED':
      return 'the proxy (HTTPS_PROXY) closed the connection before the tunnel was open';
    case 'JOBFIT_PROXY_REFUSED':
      return 'the proxy (HTTPS_PROXY) refused to open the tunnel';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'EPIPE':
      return 'the connection was closed';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

export function errorWithCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** 64 MB, 512 KB: a byte count for a message. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** An answer as it came off the wire. */
export interface RawResponse {
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
export function exchange(dispatcher: Transport, url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, t: Timeouts, maxBytes: number): Promise<RawResponse> {
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

/** A header's first value. */
export function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}
