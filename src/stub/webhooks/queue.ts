/**
 * The stub's webhook queue. The lifecycle stores every live event in
 * `events` (recordEvent); right after, `enqueueDelivery` decides, in the same
 * transaction, whether the event goes out: the account flag and endpoint, and
 * the participant's team flag. Every event gets one row in `webhook_queue`,
 * either `pending` or `skipped` with the reason, so `stub events` can say why
 * nothing was sent.
 */
import type { Store } from '../store.js';
import { kickDeliveries } from './deliver.js';
import { WebhookSettingsError, accountIds } from './settings.js';

export interface EnqueueInput {
  id: string;
  account_id: number;
  team_id: number | null;
  /** Live or test: test-mode activity never produces deliveries. */
  mode?: 'live' | 'test';
}

export type EnqueueResult = { state: 'pending'; url: string } | { state: 'skipped'; reason: string };

/**
 * Decides whether an event is delivered and queues it. Call it in the
 * transaction that stored the event; then `kickDeliveries(store)`.
 */
export function enqueueDelivery(store: Store, ev: EnqueueInput, now = Date.now()): EnqueueResult {
  const result = gate(store, ev);
  store.run(
    `INSERT OR IGNORE INTO webhook_queue (event_id, account_id, url, state, attempts, next_attempt_at, reason) VALUES (?, ?, ?, ?, 0, ?, ?)`,
    ev.id,
    ev.account_id,
    result.state === 'pending' ? result.url : null,
    result.state,
    result.state === 'pending' ? now : null,
    result.state === 'skipped' ? result.reason : null,
  );
  return result;
}

function gate(store: Store, ev: EnqueueInput): EnqueueResult {
  if (ev.mode === 'test') return { state: 'skipped', reason: 'test mode: test keys produce no events' };
  const acc = store.get<{ webhook_endpoint: string | null; webhooks_enabled: number }>(
    'SELECT webhook_endpoint, webhooks_enabled FROM accounts WHERE id = ?',
    ev.account_id,
  );
  if (!acc) return { state: 'skipped', reason: 'account not found' };
  // Each reason names the command that lifts it.
  const account = ev.account_id === accountIds(store)[0] ? '' : ` --account ${ev.account_id}`;
  if (acc.webhooks_enabled !== 1) return { state: 'skipped', reason: `webhooks are disabled for the account (\`jobfit stub webhooks${account} --enable\` switches them on)` };
  if (!acc.webhook_endpoint) return { state: 'skipped', reason: `the account has no webhook endpoint (\`jobfit stub webhooks${account} --endpoint URL\` sets one)` };
  if (ev.team_id !== null) {
    const team = store.get<{ webhooks_enabled: number }>('SELECT webhooks_enabled FROM teams WHERE id = ?', ev.team_id);
    if (team?.webhooks_enabled !== 1) {
      return { state: 'skipped', reason: `webhook delivery is disabled for team ${ev.team_id} (\`jobfit stub webhooks${account} --team ${ev.team_id} --enable\` switches it on)` };
    }
  }
  return { state: 'pending', url: acc.webhook_endpoint };
}

/**
 * Sends a recorded event again (`stub events --resend ID`), to the endpoint
 * and under the gates in force now, as a fresh round of attempts; the
 * earlier attempts stay in its history.
 */
export function resendEvent(store: Store, eventId: string, now = Date.now()): EnqueueResult {
  const result = store.write(() => {
    const ev = store.get<{ id: string; account_id: number; team_id: number | null }>('SELECT id, account_id, team_id FROM events WHERE id = ?', eventId);
    if (!ev) throw new WebhookSettingsError(`Event ${eventId} not found (\`jobfit stub events\` lists them).`);
    const r = gate(store, { id: ev.id, account_id: ev.account_id, team_id: ev.team_id });
    if (r.state === 'skipped') return r;
    store.run(
      `INSERT INTO webhook_queue (event_id, account_id, url, state, attempts, next_attempt_at, reason) VALUES (?, ?, ?, 'pending', ?, ?, NULL)
       ON CONFLICT(event_id) DO UPDATE SET url = excluded.url, state = 'pending', attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at, lease_until = NULL, reason = NULL`,
      ev.id,
      ev.account_id,
      r.url,
      // A fresh round: attempts count from 1 again, with the whole retry schedule.
      0,
      now,
    );
    return r;
  });
  if (result.state === 'pending') kickDeliveries(store);
  return result;
}

