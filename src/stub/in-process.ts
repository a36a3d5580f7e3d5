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
import { createAnswerer } from './app.js';
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

function headerOf(headers: Dispatcher.DispatchOptions['headers'], name: string): string | undefined {
  if (!headers || typeof headers !== 'object' || Array.isArray(headers) || Symbol.iterator in headers) return undefined;
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
}

/** Resolves after node's event loop has gone round once (its timers, I/O and signal handlers ran). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A dispatcher that hands each request to the stub's routes and its answer back to the handler, as undici would. */
export function inProcessDispatcher(opts: { store: Store; origin: () => string; minimalFields?: boolean }): InProcessDispatcher {
  const answer = createAnswerer(opts);
  let closed = false;
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
      // A turn of the event loop before each answer: the answers are synchronous (SQLite) and the
      // client's await chain otherwise only ever runs microtasks, so a run of thousands of requests
      // never let node deliver Ctrl-C, SIGTERM or SIGHUP to their handlers (issue 43, item 4).
      await turn();
      if (done) return;
      const body = req.body == null ? '' : typeof req.body === 'string' ? req.body : req.body instanceof Uint8Array ? Buffer.from(req.body).toString('utf8') : '';
      const reply = await answer(req.method, req.path, { authorization: headerOf(req.headers, 'authorization'), 'content-type': headerOf(req.headers, 'content-type') }, body);
      if (done) return;
      const parts = replyParts(reply);
      // What node:http adds to every answer that the client reads (HttpClient.serviceTime).
      const headers: Record<string, string | number> = { date: new Date().toUTCString(), ...parts.headers };
      const raw = Object.entries(headers).flatMap(([k, v]) => [Buffer.from(k, 'latin1'), Buffer.from(String(v), 'latin1')]);
      // The answer is whole already, so a handler's `false` (undici's "pause") changes nothing; only an abort stops it.
      handler.onHeaders?.(reply.status, raw, () => {}, '');
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
