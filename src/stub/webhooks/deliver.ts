/**
 * Attempts of webhook deliveries. The process that recorded an event makes
 * the first attempt at once (`kickDeliveries`, after the transaction
 * commits). Retries are made by any process running a delivery loop
 * (`startDeliveryLoop`): `stub serve` and a `webhook listen` pointed at the
 * stub. Rows are claimed with a lease in the shared SQLite file, so two
 * processes never send the same attempt twice. Every attempt is a row in
 * `deliveries` (status, HTTP status, duration, error), signed the Standard
 * Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`;
 * src/api/webhook-signature.ts) with the account endpoint's secret.
 */
import { signDelivery } from '../../api/webhook-signature.js';
import type { Store } from '../store.js';
import { listenerGone } from './listeners.js';
import { type RetryPolicy, retryPolicy } from './policy.js';
import { signingSecret } from './settings.js';

const WEBHOOK_USER_AGENT = 'jobfit-stub-webhooks/1.0';

export interface AttemptResult {
  event_id: string;
  type: string;
  url: string;
  attempt: number;
  ok: boolean;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  /** What happens next: delivered, a retry at this time, or given up. */
  next: 'delivered' | 'failed' | { retry_at: string };
}

interface QueueRow {
  event_id: string;
  account_id: number;
  url: string;
  attempts: number;
}

function claimDue(store: Store, now: number, leaseMs: number, limit: number): QueueRow[] {
  return store.write(() => {
    const rows = store.all<QueueRow>(
      `SELECT event_id, account_id, url, attempts FROM webhook_queue
       WHERE (state = 'pending' AND next_attempt_at <= ?) OR (state = 'sending' AND lease_until <= ?)
       ORDER BY next_attempt_at LIMIT ?`,
      now,
      now,
      limit,
    );
    for (const r of rows) store.run(`UPDATE webhook_queue SET state = 'sending', lease_until = ? WHERE event_id = ?`, now + leaseMs, r.event_id);
    return rows;
  });
}

function describeError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'ENOTFOUND') return 'host not found';
  return code ?? e?.cause?.message ?? e?.message ?? String(err);
}

async function attempt(store: Store, row: QueueRow, policy: RetryPolicy): Promise<AttemptResult | undefined> {
  const ev = store.get<{ id: string; type: string; payload: string }>('SELECT id, type, payload FROM events WHERE id = ?', row.event_id);
  if (!ev) {
    store.run(`UPDATE webhook_queue SET state = 'failed', reason = 'event not found' WHERE event_id = ?`, row.event_id);
    return undefined;
  }
  if (listenerGone(store, row.url)) {
    // Whatever binds that port now is not the listener the event was meant for: held for the next `webhook listen`.
    store.run(
      `UPDATE webhook_queue SET state = 'pending', next_attempt_at = NULL, lease_until = NULL, reason = ? WHERE event_id = ?`,
      `held for the next \`jobfit webhook listen\`: the listener at ${row.url} has stopped`,
      row.event_id,
    );
    return undefined;
  }
  const n = row.attempts + 1;
  const startedAt = new Date();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const secret = signingSecret(store, row.account_id);
  const signed = secret ? signDelivery(secret, { id: ev.id, timestamp, body: ev.payload }) : { 'webhook-id': ev.id, 'webhook-timestamp': String(timestamp) };
  const t0 = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(row.url, {
      method: 'POST',
      body: ev.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(policy.timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        ...signed,
        'x-event-type': ev.type,
        'x-delivery-attempt': String(n),
      },
    });
    status = res.status;
    // Read (and drop) the answer so the connection is released.
    await res.arrayBuffer().catch(() => undefined);
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (err) {
    error = describeError(err);
  }
  const duration = Math.round(performance.now() - t0);
  const ok = error === null;
  const finishedAt = Date.now();
  let next: AttemptResult['next'];
  if (ok) next = 'delivered';
  else if (n > policy.delaysMs.length) next = 'failed';
  else next = { retry_at: new Date(finishedAt + policy.delaysMs[n - 1]).toISOString() };
  store.write(() => {
    store.run(
      `INSERT INTO deliveries (event_id, url, attempt, status, response_status, attempted_at, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ev.id,
      row.url,
      n,
      ok ? 'succeeded' : 'failed',
      status,
      startedAt.toISOString(),
      error,
      duration,
    );
    if (next === 'delivered') store.run(`UPDATE webhook_queue SET state = 'delivered', attempts = ?, lease_until = NULL, reason = NULL WHERE event_id = ?`, n, ev.id);
    else if (next === 'failed')
      store.run(`UPDATE webhook_queue SET state = 'failed', attempts = ?, lease_until = NULL, reason = ? WHERE event_id = ?`, n, `gave up after ${n} attempts`, ev.id);
    else
      store.run(
        `UPDATE webhook_queue SET state = 'pending', attempts = ?, lease_until = NULL, next_attempt_at = ?, reason = ? WHERE event_id = ?`,
        n,
        Date.parse(next.retry_at),
        error,
        ev.id,
      );
  });
  return { event_id: ev.id, type: ev.type, url: row.url, attempt: n, ok, response_status: status, duration_ms: duration, error, next };
}

/** Makes every attempt that is due now (concurrently) and returns what happened. */
export async function deliverDue(store: Store, opts: { policy?: RetryPolicy; now?: number; limit?: number } = {}): Promise<AttemptResult[]> {
  if (!store.db.open) return [];
  const policy = opts.policy ?? retryPolicy(store);
  const rows = claimDue(store, opts.now ?? Date.now(), policy.timeoutMs + 5000, opts.limit ?? 50);
  const results = await Promise.all(rows.map((r) => attempt(store, r, policy)));
  return results.filter((r): r is AttemptResult => r !== undefined);
}

const inFlight = new Set<Promise<unknown>>();
const kicked = new WeakSet<Store>();

/**
 * First attempt of freshly queued events, right after the current transaction
 * commits (setImmediate runs after the synchronous lifecycle call returns).
 */
export function kickDeliveries(store: Store, onResult?: (r: AttemptResult) => void): void {
  if (kicked.has(store)) return;
  kicked.add(store);
  setImmediate(() => {
    kicked.delete(store);
    const p = deliverDue(store)
      .then((rs) => {
        for (const r of rs) onResult?.(r);
      })
      .catch(() => undefined);
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  });
}

/** Resolves when the attempts started by kickDeliveries in this process have finished. */
export async function flushDeliveries(): Promise<void> {
  // One turn so that a kick scheduled by the caller's last write has started.
  await new Promise((r) => setImmediate(r));
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

export interface DeliveryLoop {
  stop(): Promise<void>;
}

/** Retries (and first attempts queued by other processes) on a timer: `stub serve`, `webhook listen`. */
export function startDeliveryLoop(store: Store, opts: { intervalMs?: number; policy?: () => RetryPolicy; onResult?: (r: AttemptResult) => void } = {}): DeliveryLoop {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped || !store.db.open) return;
    running = deliverDue(store, { policy: opts.policy?.() })
      .then((rs) => {
        for (const r of rs) opts.onResult?.(r);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, opts.intervalMs ?? 250);
      });
  };
  let timer: NodeJS.Timeout = setTimeout(tick, 0);
  // A delivery loop must not keep a finished CLI process alive.
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

