/**
 * `webhook listen --forward-to URL`: re-posts an event to the developer's app,
 * body byte for byte and the sender's delivery headers kept, so the app sees
 * (and verifies) the same request. Never follows the app's redirects.
 */
import type { IncomingMessage } from 'node:http';
import { SIGNATURE_HEADER } from '../api/webhook-signature.js';
import type { Event } from '../api/schemas.js';

export interface ForwardResult {
  url: string;
  /** HTTP status of the app, or null when it could not be reached. */
  status: number | null;
  ms: number;
  error?: string;
}

export interface ForwardOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  userAgent?: string;
}

export async function forward(url: string, raw: string, event: Event, headers: IncomingMessage['headers'], o: ForwardOptions = {}): Promise<ForwardResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 10_000);
  const pass: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': o.userAgent ?? 'jobfit-webhook-listen',
    'webhook-id': event.id,
  };
  // Keep what the sender said about the delivery so the app sees the same request;
  // the body goes on byte for byte, so the app verifies the signature as it would the sender's.
  for (const h of ['webhook-timestamp', SIGNATURE_HEADER, 'x-event-type', 'x-delivery-attempt']) {
    const v = headers[h];
    if (typeof v === 'string') pass[h] = v;
  }
  try {
    // Never follow the app's redirect: it would carry the event body to wherever it points.
    const res = await fetch(url, { method: 'POST', body: raw, headers: pass, signal: timeout, redirect: 'manual' });
    await res.arrayBuffer().catch(() => undefined);
    return { url, status: res.status, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason = e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { url, status: null, ms: Math.round(performance.now() - started), error: reason };
  }
}
