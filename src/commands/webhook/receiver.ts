/**
 * The local webhook receiver behind `jobfit webhook listen`: an HTTP server
 * that accepts event deliveries, answers quickly (so the sender's retry clock
 * is not held by a slow app), shows each event once, and optionally re-posts
 * it to the developer's app.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Event } from '../../api/schemas.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type WebhookEvent = Event;

export interface ForwardResult {
  url: string;
  /** HTTP status of the app, or null when it could not be reached. */
  status: number | null;
  ms: number;
  error?: string;
}

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
  port?: number;
  /** Only these event types are shown; others are acknowledged and skipped. */
  events?: ReadonlySet<string>;
  maxBodyBytes?: number;
  forwardTo?: string;
  forwardTimeoutMs?: number;
  userAgent?: string;
}

export interface Receiver {
  /** Where to deliver, e.g. http://127.0.0.1:40123/webhooks */
  url: string;
  /** Events shown (after dedupe and filter). */
  readonly shown: number;
  close(): Promise<void>;
}

export const RECEIVER_PATH = '/webhooks';

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge(`${declared}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLarge(`${size}`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
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

async function forward(url: string, raw: string, event: WebhookEvent, headers: IncomingMessage['headers'], o: ReceiverOptions): Promise<ForwardResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(o.forwardTimeoutMs ?? 10_000);
  const pass: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': o.userAgent ?? 'jobfit-webhook-listen',
    'webhook-id': event.id,
  };
  // Keep what the sender said about the delivery so the app sees the same request.
  for (const h of ['webhook-timestamp', 'x-event-type', 'x-delivery-attempt']) {
    const v = headers[h];
    if (typeof v === 'string') pass[h] = v;
  }
  try {
    const res = await fetch(url, { method: 'POST', body: raw, headers: pass, signal: timeout });
    await res.arrayBuffer().catch(() => undefined);
    return { url, status: res.status, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason = e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { url, status: null, ms: Math.round(performance.now() - started), error: reason };
  }
}

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const seen = new Set<string>();
  let shown = 0;
  const note = (m: string) => o.onNote?.(m);
  const pending = new Set<Promise<unknown>>();

  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      send(res, 200, { ok: true, listening: true });
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST, GET' });
      res.end('Method not allowed: deliver events with POST\n');
      return;
    }
    readBody(req, limit).then(
      (buf) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(buf.toString('utf8'));
        } catch {
          note(`Rejected a delivery with a body that is not JSON (${formatBytes(buf.length)}): 400`);
          send(res, 400, { error: 'body is not JSON' });
          return;
        }
        const ev = Event.safeParse(parsed);
        if (!ev.success) {
          note('Rejected a JSON body that is not an event (it needs id, type, object "event", created_at, api_version, data.object): 400');
          send(res, 400, { error: 'body is not an event' });
          return;
        }
        const event = ev.data;
        send(res, 200, { received: true });
        if (seen.has(event.id)) {
          note(`Duplicate delivery of ${event.id} (${event.type}); already shown`);
          return;
        }
        seen.add(event.id);
        if (o.events && !o.events.has(event.type)) return;
        shown++;
        const raw = buf.toString('utf8');
        o.onEvent(event, raw);
        if (o.forwardTo) {
          const p = forward(o.forwardTo, raw, event, req.headers, o).then((r) => o.onForward?.(event, r));
          pending.add(p);
          p.finally(() => pending.delete(p));
        }
      },
      (err) => {
        if (err instanceof BodyTooLarge) {
          note(`Rejected a delivery of ${formatBytes(Number(err.message))} (limit ${formatBytes(limit)}): 413`);
          res.setHeader('connection', 'close');
          send(res, 413, { error: `body larger than ${limit} bytes` });
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
  return {
    url: `http://${host}:${addr.port}${RECEIVER_PATH}`,
    get shown() {
      return shown;
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
