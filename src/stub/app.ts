/**
 * The stub's request handling, assembled: faults, then /v1 (routes/v1.ts) or
 * a v2 route of the table (api/route-match.ts → routes/index.ts HANDLERS), with
 * its key checked and live GETs answered from the cache (http/cache.ts);
 * anything else goes to the pages (the participant page) or is a 404.
 * No framework: a request costs a few microseconds of our own code. zod and
 * libphonenumber are loaded on the first POST/PUT only, so start-up stays light.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MSG } from '../api/messages.js';
import { ROUTES } from '../api/routes.js';
import type { FaultInjector } from './faults.js';
import { groupCommitOf } from './group-commit.js';
import type { Auth } from './http/auth.js';
import { parseJsonBody, parseJsonText, respond } from './http/body.js';
import { StubCaches } from './http/cache.js';
import { HttpError, type Reply, error, methodNotAllowed, writeReply } from './http/reply.js';
import { matchRoute } from '../api/route-match.js';
import type { Call } from './routes/call.js';
import { handlerOf } from './routes/index.js';
import type { Store } from './store.js';

export interface AppOptions {
  store: Store;
  origin: () => string;
  faults?: FaultInjector;
  /** Pages outside /v1 and /v2 (the participant page at /take/<token>): return true when handled. */
  pages?: (req: IncomingMessage, res: ServerResponse, store: Store) => boolean | Promise<boolean>;
  /** Play a strict server: "not shown" list items carry only the reference's fields (views.ts). */
  minimalFields?: boolean;
  /**
   * Keep the serialised bodies of live GETs (http/cache.ts) for the next
   * client asking the same: on for `stub serve`, whose clients poll; the
   * embedded stub (in-process.ts) turns it off, as its one client, a
   * command, reads each item once: the kept bodies (up to 8 MB) were only
   * memory and work in the command's process.
   */
  bodyCache?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function safeDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A request as the routes see it: its headers, and its body read as a JSON object on demand. */
export interface Incoming {
  headers: { authorization?: string; 'content-type'?: string };
  body(): Promise<Record<string, unknown>>;
}

/** What every request of one app shares. */
interface App {
  opts: AppOptions;
  store: Store;
  caches: StubCaches;
  /** Messages of unexpected errors already logged (once each). */
  loggedFaults: Set<string>;
  /** opts.origin() at a database version (originAt). */
  origin: { version: string; value: string };
}

function appOf(opts: AppOptions): App {
  return { opts, store: opts.store, caches: new StubCaches(opts.store, groupCommitOf(opts.store)), loggedFaults: new Set(), origin: { version: '', value: '' } };
}

/**
 * The origin of the URLs in an answer at the database's `version`: asked of
 * opts.origin() once per version, not per request. It is a constant (a
 * publishing `stub serve`) or the stored origin of the last one (the
 * embedded stub: store.ts originOf, a read of the meta table), which moves
 * only with the database, so the version says when to ask again.
 */
function originAt(app: App, version: string): string {
  if (app.origin.version !== version) app.origin = { version, value: app.opts.origin() };
  return app.origin.value;
}

export function createApp(opts: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const app = appOf(opts);
  return (req, res) => {
    handle(app, req, res).catch((err: unknown) => {
      const reply = err instanceof HttpError ? err.reply : faultReply(app, err);
      if (!res.headersSent) respond(req, res, reply);
      else res.destroy();
    });
  };
}

/**
 * The answer to an unexpected error. A disk that is full (507) or read-only
 * (503) is named in the answer and logged once per condition, not per write;
 * anything else is a 500 and its stack is logged once per distinct message.
 */
function faultReply({ store, loggedFaults }: App, err: unknown): Reply {
  const disk = store.diskError(err);
  if (disk) {
    store.noteDiskCondition(disk.condition);
    return error(disk.condition === 'full' ? 507 : 503, MSG.notStored(disk.reason));
  }
  const message = err instanceof Error ? err.message : String(err);
  if (!loggedFaults.has(message) && loggedFaults.size < 100) {
    loggedFaults.add(message);
    store.warn(err instanceof Error && err.stack ? err.stack : message);
  }
  return error(500, 'Internal server error');
}

/** The injected fault of an API request (--faults): answered here, a connection to drop after the write, or none. */
async function injectFault(faults: FaultInjector | undefined, method: string, path: string, res: ServerResponse): Promise<'answered' | 'drop' | 'none'> {
  if (!faults?.enabled || !(path.startsWith('/v2/') || path.startsWith('/v1/'))) return 'none';
  const decision = faults.decide(method, path);
  const latency = faults.latencyMs();
  if (latency > 0) await sleep(latency);
  if (decision.kind === '429') {
    writeReply(res, { status: 429, json: { error: 'Too many requests' }, headers: { 'retry-after': decision.retryAfter } });
    return 'answered';
  }
  if (decision.kind === '5xx') {
    writeReply(res, error(decision.status, 'Internal server error'));
    return 'answered';
  }
  return decision.kind === 'drop' ? 'drop' : 'none';
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const fault = await injectFault(app.opts.faults, method, path, res);
  if (fault === 'answered') return;

  const reply = await route(app, { headers: req.headers, body: () => parseJsonBody(req) }, method, path, q < 0 ? '' : url.slice(q + 1));
  if (reply === null) {
    if (app.opts.pages && (await app.opts.pages(req, res, app.store))) return;
    return writeReply(res, error(404, MSG.notFound));
  }
  if (fault === 'drop') {
    // The write is committed; the client never hears back (bulk invite must reconcile).
    req.socket.destroy();
    return;
  }
  respond(req, res, reply);
}

/** /v1, or a v2 route of the table (its key checked, live GETs from the cache); null for a path outside both. */
async function route(app: App, req: Incoming, method: string, path: string, search: string): Promise<Reply | null> {
  const { store, caches } = app;
  const seg = path.split('/');
  // seg[0] is '' (leading slash); a trailing slash is tolerated.
  if (seg[seg.length - 1] === '' && seg.length > 2) seg.pop();
  if (seg[1] === 'v1') {
    const { handleV1 } = await import('./routes/v1.js');
    return handleV1(store, app.opts.origin(), method, seg.slice(2), new URLSearchParams(search), req.body, req.headers['content-type']);
  }
  if (seg[1] !== 'v2') return null;
  const m = matchRoute(seg.slice(2).map(safeDecode));
  if (!m) return error(404, MSG.notFound);
  const name = m.path.methods[method as 'GET'];
  if (name === undefined) return methodNotAllowed(m.path.allowed);
  // The healthcheck: no key, nothing cached.
  if (!ROUTES[name].auth) return ((await handlerOf(name)) as () => Reply)();
  const version = caches.version();
  const auth = caches.auth(req.headers.authorization);
  if ('status' in auth) return auth;
  // Live GETs are answered from a cache of serialised bodies while the
  // database is unchanged (by this or any other process): lists and results
  // are read far more often than they change, by `stub serve`'s clients (the
  // embedded stub's one client reads each once: AppOptions.bodyCache).
  const cacheable = method === 'GET' && auth.mode === 'live' && app.opts.bodyCache !== false;
  let cacheKey = '';
  if (cacheable) {
    cacheKey = `${auth.accountId} ${path}?${search}`;
    const hit = caches.body(cacheKey, version);
    if (hit) return hit;
  }
  const loaded = handlerOf(name);
  const handler = (loaded instanceof Promise ? await loaded : loaded) as (c: Call) => Reply | Promise<Reply>;
  const reply = await handleRoute(app, handler, { params: m.params, method, search, auth, origin: originAt(app, version), version }, req);
  if (cacheable && 'json' in reply) {
    const body = Buffer.from(JSON.stringify(reply.json));
    caches.remember(cacheKey, version, reply.status, body);
    return { status: reply.status, raw: body, headers: reply.headers };
  }
  return reply;
}

/** Runs a v2 handler; a refusal it throws (fail()) is its reply. */
async function handleRoute(
  app: App,
  handler: (c: Call) => Reply | Promise<Reply>,
  call: { params: string[]; method: string; search: string; auth: Auth; origin: string; version: string },
  req: Incoming,
): Promise<Reply> {
  try {
    return await handler({
      store: app.store,
      origin: call.origin,
      method: call.method,
      params: call.params,
      query: new URLSearchParams(call.search),
      auth: call.auth,
      body: req.body,
      refs: app.caches.refs,
      // Reads are shared only by a live key's GETs: a write reads what it changes itself.
      takerReads: call.method === 'GET' && call.auth.mode === 'live' ? (id) => app.caches.takers.of(call.version, call.auth.accountId, id) : undefined,
      minimal: app.opts.minimalFields,
    });
  } catch (err) {
    if (err instanceof HttpError) return err.reply;
    throw err;
  }
}

/**
 * The app without a server, for the CLI's embedded stub (in-process.ts): the
 * answer to an API request given as its parts, the same routes and rules as
 * over HTTP but no faults and no pages (those are for `stub serve`); a path
 * outside /v1 and /v2 is a 404.
 */
export function createAnswerer(opts: Omit<AppOptions, 'faults' | 'pages'>): (method: string, url: string, headers: Incoming['headers'], body: string) => Promise<Reply> {
  const app = appOf(opts);
  return async (rawMethod, url, headers, body) => {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = rawMethod === 'HEAD' ? 'GET' : rawMethod;
    try {
      return (await route(app, { headers, body: async () => parseJsonText(body) }, method, path, q < 0 ? '' : url.slice(q + 1))) ?? error(404, MSG.notFound);
    } catch (err) {
      return err instanceof HttpError ? err.reply : faultReply(app, err);
    }
  };
}
