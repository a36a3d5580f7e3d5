/**
 * The stub's webhook settings of an account: its endpoint and flag, the
 * per-team flags, the retry schedule, and the endpoint's signing secret
 * (Standard Webhooks, src/api/webhook-signature.ts), made on first use and
 * kept when the URL changes (a `webhook listen` borrowing the endpoint signs
 * with the same secret), until `stub webhooks --rotate-secret`.
 */
import { isStandardSecret, newSigningSecret, standardSpelling } from '../../api/webhook-signature.js';
import type { Store } from '../store.js';
import { formatSchedule, parseSchedule, retryPolicy } from './policy.js';

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

/**
 * The account endpoint's signing secret, made on first use. A secret that
 * is not `whsec_` + standard base64 (one made before Standard Webhooks, in
 * base64url) is re-spelt when it stands for a key (the same key: signatures
 * are unchanged), else replaced.
 */
export function signingSecret(store: Store, accountId: number): string | undefined {
  const row = store.get<{ webhook_secret: string | null }>('SELECT webhook_secret FROM accounts WHERE id = ?', accountId);
  if (!row) return undefined;
  if (row.webhook_secret && isStandardSecret(row.webhook_secret)) return row.webhook_secret;
  return store.write(() => {
    // Another process may have made (or re-spelt) it between the read and this transaction.
    const old = store.get<{ webhook_secret: string | null }>('SELECT webhook_secret FROM accounts WHERE id = ?', accountId)?.webhook_secret;
    if (old && isStandardSecret(old)) return old;
    const secret = (old && standardSpelling(old)) || newSigningSecret();
    store.run('UPDATE accounts SET webhook_secret = ? WHERE id = ?', secret, accountId);
    return secret;
  });
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

function checkEndpoint(url: string): string {
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
    if (change.rotateSecret) store.run('UPDATE accounts SET webhook_secret = ? WHERE id = ?', newSigningSecret(), accountId);
  });
  return getWebhookSettings(store, accountId)!;
}
