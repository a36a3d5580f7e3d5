/**
 * The local webhook receiver behind `jobfit webhook listen`: an HTTP server
 * that accepts event deliveries, answers quickly (so the sender's retry clock
 * is not held by a slow app), shows each event once, and optionally re-posts
 * it to the developer's app (forward.ts) through a bounded queue.
 *
 * Anyone who can reach the port can post to it, a web page in the developer's
 * browser included (a form, or a DNS-rebinding page that names its own host).
 * So only a delivery that looks like one is believed: POST, JSON, a `Host`
 * that is this machine (or a tunnel's name given with --allow-host), no
 * foreign `Origin` (servers send none; browsers always do), an event id and
 * type of a sane shape, and, when a signing secret is known, a valid Standard
 * Webhooks signature made within the tolerance. Everything else gets a 4xx and
 * is neither shown nor forwarded.
 *
 * Every resource is bounded (docs/webhooks.md states the numbers): bodies are
 * capped and bodies in flight share a budget; connections are capped; the
 * duplicate check remembers ids for the replay window (twice the tolerance),
 * up to a cap; forwards run a few at a time from a queue capped in events and
 * bytes. Past a bound the sender gets 503 with Retry-After, and its retry
 * brings the event again: nothing is dropped silently.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TOLERANCE_S } from '../api/webhook-signature.js';
import type { ForwardResult } from './forward.js';
import { BodyTooLarge, type Budget, Busy } from '../core/bounded-body.js';
import { DEFAULT_MAX_DELIVERY_BYTES, IN_FLIGHT_BODY_BYTES, readBody } from './body.js';
import { allowedHostNames, type EventRef, formatBytes, gateRequest, LINGER_MS, parseDelivery, send, ReceiverTally, verifySigned, type WebhookEvent } from './gate.js';
import { MAX_REMEMBERED_IDS, ReplayWindow } from './replay.js';
import { FORWARD_QUEUE_EVENTS, FORWARD_RETRY_MS, type ForwardCounts, ForwardQueue, safely, type Unforwarded, unforwardedItem } from './forward-queue.js';

/** Open connections at once; past it node refuses new ones (a sender sees a reset and retries). */
export const MAX_CONNECTIONS = 512;

export interface ReceiverHooks {
  /** A new event (first delivery of its id, passing the filter). */
  onEvent(event: WebhookEvent, raw: string): void;
  /** The app's answer to a forwarded event (each attempt). */
  onForward?(event: EventRef, result: ForwardResult): void;
  /** Something the developer should know: rejected bodies, duplicates, filtered events. */
  onNote?(message: string): void;
}

export interface ReceiverOptions extends ReceiverHooks {
  host?: string;
  /** Host names accepted in the `Host` header besides this machine's (a tunnel's name). */
  allowHosts?: readonly string[];
  port?: number;
  /** Only these event types are shown; others are acknowledged and skipped. */
  events?: ReadonlySet<string>;
  maxBodyBytes?: number;
  /** Signing secrets a delivery must be signed with (any of them); none: deliveries are not verified. */
  secrets?: readonly string[];
  /** Seconds a signature may be old or ahead (default 300). Ids are remembered for twice that. */
  toleranceSeconds?: number;
  /** Event ids remembered at most (default MAX_REMEMBERED_IDS). */
  maxRememberedIds?: number;
  forwardTo?: string;
  forwardTimeoutMs?: number;
  /** Events waiting for the app at most (default FORWARD_QUEUE_EVENTS). */
  forwardQueueEvents?: number;
  /** Waits between forwards of an event the app did not take (default FORWARD_RETRY_MS). */
  forwardRetryMs?: readonly number[];
  userAgent?: string;
  /** Now, in ms (tests move it). */
  now?: () => number;
  /** How long the rest of a refused body is still read after the answer (default LINGER_MS; tests shorten it). */
  lingerMs?: number;
}

export interface Receiver {
  /** Where to deliver from this machine, e.g. http://127.0.0.1:40123/webhooks */
  url: string;
  /** The address and port really bound (`0.0.0.0:40123` for every interface). */
  bound: string;
  /** Events shown (after dedupe and filter). */
  readonly shown: number;
  /** Requests refused (wrong host, origin, content type, shape, size, signature). */
  readonly refused: number;
  /** Deliveries asked to come again later (503: a bound was reached). */
  readonly deferred: number;
  readonly forwards: ForwardCounts;
  /** Adds a secret deliveries may be signed with (the local stub's, known once linked). */
  addSecret(secret: string): void;
  /** Stops, and returns the events the app did not take (empty without --forward-to). */
  close(): Promise<Unforwarded[]>;
}

export const RECEIVER_PATH = '/webhooks';

/** Everything a request of one receiver reaches. */
interface Context {
  o: ReceiverOptions;
  limit: number;
  budget: Budget;
  now: () => number;
  toleranceS: number;
  secrets: string[];
  allowed: ReadonlySet<string>;
  replay: ReplayWindow;
  queue: ForwardQueue;
  tally: ReceiverTally;
}

function handleRequest(c: Context, req: IncomingMessage, res: ServerResponse): void {
  const gate = gateRequest(req.method, req.headers, c.allowed);
  if (gate === 'alive') {
    send(res, 200, { ok: true, listening: true });
    return;
  }
  if (gate !== 'read') {
    req.resume();
    if (gate !== 'method') c.tally.refuse(res, gate);
    else {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST, GET' });
      res.end('Method not allowed: deliver events with POST\n');
    }
    return;
  }
  readBody(req, c.limit, c.budget, () => res.writeContinue()).then(
    (buf) => {
      try {
        take(c, req, res, buf);
      } catch (err) {
        // Nothing a body can hold ends the listener: the delivery is refused and the listener goes on.
        c.tally.note(`Could not handle a delivery: ${(err as Error)?.message ?? String(err)}`);
        if (!res.headersSent) send(res, 400, { error: 'could not handle the delivery' });
      }
    },
    (err) => unreadBody(c, res, err),
  );
}

/** A body that could not be read: too large (413), too much at once (503), or cut off (400). */
function unreadBody(c: Context, res: ServerResponse, err: unknown): void {
  if (res.headersSent) return;
  if (err instanceof BodyTooLarge) {
    c.tally.refuse(res, { status: 413, kind: 'size', message: `Rejected a delivery of ${formatBytes(Number(err.message))} (limit ${formatBytes(c.limit)})`, error: `body larger than ${c.limit} bytes` });
    return;
  }
  if (err instanceof Busy) {
    c.tally.defer(res, 'busy', `Asked a sender to come again: more than ${formatBytes(c.budget.max)} of deliveries arrived at once`, 1);
    return;
  }
  send(res, 400, { error: 'could not read the body' });
}

/** A body read in full: believed (parsed, verified) or refused. */
function take(c: Context, req: IncomingMessage, res: ServerResponse, buf: Buffer): void {
  const d = parseDelivery(buf);
  if ('status' in d) {
    c.tally.refuse(res, d);
    return;
  }
  if (c.secrets.length > 0) {
    const refusal = verifySigned(c.secrets, req.headers, buf, d.event.id, { toleranceSeconds: c.toleranceS, nowMs: c.now() });
    if (refusal) {
      c.tally.refuse(res, refusal);
      return;
    }
  }
  admit(c, req, res, d.event, d.raw, buf.length);
}

/** A believed event: a duplicate, deferred (a bound reached), or shown and queued for the app. */
function admit(c: Context, req: IncomingMessage, res: ServerResponse, event: WebhookEvent, raw: string, bytes: number): void {
  const { o, replay, queue, tally } = c;
  const t = c.now();
  replay.forget(t);
  const before = replay.state(event.id);
  if (before === 'done') {
    send(res, 200, { received: true });
    tally.note(`Duplicate delivery of ${event.id} (${event.type}); already ${o.forwardTo ? 'taken by your app' : 'shown'}`);
    return;
  }
  if (before === 'queued') {
    // The app has not taken it yet: this delivery (a sender's retry, `stub events --resend`) is tried at once.
    send(res, 200, { received: true });
    queue.retryNow(event.id);
    tally.note(`Delivery again of ${event.id} (${event.type}), which your app has not taken yet: forwarding it now`);
    return;
  }
  if (replay.full()) {
    tally.defer(res, 'ids', `Asked a sender to come again: ${replay.maxIds.toLocaleString('en-US')} event ids are remembered for the replay window already`, 30);
    return;
  }
  const filtered = o.events !== undefined && !o.events.has(event.type);
  const forwarding = o.forwardTo !== undefined && !filtered;
  if (forwarding && queue.wouldOverflow(bytes)) {
    tally.defer(res, 'queue', `Asked a sender to come again: ${queue.size} events (${formatBytes(queue.bytes)}) are waiting for your app already`, 5);
    return;
  }
  send(res, 200, { received: true });
  replay.remember(event.id, t, forwarding ? 'queued' : 'done');
  if (filtered) return;
  tally.shown++;
  safely(tally.note, () => o.onEvent(event, raw));
  if (forwarding) queue.add(event, unforwardedItem(event, raw, req.headers, t), bytes);
}

/** Where a receiver bound to `addr` is reached from this machine, and the address really bound. */
export function addressesOf(addr: AddressInfo): { url: string; bound: string } {
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  // Bound to every interface: reached from here as loopback (a Host the checks accept).
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  return { url: `http://${reach}:${addr.port}${RECEIVER_PATH}`, bound: `${host}:${addr.port}` };
}

async function listenOn(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_DELIVERY_BYTES;
  const toleranceS = o.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  const note = (m: string) => o.onNote?.(m);
  const replay = new ReplayWindow(2 * toleranceS * 1000, o.maxRememberedIds ?? MAX_REMEMBERED_IDS);
  const queue = new ForwardQueue({
    forwardTo: o.forwardTo,
    forwardTimeoutMs: o.forwardTimeoutMs,
    userAgent: o.userAgent,
    maxEvents: o.forwardQueueEvents ?? FORWARD_QUEUE_EVENTS,
    retryMs: o.forwardRetryMs ?? FORWARD_RETRY_MS,
    onForward: (e, r) => o.onForward?.(e, r),
    note,
    onTaken: (id) => replay.done(id),
  });
  const c: Context = {
    o,
    limit,
    budget: { used: 0, max: Math.max(limit, IN_FLIGHT_BODY_BYTES) },
    now: o.now ?? Date.now,
    toleranceS,
    secrets: [...(o.secrets ?? [])],
    allowed: allowedHostNames(o.allowHosts, o.host),
    replay,
    queue,
    tally: new ReceiverTally(note, { now: 0, ms: o.lingerMs ?? LINGER_MS }),
  };
  const server: Server = createServer((req, res) => handleRequest(c, req, res));
  // `expect: 100-continue`: node would answer 100 at once; readBody() does, once the body is wanted.
  server.on('checkContinue', (req, res) => handleRequest(c, req, res));
  server.maxConnections = MAX_CONNECTIONS;
  // A sender that opens a connection and says nothing does not hold it for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const { url, bound } = addressesOf(await listenOn(server, o.port ?? 0, o.host ?? '127.0.0.1'));
  const { tally } = c;
  return {
    url,
    bound,
    get shown() {
      return tally.shown;
    },
    get refused() {
      return tally.refused;
    },
    get deferred() {
      return tally.deferred;
    },
    forwards: queue.counts,
    addSecret(secret: string) {
      if (!c.secrets.includes(secret)) c.secrets.push(secret);
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Forwards in flight get a moment to finish; then they are cut off, and no retry starts.
      return queue.close();
    },
  };
}

/** An id as a person reads it: numbers and strings as they are; anything else (an object, a list) as unreadable. */
function idText(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  if (v === undefined || v === null) return '(no id)';
  return '(unreadable id)';
}

/** The id of the resource an event is about, as a short label: `invitation 42`. Any JSON gives a label. */
export function resourceLabel(event: WebhookEvent): string {
  const obj = event.data.object as Record<string, unknown>;
  const kind = typeof obj.object === 'string' ? obj.object : 'object';
  if (kind === 'assigned_assessment') {
    const a = obj.assessment as { short_name?: unknown } | null | undefined;
    const name = typeof a === 'object' && a !== null && typeof a.short_name === 'string' ? a.short_name : '';
    return `test_taker ${idText(obj.test_taker_id)} ${name}`.trim();
  }
  return `${kind} ${idText(obj.id)}`;
}
