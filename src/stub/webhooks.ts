/**
 * Webhook delivery of the stub.
 *
 * Design (docs/webhooks.md):
 * - The lifecycle stores every live event in `events` (recordEvent). Right
 *   after, `enqueueDelivery` decides, in the same transaction, whether the
 *   event goes out: the account flag and endpoint, and the participant's team
 *   flag. Every event gets one row in `webhook_queue`, either `pending` or
 *   `skipped` with the reason, so `stub events` can say why nothing was sent.
 * - The process that recorded the event makes the first attempt at once
 *   (`kickDeliveries`, after the transaction commits). Retries are made by any
 *   process running a delivery loop (`startDeliveryLoop`): `stub serve` and a
 *   `webhook listen` pointed at the stub. Rows are claimed with a lease in the
 *   shared SQLite file, so two processes never send the same attempt twice.
 * - Every attempt is a row in `deliveries` (status, HTTP status, duration, error).
 * - Every attempt is signed the Standard Webhooks way (`webhook-id`,
 *   `webhook-timestamp`, `webhook-signature`; src/api/webhook-signature.ts),
 *   and for one release with the earlier `jobfit-signature` beside it, with
 *   the signing secret of the account's endpoint, made on first use and kept
 *   when the URL changes (a `webhook listen` borrowing the endpoint signs with
 *   the same secret), until `stub webhooks --rotate-secret`. A secret made
 *   before (base64url) is re-spelt in standard base64, the same key, and its
 *   old spelling keeps keying `jobfit-signature` (secretNotice says so).
 */
import { LEGACY_SIGNATURE_UNTIL, isStandardSecret, newSigningSecret, signDelivery, standardSpelling } from '../api/webhook-signature.js';
import type { Store } from './store.js';
import { UsageError } from '../core/errors.js';

export const WEBHOOK_USER_AGENT = 'jobfit-stub-webhooks/1.0';

/** Waits after failed attempt 1, 2, …; attempts = delays + 1. About four minutes in all. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000];
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface RetryPolicy {
  delaysMs: readonly number[];
  timeoutMs: number;
}

const QUEUE_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_queue (
  event_id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  url TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending','sending','delivered','failed','skipped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  reason TEXT
);
CREATE INDEX IF NOT EXISTS webhook_queue_due ON webhook_queue(state, next_attempt_at);
CREATE TABLE IF NOT EXISTS webhook_listeners (
  url TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  linked_at INTEGER NOT NULL,
  ended_at INTEGER,
  before_json TEXT NOT NULL
);
`;

const schemaReady = new WeakSet<Store>();

/** Creates the queue table and the duration column of `deliveries` (idempotent, any process). */
export function ensureWebhookSchema(store: Store): void {
  if (schemaReady.has(store)) return;
  store.write(() => {
    store.db.exec(QUEUE_SCHEMA);
    const cols = store.db.prepare('PRAGMA table_info(deliveries)').all() as Array<{ name: string }>;
    if (!cols.some((c) => c.name === 'duration_ms')) store.db.exec('ALTER TABLE deliveries ADD COLUMN duration_ms INTEGER');
    const acc = store.db.prepare('PRAGMA table_info(accounts)').all() as Array<{ name: string }>;
    if (!acc.some((c) => c.name === 'webhook_secret')) store.db.exec('ALTER TABLE accounts ADD COLUMN webhook_secret TEXT');
    // The secret as it was first given out, when the stub has re-spelt it for Standard Webhooks: keys jobfit-signature.
    if (!acc.some((c) => c.name === 'webhook_secret_legacy')) store.db.exec('ALTER TABLE accounts ADD COLUMN webhook_secret_legacy TEXT');
  });
  schemaReady.add(store);
}

/** Parses "1s,2s,500ms,1m" or "1000,2000" into milliseconds. */
export function parseSchedule(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(part);
    // A usage error: the text comes from --retry-schedule or JOBFIT_STUB_WEBHOOK_RETRY (exit 2).
    if (!m) throw new UsageError(`Invalid retry delay "${part}": use numbers with ms, s or m, e.g. 1s,2s,4s.`);
    const n = Number(m[1]);
    out.push(Math.round(m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n));
  }
  return out;
}

export function formatSchedule(delays: readonly number[]): string {
  return delays.map((d) => (d % 60_000 === 0 && d > 0 ? `${d / 60_000}m` : d % 1000 === 0 && d > 0 ? `${d / 1000}s` : `${d}ms`)).join(',');
}

/**
 * The policy in force: JOBFIT_STUB_WEBHOOK_RETRY / JOBFIT_STUB_WEBHOOK_TIMEOUT_MS
 * (tests), else what `stub webhooks --retry-schedule` stored, else the default.
 */
export function retryPolicy(store: Store, env: Record<string, string | undefined> = process.env): RetryPolicy {
  const fromEnv = env.JOBFIT_STUB_WEBHOOK_RETRY;
  const stored = store.meta('webhook_retry_schedule');
  let delaysMs: readonly number[] = DEFAULT_RETRY_DELAYS_MS;
  if (fromEnv !== undefined) delaysMs = parseSchedule(fromEnv);
  else if (stored !== undefined) delaysMs = parseSchedule(stored);
  const t = Number(env.JOBFIT_STUB_WEBHOOK_TIMEOUT_MS);
  return { delaysMs, timeoutMs: Number.isFinite(t) && t > 0 ? t : DEFAULT_ATTEMPT_TIMEOUT_MS };
}

// ------------------------------------------------------------------ settings

export interface TeamWebhookSetting {
  id: number;
  display_name: string;
  webhooks_enabled: boolean;
}

export interface WebhookSettings {
  account_id: number;
  account_display_name: string;
  webhook_endpoint: string | null;
  webhooks_enabled: boolean;
  teams: TeamWebhookSetting[];
  retry_schedule: string;
  /** Signs every delivery to the endpoint (`jobfit webhook verify` checks one). */
  signing_secret: string;
}

/**
 * The account endpoint's signing secret, made on first use. One made before
 * Standard Webhooks (base64url, which its libraries cannot load) is re-spelt
 * in standard base64 on first read: the same key, so signatures by the key are
 * unchanged; the old spelling is kept to key `jobfit-signature`.
 */
export function signingSecret(store: Store, accountId: number): string | undefined {
  ensureWebhookSchema(store);
  const row = store.get<{ webhook_secret: string | null }>('SELECT webhook_secret FROM accounts WHERE id = ?', accountId);
  if (!row) return undefined;
  if (row.webhook_secret && isStandardSecret(row.webhook_secret)) return row.webhook_secret;
  return store.write(() => {
    // Another process may have made (or re-spelt) it between the read and this transaction.
    const again = store.get<{ webhook_secret: string | null }>('SELECT webhook_secret FROM accounts WHERE id = ?', accountId);
    const old = again?.webhook_secret;
    if (old && isStandardSecret(old)) return old;
    if (old) {
      // Re-spelt when it is a key of 24 to 64 bytes; else (never made by us) replaced, the old one still keying jobfit-signature.
      const secret = standardSpelling(old) ?? newSigningSecret();
      store.run('UPDATE accounts SET webhook_secret = ?, webhook_secret_legacy = ? WHERE id = ?', secret, old, accountId);
      return secret;
    }
    const secret = newSigningSecret();
    store.run('UPDATE accounts SET webhook_secret = ?, webhook_secret_legacy = NULL WHERE id = ?', secret, accountId);
    return secret;
  });
}

/** The secret keying `jobfit-signature`: the old spelling when the stub re-spelt it, else the secret. */
function legacySecret(store: Store, accountId: number): string | undefined {
  return store.get<{ webhook_secret_legacy: string | null }>('SELECT webhook_secret_legacy FROM accounts WHERE id = ?', accountId)?.webhook_secret_legacy ?? undefined;
}

/**
 * The notice for an account whose secret was re-spelt (or replaced) for
 * Standard Webhooks; undefined when nothing changed. Shown by `stub webhooks`
 * and `webhook listen` while the earlier header is still sent.
 */
export function secretNotice(store: Store, accountId: number): string | undefined {
  const secret = signingSecret(store, accountId);
  const old = legacySecret(store, accountId);
  if (!secret || !old) return undefined;
  const same = standardSpelling(old) === secret;
  return same
    ? `the signing secret of account ${accountId} is now spelt ${secret} (standard base64, the same key, as Standard Webhooks libraries need); the old spelling keeps verifying jobfit-signature until that header goes in ${LEGACY_SIGNATURE_UNTIL}`
    : `the signing secret of account ${accountId} was replaced by ${secret} (the old one was not base64 of 24 to 64 bytes); the old one keeps verifying jobfit-signature until that header goes in ${LEGACY_SIGNATURE_UNTIL}`;
}

export function accountIds(store: Store): number[] {
  return store.all<{ id: number }>('SELECT id FROM accounts ORDER BY id').map((r) => r.id);
}

export function getWebhookSettings(store: Store, accountId: number): WebhookSettings | undefined {
  const acc = store.get<{ id: number; display_name: string; webhook_endpoint: string | null; webhooks_enabled: number }>(
    'SELECT id, display_name, webhook_endpoint, webhooks_enabled FROM accounts WHERE id = ?',
    accountId,
  );
  if (!acc) return undefined;
  const teams = store
    .all<{ id: number; display_name: string; webhooks_enabled: number }>(
      'SELECT id, display_name, webhooks_enabled FROM teams WHERE account_id = ? ORDER BY id',
      accountId,
    )
    .map((t) => ({ id: t.id, display_name: t.display_name, webhooks_enabled: t.webhooks_enabled === 1 }));
  return {
    account_id: acc.id,
    account_display_name: acc.display_name,
    webhook_endpoint: acc.webhook_endpoint,
    webhooks_enabled: acc.webhooks_enabled === 1,
    teams,
    retry_schedule: formatSchedule(retryPolicy(store, {}).delaysMs),
    signing_secret: signingSecret(store, accountId)!,
  };
}

export interface WebhookSettingsChange {
  /** A URL, or null to remove the endpoint. */
  endpoint?: string | null;
  enabled?: boolean;
  teams?: Array<{ id: number; enabled: boolean }>;
  /** e.g. "1s,2s,4s"; stored for every process using this data directory. */
  retrySchedule?: string;
  /** A new signing secret (the old one stops working at once). */
  rotateSecret?: boolean;
}

export class WebhookSettingsError extends Error {}

export function checkEndpoint(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new WebhookSettingsError(`Webhook endpoint "${url}" is not a URL.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new WebhookSettingsError(`Webhook endpoint "${url}" must be an http or https URL.`);
  return u.toString();
}

export function setWebhookSettings(store: Store, accountId: number, change: WebhookSettingsChange): WebhookSettings {
  ensureWebhookSchema(store);
  store.write(() => {
    if (!store.get('SELECT id FROM accounts WHERE id = ?', accountId)) throw new WebhookSettingsError(`Account ${accountId} does not exist in the stub.`);
    if (change.endpoint !== undefined) {
      store.run('UPDATE accounts SET webhook_endpoint = ? WHERE id = ?', change.endpoint === null ? null : checkEndpoint(change.endpoint), accountId);
    }
    if (change.enabled !== undefined) store.run('UPDATE accounts SET webhooks_enabled = ? WHERE id = ?', change.enabled ? 1 : 0, accountId);
    for (const t of change.teams ?? []) {
      const r = store.run('UPDATE teams SET webhooks_enabled = ? WHERE id = ? AND account_id = ?', t.enabled ? 1 : 0, t.id, accountId);
      if (r.changes === 0) throw new WebhookSettingsError(`Team ${t.id} is not a team of account ${accountId}.`);
    }
    if (change.retrySchedule !== undefined) {
      const delays = parseSchedule(change.retrySchedule);
      if (delays.length > 20) throw new WebhookSettingsError('At most 20 retries.');
      store.setMeta('webhook_retry_schedule', formatSchedule(delays));
    }
    if (change.rotateSecret) store.run('UPDATE accounts SET webhook_secret = ?, webhook_secret_legacy = NULL WHERE id = ?', newSigningSecret(), accountId);
  });
  return getWebhookSettings(store, accountId)!;
}

// ------------------------------------------------------------------ queue

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
  ensureWebhookSchema(store);
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
  ensureWebhookSchema(store);
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

// ------------------------------------------------------------------ listeners

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
  ensureWebhookSchema(store);
  const r = store.get<{ url: string; account_id: number; pid: number; ended_at: number | null; before_json: string }>('SELECT * FROM webhook_listeners WHERE url = ?', url);
  return r && { url: r.url, account_id: r.account_id, pid: r.pid, ended_at: r.ended_at, before: JSON.parse(r.before_json) as ListenerRecord['before'] };
}

/** The URL was a listener's, and that listener has stopped (or was killed without putting the settings back). */
export function listenerGone(store: Store, url: string): boolean {
  const l = listenerAt(store, url);
  return l !== undefined && (l.ended_at !== null || !pidAlive(l.pid));
}

export function recordListener(store: Store, l: Omit<ListenerRecord, 'ended_at'>, now = Date.now()): void {
  ensureWebhookSchema(store);
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
  ensureWebhookSchema(store);
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

// ------------------------------------------------------------------ attempts

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
  const signed = secret ? signDelivery(secret, { id: ev.id, timestamp, body: ev.payload }, legacySecret(store, row.account_id)) : { 'webhook-id': ev.id, 'webhook-timestamp': String(timestamp) };
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
  ensureWebhookSchema(store);
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
  ensureWebhookSchema(store);
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

// ------------------------------------------------------------------ reading back

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
  ensureWebhookSchema(store);
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
