/**
 * Which requests the receiver believes (receiver.ts says why): the gate on
 * method, Host, Origin and type; a delivery's shape and signature; and the
 * answers, a refusal or a deferral noted once (Tally), each read to its end
 * or closed after a linger.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Event } from '../api/schemas/events.js';
import { type VerifyResult, signedHeaders, verifyDelivery } from '../api/webhook-signature.js';
import { lingerThenClose } from '../core/linger.js';
import { hostNameOf, isLoopbackHost } from '../core/loopback.js';
import { bodyComing } from '../core/bounded-body.js';

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
export const CLOSE_GRACE_MS = 2000;

/** An event id: printable ASCII without spaces, at most this long (the stub's are `evt_` + 24 hex). */
const EVENT_ID = /^[\x21-\x7e]{1,200}$/;

/** An event type: dotted lower-case words (`test_taker.created`); types beyond the reference's four are shown too. */
const EVENT_TYPE = /^[a-z0-9_]{1,64}(\.[a-z0-9_]{1,64}){1,3}$/;

/** Delivery headers kept with an event (forwarded to the app, and in the file of events it did not get). */
const KEPT_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-event-type', 'x-delivery-attempt'] as const;

export type WebhookEvent = Event;

/**
 * What the forward queue keeps of an event besides its body as received: the
 * parsed event would hold the body a second time (a queue of 32 MB of bodies
 * was ~64 MB of heap).
 */
export type EventRef = Pick<WebhookEvent, 'id' | 'type'>;

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

export function send(res: ServerResponse, status: number, body: unknown): void {
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

export function keptHeaders(h: IncomingHttpHeaders): Record<string, string> {
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
 * none verifies or the signed webhook-id is not the event's, else undefined.
 */
export function verifySigned(
  secrets: readonly string[],
  headers: IncomingHttpHeaders,
  buf: Buffer,
  eventId: string,
  o: { toleranceSeconds: number; nowMs: number },
): Refusal | undefined {
  const h = signedHeaders(headers);
  let r: VerifyResult = { ok: false, reason: 'no secret' };
  for (const s of secrets) {
    r = verifyDelivery(s, h, buf, { toleranceSeconds: o.toleranceSeconds, nowSeconds: Math.floor(o.nowMs / 1000) });
    if (r.ok) break;
  }
  if (!r.ok) return { status: 401, kind: 'signature', message: `Refused a delivery whose signature does not verify (${r.reason})`, error: 'signature not verified' };
  if (h.id !== undefined && h.id !== eventId) {
    return { status: 401, kind: 'id-header', message: 'Refused a signed delivery whose webhook-id is not the event id', error: 'webhook-id does not match the event' };
  }
  return undefined;
}

/** What the receiver counted, and each kind of refusal or deferral noted once (a hostile page can post thousands of times). */
export class ReceiverTally {
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
