/**
 * The `webhook listen` processes that pointed an account's endpoint at
 * themselves (`webhook_listeners`): what to put back, whether they still run,
 * and the events queued for one that has stopped.
 */
import type { Store } from '../store.js';

/** A `webhook listen` that pointed an account's endpoint at itself: what to put back, and whether it still runs. */
export interface ListenerRecord {
  url: string;
  account_id: number;
  pid: number;
  ended_at: number | null;
  before: { endpoint: string | null; enabled: boolean; teamsSwitched: number[] };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function listenerAt(store: Store, url: string): ListenerRecord | undefined {
  const r = store.get<{ url: string; account_id: number; pid: number; ended_at: number | null; before_json: string }>('SELECT * FROM webhook_listeners WHERE url = ?', url);
  return r && { url: r.url, account_id: r.account_id, pid: r.pid, ended_at: r.ended_at, before: JSON.parse(r.before_json) as ListenerRecord['before'] };
}

/** The URL was a listener's, and that listener has stopped (or was killed without putting the settings back). */
export function listenerGone(store: Store, url: string): boolean {
  const l = listenerAt(store, url);
  return l !== undefined && (l.ended_at !== null || !pidAlive(l.pid));
}

export function recordListener(store: Store, l: Omit<ListenerRecord, 'ended_at'>, now = Date.now()): void {
  store.write(() =>
    store.run(
      'INSERT OR REPLACE INTO webhook_listeners (url, account_id, pid, linked_at, ended_at, before_json) VALUES (?, ?, ?, ?, NULL, ?)',
      l.url,
      l.account_id,
      l.pid,
      now,
      JSON.stringify(l.before),
    ),
  );
}

export function endListener(store: Store, url: string, now = Date.now()): void {
  store.write(() => store.run('UPDATE webhook_listeners SET ended_at = ? WHERE url = ? AND ended_at IS NULL', now, url));
}

/**
 * Events queued for listeners of the account that have stopped (pending,
 * held, or given up) go to `url` instead, due now: a listener restarted on
 * another port gets what was meant for the one before. Returns how many.
 */
export function requeueForListener(store: Store, accountId: number, url: string, now = Date.now()): number {
  const gone = store
    .all<{ url: string }>('SELECT url FROM webhook_listeners WHERE account_id = ? AND url != ?', accountId, url)
    .map((r) => r.url)
    .filter((u) => listenerGone(store, u));
  return store.write(() => {
    let n = 0;
    for (const old of gone) {
      n += store.run(
        `UPDATE webhook_queue SET url = ?, state = 'pending', next_attempt_at = ?, lease_until = NULL, reason = NULL,
           attempts = CASE WHEN state = 'failed' THEN 0 ELSE attempts END
         WHERE account_id = ? AND url = ? AND (state IN ('pending', 'failed') OR (state = 'sending' AND lease_until <= ?))`,
        url,
        now,
        accountId,
        old,
        now,
      ).changes;
    }
    // Events held for an earlier listener on this very URL (the same --port) are due again too.
    n += store.run(
      `UPDATE webhook_queue SET next_attempt_at = ?, reason = NULL WHERE account_id = ? AND url = ? AND state = 'pending' AND next_attempt_at IS NULL`,
      now,
      accountId,
      url,
    ).changes;
    pruneListeners(store);
    return n;
  });
}

/**
 * Forgets listeners that have stopped and that nothing reads again: a row is
 * kept while its URL is an account's endpoint (what to put back when the
 * listener was killed: linkStub) and while an event waits for that URL (it
 * is held, not sent to whatever binds the port next: attempt). Without this,
 * every `webhook listen` on a new port left a row behind for good.
 */
function pruneListeners(store: Store): void {
  const stopped = store
    .all<{ url: string; pid: number; ended_at: number | null }>(
      `SELECT url, pid, ended_at FROM webhook_listeners l
       WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.webhook_endpoint = l.url)
         AND NOT EXISTS (SELECT 1 FROM webhook_queue q WHERE q.url = l.url AND q.state IN ('pending', 'sending', 'failed'))`,
    )
    .filter((l) => l.ended_at !== null || !pidAlive(l.pid));
  for (const l of stopped) store.run('DELETE FROM webhook_listeners WHERE url = ?', l.url);
}

