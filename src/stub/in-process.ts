/**
 * The CLI's embedded stub, answered in this process: no listener, no socket,
 * no HTTP parser on either side. It speaks the one call of undici's
 * Dispatcher that the client's transport makes (`dispatch` with a handler of
 * onConnect/onHeaders/onData/onComplete/onError, client/transport.ts), so
 * the client is the same code whether the stub is here or across a network;
 * what the stub answers comes from the same routes and rules as over HTTP
 * (app.ts). A command against the embedded stub so loads neither node:http
 * nor undici (docs/performance.md).
 */
import type { Dispatcher } from 'undici';
import { type Incoming, createAnswerer } from './app.js';
import { replyParts } from './http/reply.js';
import type { Store } from './store.js';

/**
 * The origin the embedded stub is reached at. Nothing can listen on port 0,
 * so a request that ever went past the in-process dispatcher (a new code
 * path with a dispatcher of its own) fails at once instead of reaching some
 * other server on this machine with the seed's public key.
 */
export const IN_PROCESS_ORIGIN = 'http://127.0.0.1:0';

/** The part of a Dispatcher the client uses (client/transport.ts, Transport). */
export type InProcessDispatcher = Pick<Dispatcher, 'dispatch' | 'close'>;

/** The Authorization and Content-Type of a request's headers (the transport gives a plain object). */
function headersOf(headers: Dispatcher.DispatchOptions['headers']): Incoming['headers'] {
  const out: Incoming['headers'] = {};
  if (!headers || typeof headers !== 'object' || Array.isArray(headers) || Symbol.iterator in headers) return out;
  const h = headers as Record<string, string | string[] | undefined>;
  for (const k in h) {
    if (!Object.hasOwn(h, k)) continue;
    const name = k.toLowerCase();
    if (name !== 'authorization' && name !== 'content-type') continue;
    const v = h[k];
    // The first of the name, as a lookup by name would find it.
    if (!(name in out)) out[name] = Array.isArray(v) ? v[0] : v;
  }
  return out;
}

/** Resolves after node's event loop has gone round once (its timers, I/O and signal handlers ran). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How long answers may follow one another before the event loop is let go
 * round. The answers are synchronous (SQLite) and the client's await chain
 * otherwise only ever runs microtasks, so a run of thousands of requests would
 * never let node deliver Ctrl-C, SIGTERM or SIGHUP to their handlers, fire a
 * timer or write a progress line (issue 43, item 4). A turn before every
 * answer cost a run of 20,000 requests a tenth of its time; one every few
 * milliseconds holds the signal's bound as well (docs/performance.md). The
 * answers' interleaving then depends on time, as over a network, so an `--all`
 * list's order can change from run to run (docs/exports.md, "Order"); its rows
 * do not.
 */
const TURN_EVERY_MS = 4;

/**
 * Header names and values as the raw bytes undici hands a handler, kept for
 * the ones that recur (a few dozen). Each is its own small allocation
 * (allocUnsafeSlow), not a slice of node's shared pool: a kept slice pins the
 * pool's whole slab (64 KB on Node 24), and with a Content-Length that
 * differs from answer to answer the kept ones pinned 13.5 MB in an embedded
 * report of 100,130 test takers (a heap snapshot: JSArrayBufferData held by
 * this map; issue 47).
 */
const latin1Bytes = new Map<string, Buffer>();
function latin1(s: string): Buffer {
  let b = latin1Bytes.get(s);
  if (b === undefined) {
    b = Buffer.allocUnsafeSlow(s.length);
    b.write(s, 'latin1');
    if (latin1Bytes.size >= 512) latin1Bytes.clear();
    latin1Bytes.set(s, b);
  }
  return b;
}

/** What node:http adds to every answer that the client reads (HttpClient.serviceTime): the Date, to the second. */
let dateAt = 0;
let dateText = '';
function httpDate(): string {
  const now = Date.now();
  const second = now - (now % 1000);
  if (second !== dateAt) {
    dateAt = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** The raw header list undici gives a handler (name, value, …): the Date first, then the reply's own. */
function rawHeaders(headers: Record<string, string | number>): Buffer[] {
  const raw = [latin1('date'), latin1(httpDate())];
  for (const k in headers) raw.push(latin1(k), latin1(String(headers[k])));
  return raw;
}

/** A dispatcher that hands each request to the stub's routes and its answer back to the handler, as undici would. */
export function inProcessDispatcher(opts: { store: Store; origin: () => string; minimalFields?: boolean }): InProcessDispatcher {
  const answer = createAnswerer({ ...opts, bodyCache: false });
  let closed = false;
  let turned = performance.now();
  // The handler is the transport's, in undici's first form (onConnect … onComplete), which undici 7 still calls.
  const dispatch = (req: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    let done = false;
    const end = (err?: Error) => {
      if (done) return;
      done = true;
      if (err) handler.onError?.(err);
    };
    void (async () => {
      // The abort function first, as undici does: the transport's timeouts and Ctrl-C call it.
      handler.onConnect?.((err) => end(err ?? new Error('aborted')));
      if (closed) return end(new Error('The in-process stub was closed.'));
      // The event loop goes round before this answer when the answers have had it for TURN_EVERY_MS.
      if (performance.now() - turned >= TURN_EVERY_MS) {
        await turn();
        turned = performance.now();
      } else await undefined;
      if (done) return;
      const body = req.body == null ? '' : typeof req.body === 'string' ? req.body : req.body instanceof Uint8Array ? Buffer.from(req.body).toString('utf8') : '';
      const reply = await answer(req.method, req.path, headersOf(req.headers), body);
      if (done) return;
      const parts = replyParts(reply);
      // The answer is whole already, so a handler's `false` (undici's "pause") changes nothing; only an abort stops it.
      handler.onHeaders?.(reply.status, rawHeaders(parts.headers), () => {}, '');
      if (done) return;
      const bytes = typeof parts.body === 'string' ? Buffer.from(parts.body) : parts.body;
      if (req.method !== 'HEAD' && bytes.length > 0) handler.onData?.(bytes);
      if (done) return;
      done = true;
      handler.onComplete?.(null);
    })().catch((err: unknown) => end(err instanceof Error ? err : new Error(String(err))));
    return true;
  };
  const close = (() => {
    closed = true;
    return Promise.resolve();
  }) as Dispatcher['close'];
  return { dispatch, close };
}
