/**
 * The local webhook receiver behind `jobfit webhook listen`: an HTTP server
 * that accepts event deliveries, answers quickly (so the sender's retry clock
 * is not held by a slow app), shows each event once, and optionally re-posts
 * it to the developer's app (forward.ts).
 *
 * Anyone who can reach the port can post to it, a web page in the developer's
 * browser included (a form, or a DNS-rebinding page that names its own host).
 * So only a delivery that looks like one is believed: POST, JSON, a `Host`
 * that is this machine (or a tunnel's name given with --allow-host), no
 * foreign `Origin` (servers send none; browsers always do), an event id and
 * type of a sane shape. Everything else gets a 4xx and is neither shown nor
 * forwarded. Memory stays bounded: bodies are capped, bodies in flight share a
 * budget, and the duplicate check remembers the last DUPLICATE_WINDOW ids.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Event } from '../api/schemas.js';
import { type ForwardResult, forward } from './forward.js';
import { hostNameOf, isLoopbackHost } from '../core/loopback.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Bytes of request bodies read at the same time; past it a delivery gets 503 and is retried by its sender. */
export const IN_FLIGHT_BODY_BYTES = 16 * 1024 * 1024;
/** Event ids remembered for the duplicate check (oldest forgotten first). */
export const DUPLICATE_WINDOW = 10_000;
/** An event id: printable ASCII without spaces, at most this long (the stub's are `evt_` + 24 hex). */
const EVENT_ID = /^[\x21-\x7e]{1,200}$/;
/** An event type: dotted lower-case words (`test_taker.created`); types beyond the reference's four are shown too. */
const EVENT_TYPE = /^[a-z0-9_]{1,64}(\.[a-z0-9_]{1,64}){1,3}$/;

export type WebhookEvent = Event;

export interface ReceiverHooks {
  /** A new event (first delivery of its id, passing the filter). */
  onEvent(event: WebhookEvent, raw: string): void;
  /** The app's answer to a forwarded event. */
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
  /** Event ids remembered for the duplicate check (default DUPLICATE_WINDOW). */
  duplicateWindow?: number;
  forwardTo?: string;
  forwardTimeoutMs?: number;
  userAgent?: string;
}

export interface Receiver {
  /** Where to deliver from this machine, e.g. http://127.0.0.1:40123/webhooks */
  url: string;
  /** The address and port really bound (`0.0.0.0:40123` for every interface). */
  bound: string;
  /** Events shown (after dedupe and filter). */
  readonly shown: number;
  /** Requests refused (wrong host, origin, content type, shape, size). */
  readonly refused: number;
  close(): Promise<void>;
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

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget: Budget = { used: 0, max: Math.max(limit, IN_FLIGHT_BODY_BYTES) };
  // Insertion-ordered: the first entry is the oldest, dropped when the window is full.
  const seen = new Set<string>();
  let shown = 0;
  let refused = 0;
  const note = (m: string) => o.onNote?.(m);
  // A hostile page can post thousands of times: each kind of refusal is noted once.
  const noted = new Set<string>();
  const pending = new Set<Promise<unknown>>();
  const allowed = new Set<string>();
  for (const h of [...(o.allowHosts ?? []), o.host ?? '127.0.0.1']) {
    const name = hostNameOf(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
    if (name !== '0.0.0.0' && name !== '[::]') allowed.add(name);
  }

  const refuse = (res: ServerResponse, status: number, kind: string, message: string, error: string) => {
    refused++;
    if (!noted.has(kind)) {
      noted.add(kind);
      note(`${message}: ${status} (not shown or forwarded; further ones are refused without a note)`);
    }
    res.setHeader('connection', 'close');
    send(res, status, { error });
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
        let parsed: unknown;
        try {
          parsed = JSON.parse(buf.toString('utf8'));
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
        send(res, 200, { received: true });
        if (seen.has(event.id)) {
          note(`Duplicate delivery of ${event.id} (${event.type}); already shown`);
          return;
        }
        seen.add(event.id);
        if (seen.size > (o.duplicateWindow ?? DUPLICATE_WINDOW)) seen.delete(seen.values().next().value as string);
        if (o.events && !o.events.has(event.type)) return;
        shown++;
        const raw = buf.toString('utf8');
        o.onEvent(event, raw);
        if (o.forwardTo) {
          const p = forward(o.forwardTo, raw, event, req.headers, { timeoutMs: o.forwardTimeoutMs, userAgent: o.userAgent }).then((r) => o.onForward?.(event, r));
          pending.add(p);
          p.finally(() => pending.delete(p));
        }
      },
      (err) => {
        if (res.headersSent) return;
        if (err instanceof BodyTooLarge) {
          refuse(res, 413, 'size', `Rejected a delivery of ${formatBytes(Number(err.message))} (limit ${formatBytes(limit)})`, `body larger than ${limit} bytes`);
          return;
        }
        if (err instanceof Busy) {
          res.setHeader('retry-after', '1');
          refuse(res, 503, 'busy', `Asked a sender to retry: more than ${formatBytes(budget.max)} of deliveries arrived at once`, 'busy; retry');
          return;
        }
        send(res, 400, { error: 'could not read the body' });
      },
    );
  });

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
    async close() {
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The id of the resource an event is about, as a short label: `invitation 42`. */
export function resourceLabel(event: WebhookEvent): string {
  const obj = event.data.object as Record<string, unknown>;
  const kind = typeof obj.object === 'string' ? obj.object : 'object';
  if (kind === 'assigned_assessment') {
    const a = obj.assessment as { short_name?: string } | undefined;
    return `test_taker ${String(obj.test_taker_id)} ${a?.short_name ?? ''}`.trim();
  }
  return `${kind} ${String(obj.id)}`;
}
