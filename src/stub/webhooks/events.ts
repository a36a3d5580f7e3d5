/** Reading back the stub's events with their delivery state and attempts (`stub events`). */
import type { Store } from '../store.js';

export interface DeliveryAttemptView {
  attempt: number;
  attempted_at: string;
  status: 'succeeded' | 'failed';
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  url: string;
}

export interface EventView {
  id: string;
  type: string;
  created_at: string;
  account_id: number;
  team_id: number | null;
  /** pending, sending, delivered, failed (gave up), skipped (gated off), or unknown (recorded before this module). */
  delivery: string;
  reason: string | null;
  next_attempt_at: string | null;
  attempts: DeliveryAttemptView[];
  event: unknown;
}

/** The newest events (default 100), oldest first, with their delivery; `id`: that one event only. */
export function listEventDeliveries(store: Store, opts: { id?: string; accountId?: number; type?: string; limit?: number } = {}): EventView[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (opts.id !== undefined) {
    where.push('e.id = ?');
    params.push(opts.id);
  }
  if (opts.accountId !== undefined) {
    where.push('e.account_id = ?');
    params.push(opts.accountId);
  }
  if (opts.type !== undefined) {
    where.push('e.type = ?');
    params.push(opts.type);
  }
  params.push(opts.limit ?? 100);
  const rows = store.db
    .prepare(
      `SELECT * FROM (SELECT e.seq, e.id, e.type, e.created_at, e.account_id, e.team_id, e.payload, q.state, q.reason, q.next_attempt_at
       FROM events e LEFT JOIN webhook_queue q ON q.event_id = e.id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY e.seq DESC LIMIT ?) ORDER BY seq`,
    )
    .all(...params) as Array<{
    id: string;
    type: string;
    created_at: string;
    account_id: number;
    team_id: number | null;
    payload: string;
    state: string | null;
    reason: string | null;
    next_attempt_at: number | null;
  }>;
  const attemptsOf = store.db.prepare(
    'SELECT attempt, attempted_at, status, response_status, duration_ms, error, url FROM deliveries WHERE event_id = ? ORDER BY id',
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    created_at: r.created_at,
    account_id: r.account_id,
    team_id: r.team_id,
    delivery: r.state ?? 'unknown',
    reason: r.reason,
    next_attempt_at: r.state === 'pending' && r.next_attempt_at !== null ? new Date(r.next_attempt_at).toISOString() : null,
    attempts: attemptsOf.all(r.id) as DeliveryAttemptView[],
    event: safeJson(r.payload),
  }));
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
