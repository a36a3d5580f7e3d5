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
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Event } from '../api/schemas/events.js';
import { DEFAULT_TOLERANCE_S, type VerifyResult, signedHeaders, verifyDelivery } from '../api/webhook-signature.js';
import { type ForwardResult, forward } from './forward.js';
import { lingerThenClose } from '../core/linger.js';
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
/**
 * A request answered before its body was read in full (refused, too large,
 * too busy) still has its body read and dropped after the answer, this many
 * bytes and this long at most, so a sender still writing gets the answer and
 * not a reset (lingerThenClose()).
 */
export const LINGER_BYTES = 16 * 1024 * 1024;
export const LINGER_MS = 5000;
/**
 * How many refused bodies are read and dropped at once. Node copies every
 * chunk it reads and V8 frees the copies late: under a flood of bodies over
 * the limit, draining them all peaked at 170 MB, two at a time at 114 MB
 * (bench/webhook/listen-memory.mjs --too-large 8). Past these, a refused
 * request is closed as soon as its answer is written, as before: a sender of
 * a flood may see a reset.
 */
export const LINGER_AT_ONCE = 2;
/** On close, how long forwards in flight may still take before they are cut off and kept as not forwarded. */
const CLOSE_GRACE_MS = 2000;
/** An event id: printable ASCII without spaces, at most this long (the stub's are `evt_` + 24 hex). */
const EVENT_ID = /^[\x21-\x7e]{1,200}$/;
/** An event type: dotted lower-case words (`test_taker.created`); types beyond the reference's four are shown too. */
const EVENT_TYPE = /^[a-z0-9_]{1,64}(\.[a-z0-9_]{1,64}){1,3}$/;
/** Delivery headers kept with an event (forwarded to the app, and in the file of events it did not get). */
const KEPT_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'jobfit-signature', 'x-event-type', 'x-delivery-attempt'] as const;

export type WebhookEvent = Event;
/**
 * What the forward queue keeps of an event besides its body as received: the
 * parsed event would hold the body a second time (a queue of 32 MB of bodies
 * was ~64 MB of heap).
 */
export type EventRef = Pick<WebhookEvent, 'id' | 'type'>;

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

/** The Content-Length a request declares, or undefined (chunked: none; node has refused a malformed one). */
function declaredLength(headers: IncomingHttpHeaders): number | undefined {
  const n = Number(headers['content-length'] ?? NaN);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Where a body's bytes go as they arrive. With a Content-Length (within the
 * cap), one Buffer of that size, counted in the budget at once (it is
 * allocated at once) and filled chunk by chunk: each chunk node hands over is
 * garbage as soon as it is copied, and nothing is joined at the end. Without
 * one (chunked), the chunks are kept, counted as they come, and joined once.
 */
class BodySink {
  private readonly chunks: Buffer[] = [];
  private body: Buffer | undefined;
  /** Bytes received. */
  size = 0;
  /** Bytes this body holds of the budget. */
  private counted = 0;

  constructor(
    declared: number | undefined,
    private readonly budget: Budget,
  ) {
    if (declared !== undefined) {
      this.body = Buffer.allocUnsafe(declared);
      this.count(declared);
    }
  }

  private count(n: number): void {
    this.counted += n;
    this.budget.used += n;
  }

  /** Takes a chunk; false when it goes past the declared length (the body is not what its header says). */
  add(c: Buffer): boolean {
    if (this.body) {
      if (this.size + c.length > this.body.length) return false;
      c.copy(this.body, this.size);
    } else {
      this.count(c.length);
      this.chunks.push(c);
    }
    this.size += c.length;
    return true;
  }

  /** The body in full; undefined when fewer bytes came than declared. */
  whole(): Buffer | undefined {
    if (this.body) return this.size === this.body.length ? this.body : undefined;
    return Buffer.concat(this.chunks, this.size);
  }

  /** Lets go of the bytes and gives back their part of the budget. */
  release(): void {
    this.budget.used -= this.counted;
    this.counted = 0;
    this.chunks.length = 0;
    this.body = undefined;
  }
}

/**
 * Requests sent with `expect: 100-continue` whose senders were told to go on
 * (`100 Continue`): their bodies come. One refused on its headers (too large,
 * too busy, not allowed) is answered without it, and its sender sends no body
 * at all (curl asks so for a body over 1 MB).
 */
const invited = new WeakSet<IncomingMessage>();
const expectsContinue = (req: IncomingMessage): boolean => /^100-continue$/i.test(req.headers.expect?.trim() ?? '');
/** Whether the rest of a request's body is on its way (and worth reading before the connection closes). */
const bodyComing = (req: IncomingMessage): boolean => !req.complete && (!expectsContinue(req) || invited.has(req));

/** The body of a delivery, once it fits; `goOn` sends `100 Continue` to a sender that waits for it. */
function readBody(req: IncomingMessage, limit: number, budget: Budget, goOn: () => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req.headers);
    // A declared body too large, or one that does not fit the budget now, is refused before a byte is read.
    const early = declared === undefined ? undefined : declared > limit ? new BodyTooLarge(`${declared}`) : budget.used + declared > budget.max ? new Busy() : undefined;
    if (early) {
      req.resume();
      reject(early);
      return;
    }
    if (expectsContinue(req)) {
      invited.add(req);
      goOn();
    }
    const sink = new BodySink(declared, budget);
    let settled = false;
    const fail = (err: Error) => {
      settled = true;
      sink.release();
      reject(err);
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      if (!sink.add(c)) return fail(new Error('the body is longer than its Content-Length'));
      if (sink.size > limit) return fail(new BodyTooLarge(`${sink.size}`));
      if (budget.used > budget.max) fail(new Busy());
    });
    req.on('end', () => {
      if (settled) return;
      const body = sink.whole();
      if (!body) return fail(new Error('the body is shorter than its Content-Length'));
      settled = true;
      sink.release();
      resolve(body);
    });
    req.on('error', (e) => {
      if (!settled) fail(e);
    });
    req.on('close', () => {
      if (!settled) fail(new Error('the sender closed the connection'));
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

/**
 * Answers with `connection: close` a request whose body may not have been
 * read (a refusal before or while reading it: 403, 413, 415, an early 503).
 * Ended at once, node would close the socket as soon as the answer is
 * written, and a sender still writing its body would get a reset, often
 * before it has read the answer: it could not tell "too large, don't retry"
 * from a network failure. (Without `connection: close`, node keeps the
 * connection and reads the rest of the body itself, with no bound but the
 * 30 s request timeout.) So the answer is written whole (its length lets the
 * sender read it at once) but ended only once the rest of the body is read
 * and dropped (lingerThenClose()); a body read in full, or one that is not
 * coming (the sender waits for a `100 Continue` it was not sent), is
 * answered and closed at once.
 */
function sendAndClose(res: ServerResponse, status: number, body: unknown, linger: Linger): void {
  res.setHeader('connection', 'close');
  if (!bodyComing(res.req) || linger.now >= LINGER_AT_ONCE) {
    send(res, status, body);
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.write(text);
  linger.now++;
  res.req.socket.once('close', () => linger.now--);
  lingerThenClose(res.req, res, { maxBytes: LINGER_BYTES, ms: linger.ms });
}

/** A receiver's refused bodies being drained now, and for how long each may be. */
interface Linger {
  now: number;
  readonly ms: number;
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

/* ------------------------------------------------------------------------ *
 * The rules, each a named step: which hosts a request may name, what is
 * refused before the body is read, what a body must be, the signature, the
 * replay window, and the forwarding queue. startReceiver() wires them.
 * ------------------------------------------------------------------------ */

/** A request refused with a 4xx: `kind` is noted once per receiver; `error` goes in the body. */
export interface Refusal {
  status: number;
  kind: string;
  message: string;
  error: string;
}

/** The names a `Host` may carry besides loopback: the allowed ones and the bound address (not a wildcard). */
export function allowedHostNames(allowHosts: readonly string[] | undefined, host: string | undefined): Set<string> {
  const allowed = new Set<string>();
  for (const h of [...(allowHosts ?? []), host ?? '127.0.0.1']) {
    const name = hostNameOf(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
    if (name !== '0.0.0.0' && name !== '[::]') allowed.add(name);
  }
  return allowed;
}

/**
 * What a request gets before its body is read: `read` (a delivery to read),
 * `alive` (GET or HEAD: the listener answers), `method` (405), or a refusal
 * (a foreign Host or Origin, a body that is not JSON).
 */
export function gateRequest(method: string | undefined, headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): 'read' | 'alive' | 'method' | Refusal {
  if (!hostAllowed(headers.host, allowed)) {
    return { status: 403, kind: 'host', message: `Refused a request for host "${headers.host ?? ''}" (this listener answers to localhost; a tunnel's host name needs --allow-host)`, error: 'host not allowed' };
  }
  if (method === 'GET' || method === 'HEAD') return 'alive';
  if (method !== 'POST') return 'method';
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host}`) {
    return { status: 403, kind: 'origin', message: `Refused a request from a web page (Origin ${origin})`, error: 'foreign origin' };
  }
  if (!isJsonType(headers['content-type'])) {
    return { status: 415, kind: 'type', message: `Refused a delivery that is not JSON (content-type ${headers['content-type'] ?? 'none'})`, error: 'content-type must be application/json' };
  }
  return 'read';
}

/**
 * JSON text is UTF-8. A body that is not would be read with U+FFFD in place
 * of its bad bytes, and forwarded so (forward.ts sends the text): the app
 * would get other bytes than were signed, and its check would fail. The BOM,
 * if any, is kept, so JSON.parse refuses it as before.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A body read in full: the event it holds (UTF-8 JSON, an event, an id and type of the usual shape), or a refusal. */
export function parseDelivery(buf: Buffer): { event: WebhookEvent; raw: string } | Refusal {
  let raw: string;
  try {
    raw = UTF8.decode(buf);
  } catch {
    return { status: 400, kind: 'utf8', message: `Rejected a delivery whose body is not UTF-8 text (${formatBytes(buf.length)}), as JSON must be`, error: 'body is not UTF-8' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { status: 400, kind: 'json', message: `Rejected a delivery with a body that is not JSON (${formatBytes(buf.length)})`, error: 'body is not JSON' };
  }
  const ev = Event.safeParse(parsed);
  if (!ev.success) {
    return { status: 400, kind: 'shape', message: 'Rejected a JSON body that is not an event (it needs id, type, object "event", created_at, api_version, data.object)', error: 'body is not an event' };
  }
  if (!EVENT_ID.test(ev.data.id) || !EVENT_TYPE.test(ev.data.type)) {
    return { status: 400, kind: 'id', message: 'Rejected an event whose id or type is not of the usual shape (ids: up to 200 printable characters; types: dotted lower-case words)', error: 'bad event id or type' };
  }
  return { event: ev.data, raw };
}

/**
 * The signature check of a delivery, with one of the secrets: a refusal when
 * none verifies or the signed webhook-id is not the event's; `legacy` when it
 * verified by the old jobfit-signature only.
 */
export function verifySigned(
  secrets: readonly string[],
  headers: IncomingHttpHeaders,
  buf: Buffer,
  eventId: string,
  o: { toleranceSeconds: number; nowMs: number },
): { legacy: boolean; refusal?: Refusal } {
  const h = signedHeaders(headers);
  let r: VerifyResult = { ok: false, reason: 'no secret' };
  for (const s of secrets) {
    r = verifyDelivery(s, h, buf, { toleranceSeconds: o.toleranceSeconds, nowSeconds: Math.floor(o.nowMs / 1000) });
    if (r.ok) break;
  }
  if (!r.ok) return { legacy: false, refusal: { status: 401, kind: 'signature', message: `Refused a delivery whose signature does not verify (${r.reason})`, error: 'signature not verified' } };
  const legacy = r.scheme === 'legacy';
  if (h.id !== undefined && h.id !== eventId) {
    return { legacy, refusal: { status: 401, kind: 'id-header', message: 'Refused a signed delivery whose webhook-id is not the event id', error: 'webhook-id does not match the event' } };
  }
  return { legacy };
}

/** Ids up to this long are remembered as they are (the stub's are 28 characters). */
const KEPT_ID_CHARS = 64;

/**
 * The key an id is remembered by: the id itself, or for a longer one (up to
 * 200 characters) a space and the base64 of its SHA-256. A 200-character id
 * kept whole costs ~300 bytes in the window (30 MB at 100,000 ids), its hash
 * ~150. No id has a space, so no id can pass for another's hash.
 */
function idKey(id: string): string {
  return id.length <= KEPT_ID_CHARS ? id : ` ${createHash('sha256').update(id).digest('base64')}`;
}

/**
 * The duplicate check: ids seen within the replay window. A signed delivery
 * is taken only within ±tolerance of its timestamp, so a replay of it comes
 * within twice the tolerance of the first delivery: remembering ids that long
 * catches every replay. An id the app has not taken yet (`queued`) is kept
 * past its time. Long ids are kept by their hash (idKey).
 */
export class ReplayWindow {
  /** Insertion-ordered by arrival: the first entries are the first to expire. */
  private readonly seen = new Map<string, { until: number; state: 'queued' | 'done' }>();

  constructor(
    private readonly rememberMs: number,
    readonly maxIds: number,
  ) {}

  /** Forgets the ids whose time is up at `t` (but not those still queued). */
  forget(t: number): void {
    for (const [key, s] of this.seen) {
      if (s.until > t) break;
      if (s.state === 'queued') continue;
      this.seen.delete(key);
    }
  }

  /** `queued`: waiting for (or being retried to) the app; `done`: the app took it, or nothing to forward. */
  state(id: string): 'queued' | 'done' | undefined {
    return this.seen.get(idKey(id))?.state;
  }

  /** No room for another id (all remembered ones still within the window). */
  full(): boolean {
    return this.seen.size >= this.maxIds;
  }

  remember(id: string, t: number, state: 'queued' | 'done'): void {
    this.seen.set(idKey(id), { until: t + this.rememberMs, state });
  }

  /** The app took it. */
  done(id: string): void {
    const s = this.seen.get(idKey(id));
    if (s) s.state = 'done';
  }
}

/** The wait before the next forward of an event after `attempts` the app did not take (the last wait repeats). */
export function retryWait(attempts: number, retryMs: readonly number[]): number {
  return retryMs[Math.min(attempts - 1, retryMs.length - 1)] ?? 30_000;
}

/** What an attempt the app did not take is kept as: `HTTP 500`, or the error (`ECONNREFUSED`, `timed out`). */
export function lastError(r: ForwardResult): string {
  return r.status === null ? (r.error ?? 'failed') : `HTTP ${r.status}`;
}

/** The app took it: a 2xx. */
export const taken = (r: ForwardResult): boolean => r.status !== null && r.status >= 200 && r.status < 300;

/** An event as kept for the app: its delivery headers and body as received, not tried yet. */
export function unforwardedItem(event: WebhookEvent, raw: string, headers: IncomingHttpHeaders, receivedAt: number): Unforwarded {
  return { id: event.id, type: event.type, received_at: new Date(receivedAt).toISOString(), attempts: 0, last_error: 'not tried', headers: keptHeaders(headers), body: raw };
}

/** Runs a hook of the caller: whatever it throws is noted, never the end of the listener. */
function safely(note: (m: string) => void, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    note(`Could not handle an event: ${(err as Error)?.message ?? String(err)}`);
  }
}

interface Job {
  event: EventRef;
  item: Unforwarded;
  bytes: number;
  timer?: NodeJS.Timeout;
  inFlight?: AbortController;
}

export interface ForwardQueueOptions {
  forwardTo?: string;
  forwardTimeoutMs?: number;
  userAgent?: string;
  /** Events waiting for the app at most. */
  maxEvents: number;
  retryMs: readonly number[];
  onForward?(event: EventRef, result: ForwardResult): void;
  note(message: string): void;
  /** The app took the event with this id. */
  onTaken(id: string): void;
}

/**
 * Events on their way to the app: FORWARD_CONCURRENCY at a time, each tried
 * again after retryWait() until the app takes it (2xx) or the listener stops;
 * what is left then is what the app did not take.
 */
export class ForwardQueue {
  readonly counts: ForwardCounts = { delivered: 0, failedAttempts: 0 };
  private readonly jobs = new Map<string, Job>();
  private readonly ready: Job[] = [];
  private queuedBytes = 0;
  private running = 0;
  private closing = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly o: ForwardQueueOptions) {}

  get size(): number {
    return this.jobs.size;
  }

  get bytes(): number {
    return this.queuedBytes;
  }

  /** No room for an event of `bytes` (events or bytes at their cap). */
  wouldOverflow(bytes: number): boolean {
    return this.jobs.size >= this.o.maxEvents || this.queuedBytes + bytes > FORWARD_QUEUE_BYTES;
  }

  add(event: EventRef, item: Unforwarded, bytes: number): void {
    const job: Job = { event: { id: event.id, type: event.type }, item, bytes };
    this.jobs.set(event.id, job);
    this.queuedBytes += bytes;
    this.ready.push(job);
    this.pump();
  }

  /** Delivered again while waiting for a retry: tried at once. */
  retryNow(id: string): void {
    const job = this.jobs.get(id);
    if (job && job.timer) {
      clearTimeout(job.timer);
      job.timer = undefined;
      this.ready.unshift(job);
      this.pump();
    }
  }

  private pump(): void {
    while (!this.closing && this.running < FORWARD_CONCURRENCY && this.ready.length > 0) {
      const job = this.ready.shift()!;
      this.running++;
      void this.attempt(job).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0) for (const f of this.idle) f();
      });
    }
  }

  private async attempt(job: Job): Promise<void> {
    const ac = new AbortController();
    job.inFlight = ac;
    job.item.attempts++;
    const r = await forward(this.o.forwardTo!, job.item.body, job.event, job.item.headers, { timeoutMs: this.o.forwardTimeoutMs, userAgent: this.o.userAgent, signal: ac.signal });
    job.inFlight = undefined;
    safely(this.o.note, () => this.o.onForward?.(job.event, r));
    if (taken(r)) {
      this.counts.delivered++;
      this.jobs.delete(job.item.id);
      this.queuedBytes -= job.bytes;
      this.o.onTaken(job.item.id);
      return;
    }
    this.counts.failedAttempts++;
    job.item.last_error = lastError(r);
    if (this.closing) return;
    job.timer = setTimeout(() => {
      job.timer = undefined;
      this.ready.push(job);
      this.pump();
    }, retryWait(job.item.attempts, this.o.retryMs));
    job.timer.unref?.();
  }

  /**
   * Stops: no retry starts, forwards in flight get CLOSE_GRACE_MS to finish
   * and are then cut off. Returns the events the app did not take.
   */
  async close(): Promise<Unforwarded[]> {
    this.closing = true;
    this.ready.length = 0;
    for (const j of this.jobs.values()) if (j.timer) clearTimeout(j.timer);
    if (this.running > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          for (const j of this.jobs.values()) j.inFlight?.abort();
        }, CLOSE_GRACE_MS);
        this.idle.add(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return [...this.jobs.values()].map((j) => j.item);
  }
}

/** What the receiver counted, and each kind of refusal or deferral noted once (a hostile page can post thousands of times). */
class Tally {
  shown = 0;
  refused = 0;
  deferred = 0;
  private readonly noted = new Set<string>();

  constructor(
    readonly note: (m: string) => void,
    /** Refused bodies read after the answer: how many now, how long each. */
    private readonly linger: Linger,
  ) {}

  /** Notes `message` the first time of its kind. */
  once(kind: string, message: string): void {
    if (this.noted.has(kind)) return;
    this.noted.add(kind);
    this.note(message);
  }

  refuse(res: ServerResponse, r: Refusal): void {
    this.refused++;
    this.once(r.kind, `${r.message}: ${r.status} (not shown or forwarded; further ones are refused without a note)`);
    sendAndClose(res, r.status, { error: r.error }, this.linger);
  }

  /** 503 with Retry-After: a bound was reached, and the sender delivers it again later. */
  defer(res: ServerResponse, kind: string, message: string, retryAfterS: number): void {
    this.deferred++;
    this.once(kind, `${message}: 503 with Retry-After ${retryAfterS} s (the sender delivers it again later; further ones without a note)`);
    res.setHeader('retry-after', String(retryAfterS));
    sendAndClose(res, 503, { error: 'busy; retry' }, this.linger);
  }
}

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
  tally: Tally;
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
    const v = verifySigned(c.secrets, req.headers, buf, d.event.id, { toleranceSeconds: c.toleranceS, nowMs: c.now() });
    if (v.legacy) c.tally.once('legacy', 'A delivery was signed only with jobfit-signature, which goes in 0.2.0: the sender should send webhook-signature (Standard Webhooks)');
    if (v.refusal) {
      c.tally.refuse(res, v.refusal);
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
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
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
    tally: new Tally(note, { now: 0, ms: o.lingerMs ?? LINGER_MS }),
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
