/**
 * `webhook listen --forward-to URL`: re-posts an event to the developer's app,
 * body byte for byte and the sender's delivery headers kept, so the app sees
 * (and verifies) the same request. Never follows the app's redirects.
 */
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
  /** Cuts the attempt off (the listener is stopping). */
  signal?: AbortSignal;
}

/** `headers`: the delivery headers the sender sent (webhook-id, -timestamp, -signature, …), passed on as they are. */
export async function forward(url: string, raw: string, event: Pick<Event, 'id'>, headers: Readonly<Record<string, string>>, o: ForwardOptions = {}): Promise<ForwardResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 10_000);
  const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout;
  // The body goes on byte for byte with the sender's headers, so the app verifies the signature as it would the sender's.
  const pass: Record<string, string> = {
    ...headers,
    'content-type': 'application/json',
    'user-agent': o.userAgent ?? 'jobfit-webhook-listen',
    'webhook-id': headers['webhook-id'] ?? event.id,
  };
  try {
    // Never follow the app's redirect: it would carry the event body to wherever it points.
    const res = await fetch(url, { method: 'POST', body: raw, headers: pass, signal, redirect: 'manual' });
    await res.arrayBuffer().catch(() => undefined);
    return { url, status: res.status, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason = o.signal?.aborted ? 'cut off: the listener stopped' : e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { url, status: null, ms: Math.round(performance.now() - started), error: reason };
  }
}
