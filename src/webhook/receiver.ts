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
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Event } from '../api/schemas.js';
import { DEFAULT_TOLERANCE_S, type VerifyResult, signedHeaders, verifyDelivery } from '../api/webhook-signature.js';
import { type ForwardResult, forward } from './forward.js';
import { hostNameOf, isLoopbackHost } from '../core/loopback.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Bytes of request bodies read at the same time; past it a delivery gets 503 and is retried by its sender. */
export const IN_FLIGHT_BODY_BYTES = 16 * 1024 * 1024;
/** Open connections at once; past it node refuses new ones (a sender sees a reset and retries). */
export const MAX_CONNECTIONS = 512;
/** Event ids remembered for the duplicate check at most; past it (all still within the window) a delivery gets 503. */
export const MAX_REMEMBERED_IDS = 100_000;
/** Forwards to the app in flight at once. */
export const FORWARD_CONCURRENCY = 4;
/** Events waiting for (or being retried to) the app at most, and their bytes; past either a delivery gets 503. */
export const FORWARD_QUEUE_EVENTS = 1000;
export const FORWARD_QUEUE_BYTES = 32 * 1024 * 1024;
/** Waits between forwards of one event that the app did not take (the last repeats while the listener runs). */
export const FORWARD_RETRY_MS: readonly number[] = [1000, 2000, 5000, 10_000, 30_000];
/** On close, how long forwards in flight may still take before they are cut off and kept as not forwarded. */
const CLOSE_GRACE_MS = 2000;
/** An event id: printable ASCII without spaces, at most this long (the stub's are `evt_` + 24 hex). */
const EVENT_ID = /^[\x21-\x7e]{1,200}$/;
/** An event type: dotted lower-case words (`test_taker.created`); types beyond the reference's four are shown too. */
const EVENT_TYPE = /^[a-z0-9_]{1,64}(\.[a-z0-9_]{1,64}){1,3}$/;
/** Delivery headers kept with an event (forwarded to the app, and in the file of events it did not get). */
const KEPT_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'jobfit-signature', 'x-event-type', 'x-delivery-attempt'] as const;

export type WebhookEvent = Event;

/** An event the app has not (yet) taken: what the listener keeps, and writes out when it stops. */
export interface Unforwarded {
  id: string;
  type: string;
  received_at: string;
  attempts: number;
  /** The last answer: `HTTP 500`, `connection refused`, `timed out`, or `not tried` (the listener stopped first). */
  last_error: string;
  headers: Record<string, string>;
  /** The body as received, byte for byte (what the signature covers). */
  body: string;
}

export interface ReceiverHooks {
  /** A new event (first delivery of its id, passing the filter). */
  onEvent(event: WebhookEvent, raw: string): void;
  /** The app's answer to a forwarded event (each attempt). */
  onForward?(event: WebhookEvent, result: ForwardResult): void;
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
}

export interface ForwardCounts {
  /** Events the app took (2xx). */
  delivered: number;
  /** Attempts the app did not take (refused, 5xx, 4xx, 3xx, timed out). */
  failedAttempts: number;
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

class BodyTooLarge extends Error {}
class Busy extends Error {}

/** Bytes of bodies being read now, shared by every request of one receiver. */
interface Budget {
  used: number;
  readonly max: number;
}

function readBody(req: IncomingMessage, limit: number, budget: Budget): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge(`${declared}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = () => {
      settled = true;
      budget.used -= size;
      chunks.length = 0;
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      budget.used += c.length;
      if (size > limit) {
        settle();
        reject(new BodyTooLarge(`${size}`));
        return;
      }
      if (budget.used > budget.max) {
        settle();
        reject(new Busy());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (settled) return;
      const body = Buffer.concat(chunks);
      settle();
      resolve(body);
    });
    req.on('error', (e) => {
      if (settled) return;
      settle();
      reject(e);
    });
    req.on('close', () => {
      if (!settled) {
        settle();
        reject(new Error('the sender closed the connection'));
      }
    });
  });
}

/** A `Host` this receiver answers to: this machine by a loopback name, its bound address, or an allowed name. */
function hostAllowed(hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (!hostHeader) return false;
  const name = hostNameOf(hostHeader);
  return isLoopbackHost(name) || allowed.has(name);
}

function isJsonType(contentType: string | undefined): boolean {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

function keptHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = h[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

/** What the listener knows of an id within the replay window. */
interface Seen {
  until: number;
  /** `queued`: waiting for (or being retried to) the app; `done`: the app took it, or nothing to forward. */
  state: 'queued' | 'done';
}

interface Job {
  event: WebhookEvent;
  item: Unforwarded;
  bytes: number;
  timer?: NodeJS.Timeout;
  inFlight?: AbortController;
}

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget: Budget = { used: 0, max: Math.max(limit, IN_FLIGHT_BODY_BYTES) };
  const now = o.now ?? Date.now;
  const toleranceS = o.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  // A signed delivery is taken only within ±tolerance of its timestamp, so a replay of it comes within
  // twice the tolerance of the first delivery: remembering ids that long catches every replay.
  const rememberMs = 2 * toleranceS * 1000;
  const maxIds = o.maxRememberedIds ?? MAX_REMEMBERED_IDS;
  const secrets = [...(o.secrets ?? [])];
  // Insertion-ordered by arrival: the first entries are the first to expire.
  const seen = new Map<string, Seen>();
  let shown = 0;
  let refused = 0;
  let deferred = 0;
  const counts: ForwardCounts = { delivered: 0, failedAttempts: 0 };
  const note = (m: string) => o.onNote?.(m);
  // A hostile page can post thousands of times: each kind of refusal is noted once.
  const noted = new Set<string>();
  const allowed = new Set<string>();
  for (const h of [...(o.allowHosts ?? []), o.host ?? '127.0.0.1']) {
    const name = hostNameOf(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
    if (name !== '0.0.0.0' && name !== '[::]') allowed.add(name);
  }

  // ---------------------------------------------------------------- forwarding
  const jobs = new Map<string, Job>();
  const ready: Job[] = [];
  let queuedBytes = 0;
  let running = 0;
  let closing = false;
  const maxJobs = o.forwardQueueEvents ?? FORWARD_QUEUE_EVENTS;
  const retryMs = o.forwardRetryMs ?? FORWARD_RETRY_MS;
  const idle = new Set<() => void>();

  const pump = () => {
    while (!closing && running < FORWARD_CONCURRENCY && ready.length > 0) {
      const job = ready.shift()!;
      running++;
      void attemptForward(job).finally(() => {
        running--;
        pump();
        if (running === 0) for (const f of idle) f();
      });
    }
  };

  const attemptForward = async (job: Job) => {
    const ac = new AbortController();
    job.inFlight = ac;
    job.item.attempts++;
    const r = await forward(o.forwardTo!, job.item.body, job.event, job.item.headers, {
      timeoutMs: o.forwardTimeoutMs,
      userAgent: o.userAgent,
      signal: ac.signal,
    });
    job.inFlight = undefined;
    safely(() => o.onForward?.(job.event, r));
    if (r.status !== null && r.status >= 200 && r.status < 300) {
      counts.delivered++;
      jobs.delete(job.item.id);
      queuedBytes -= job.bytes;
      const s = seen.get(job.item.id);
      if (s) s.state = 'done';
      return;
    }
    counts.failedAttempts++;
    job.item.last_error = r.status === null ? (r.error ?? 'failed') : `HTTP ${r.status}`;
    if (closing) return;
    const wait = retryMs[Math.min(job.item.attempts - 1, retryMs.length - 1)] ?? 30_000;
    job.timer = setTimeout(() => {
      job.timer = undefined;
      ready.push(job);
      pump();
    }, wait);
    job.timer.unref?.();
  };

  /** Runs a hook of the caller: whatever it throws is noted, never the end of the listener. */
  const safely = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      note(`Could not handle an event: ${(err as Error)?.message ?? String(err)}`);
    }
  };

  // ---------------------------------------------------------------- requests
  const refuse = (res: ServerResponse, status: number, kind: string, message: string, error: string) => {
    refused++;
    if (!noted.has(kind)) {
      noted.add(kind);
      note(`${message}: ${status} (not shown or forwarded; further ones are refused without a note)`);
    }
    res.setHeader('connection', 'close');
    send(res, status, { error });
  };

  const defer = (res: ServerResponse, kind: string, message: string, retryAfterS: number) => {
    deferred++;
    if (!noted.has(kind)) {
      noted.add(kind);
      note(`${message}: 503 with Retry-After ${retryAfterS} s (the sender delivers it again later; further ones without a note)`);
    }
    res.setHeader('retry-after', String(retryAfterS));
    res.setHeader('connection', 'close');
    send(res, 503, { error: 'busy; retry' });
  };

  const forget = (t: number) => {
    for (const [id, s] of seen) {
      if (s.until > t) break;
      if (s.state === 'queued') continue;
      seen.delete(id);
    }
  };

  const take = (req: IncomingMessage, res: ServerResponse, buf: Buffer) => {
    const raw = buf.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      refuse(res, 400, 'json', `Rejected a delivery with a body that is not JSON (${formatBytes(buf.length)})`, 'body is not JSON');
      return;
    }
    const ev = Event.safeParse(parsed);
    if (!ev.success) {
      refuse(res, 400, 'shape', 'Rejected a JSON body that is not an event (it needs id, type, object "event", created_at, api_version, data.object)', 'body is not an event');
      return;
    }
    const event = ev.data;
    if (!EVENT_ID.test(event.id) || !EVENT_TYPE.test(event.type)) {
      refuse(res, 400, 'id', 'Rejected an event whose id or type is not of the usual shape (ids: up to 200 printable characters; types: dotted lower-case words)', 'bad event id or type');
      return;
    }
    if (secrets.length > 0) {
      const h = signedHeaders(req.headers);
      let r: VerifyResult = { ok: false, reason: 'no secret' };
      for (const s of secrets) {
        r = verifyDelivery(s, h, buf, { toleranceSeconds: toleranceS, nowSeconds: Math.floor(now() / 1000) });
        if (r.ok) break;
      }
      if (!r.ok) {
        refuse(res, 401, 'signature', `Refused a delivery whose signature does not verify (${r.reason})`, 'signature not verified');
        return;
      }
      if (r.scheme === 'legacy' && !noted.has('legacy')) {
        noted.add('legacy');
        note('A delivery was signed only with jobfit-signature, which goes in 0.2.0: the sender should send webhook-signature (Standard Webhooks)');
      }
      if (h.id !== undefined && h.id !== event.id) {
        refuse(res, 401, 'id-header', 'Refused a signed delivery whose webhook-id is not the event id', 'webhook-id does not match the event');
        return;
      }
    }
    const t = now();
    forget(t);
    const before = seen.get(event.id);
    if (before?.state === 'done') {
      send(res, 200, { received: true });
      note(`Duplicate delivery of ${event.id} (${event.type}); already ${o.forwardTo ? 'taken by your app' : 'shown'}`);
      return;
    }
    if (before?.state === 'queued') {
      // The app has not taken it yet: this delivery (a sender's retry, `stub events --resend`) is tried at once.
      send(res, 200, { received: true });
      const job = jobs.get(event.id);
      if (job && job.timer) {
        clearTimeout(job.timer);
        job.timer = undefined;
        ready.unshift(job);
        pump();
      }
      note(`Delivery again of ${event.id} (${event.type}), which your app has not taken yet: forwarding it now`);
      return;
    }
    if (seen.size >= maxIds) {
      defer(res, 'ids', `Asked a sender to come again: ${maxIds.toLocaleString('en-US')} event ids are remembered for the replay window already`, 30);
      return;
    }
    const filtered = o.events !== undefined && !o.events.has(event.type);
    const forwarding = o.forwardTo !== undefined && !filtered;
    if (forwarding && (jobs.size >= maxJobs || queuedBytes + buf.length > FORWARD_QUEUE_BYTES)) {
      defer(res, 'queue', `Asked a sender to come again: ${jobs.size} events (${formatBytes(queuedBytes)}) are waiting for your app already`, 5);
      return;
    }
    send(res, 200, { received: true });
    seen.set(event.id, { until: t + rememberMs, state: forwarding ? 'queued' : 'done' });
    if (filtered) return;
    shown++;
    safely(() => o.onEvent(event, raw));
    if (forwarding) {
      const item: Unforwarded = {
        id: event.id,
        type: event.type,
        received_at: new Date(t).toISOString(),
        attempts: 0,
        last_error: 'not tried',
        headers: keptHeaders(req.headers),
        body: raw,
      };
      const job: Job = { event, item, bytes: buf.length };
      jobs.set(event.id, job);
      queuedBytes += job.bytes;
      ready.push(job);
      pump();
    }
  };

  const server: Server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, allowed)) {
      req.resume();
      refuse(res, 403, 'host', `Refused a request for host "${req.headers.host ?? ''}" (this listener answers to localhost; a tunnel's host name needs --allow-host)`, 'host not allowed');
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      send(res, 200, { ok: true, listening: true });
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST, GET' });
      res.end('Method not allowed: deliver events with POST\n');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) {
      req.resume();
      refuse(res, 403, 'origin', `Refused a request from a web page (Origin ${origin})`, 'foreign origin');
      return;
    }
    if (!isJsonType(req.headers['content-type'])) {
      req.resume();
      refuse(res, 415, 'type', `Refused a delivery that is not JSON (content-type ${req.headers['content-type'] ?? 'none'})`, 'content-type must be application/json');
      return;
    }
    readBody(req, limit, budget).then(
      (buf) => {
        try {
          take(req, res, buf);
        } catch (err) {
          // Nothing a body can hold ends the listener: the delivery is refused and the listener goes on.
          note(`Could not handle a delivery: ${(err as Error)?.message ?? String(err)}`);
          if (!res.headersSent) send(res, 400, { error: 'could not handle the delivery' });
        }
      },
      (err) => {
        if (res.headersSent) return;
        if (err instanceof BodyTooLarge) {
          refuse(res, 413, 'size', `Rejected a delivery of ${formatBytes(Number(err.message))} (limit ${formatBytes(limit)})`, `body larger than ${limit} bytes`);
          return;
        }
        if (err instanceof Busy) {
          defer(res, 'busy', `Asked a sender to come again: more than ${formatBytes(budget.max)} of deliveries arrived at once`, 1);
          return;
        }
        send(res, 400, { error: 'could not read the body' });
      },
    );
  });
  server.maxConnections = MAX_CONNECTIONS;
  // A sender that opens a connection and says nothing does not hold it for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  // Bound to every interface: reached from here as loopback (a Host the checks accept).
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  return {
    url: `http://${reach}:${addr.port}${RECEIVER_PATH}`,
    bound: `${host}:${addr.port}`,
    get shown() {
      return shown;
    },
    get refused() {
      return refused;
    },
    get deferred() {
      return deferred;
    },
    forwards: counts,
    addSecret(secret: string) {
      if (!secrets.includes(secret)) secrets.push(secret);
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Forwards in flight get a moment to finish; then they are cut off, and no retry starts.
      closing = true;
      ready.length = 0;
      for (const j of jobs.values()) if (j.timer) clearTimeout(j.timer);
      if (running > 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            for (const j of jobs.values()) j.inFlight?.abort();
          }, CLOSE_GRACE_MS);
          idle.add(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return [...jobs.values()].map((j) => j.item);
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
