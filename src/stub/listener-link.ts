/**
 * The stub's side of `webhook listen`: point the account's endpoint at the
 * listener, switch delivery on, run the retry loop, and put everything back
 * when the listener stops.
 */
import { openStore } from './seeded-store.js';
import type { Store } from './store.js';
import {
  type AttemptResult,
  type DeliveryLoop,
  type WebhookSettings,
  WebhookSettingsError,
  accountIds,
  getWebhookSettings,
  setWebhookSettings,
  signingSecret,
  startDeliveryLoop,
} from './webhooks.js';

export interface StubLink {
  accountId: number;
  /** Teams whose flag we switched on (they are switched off again on restore). */
  teamsSwitched: number[];
  /** The secret the stub signs this listener's deliveries with. */
  signingSecret: string;
  restore(): Promise<void>;
}

export interface LinkOptions {
  dataDir: string;
  url: string;
  /** An account id, else the account of `apiKey` when the stub knows it, else the first account. */
  accountId?: number;
  apiKey?: string;
  /** Leave the per-team flags as they are (only teams already enabled get events). */
  onlyEnabledTeams?: boolean;
  onAttempt?: (r: AttemptResult) => void;
}

export async function linkStub(o: LinkOptions): Promise<StubLink> {
  const store: Store = await openStore(o.dataDir);
  try {
    const accountId = o.accountId ?? accountOfKey(store, o.apiKey) ?? accountIds(store)[0];
    if (accountId === undefined) throw new WebhookSettingsError('The stub has no account.');
    const before = getWebhookSettings(store, accountId);
    if (!before) throw new WebhookSettingsError(`Account ${accountId} does not exist in the stub (${o.dataDir}).`);
    const teamsSwitched = o.onlyEnabledTeams ? [] : before.teams.filter((t) => !t.webhooks_enabled).map((t) => t.id);
    setWebhookSettings(store, accountId, {
      endpoint: o.url,
      enabled: true,
      teams: teamsSwitched.map((id) => ({ id, enabled: true })),
    });
    const loop: DeliveryLoop = startDeliveryLoop(store, { onResult: o.onAttempt });
    let restored = false;
    return {
      accountId,
      teamsSwitched,
      signingSecret: signingSecret(store, accountId)!,
      async restore() {
        if (restored) return;
        restored = true;
        await loop.stop();
        restoreSettings(store, accountId, before, teamsSwitched, o.url);
        store.close();
      },
    };
  } catch (err) {
    store.close();
    throw err;
  }
}

function restoreSettings(store: Store, accountId: number, before: WebhookSettings, teamsSwitched: number[], ourUrl: string): void {
  const now = getWebhookSettings(store, accountId);
  // Someone changed the endpoint while we listened (another listener, the operator): theirs stands.
  const endpointIsOurs = now?.webhook_endpoint === ourUrl;
  setWebhookSettings(store, accountId, {
    ...(endpointIsOurs ? { endpoint: before.webhook_endpoint, enabled: before.webhooks_enabled } : {}),
    teams: teamsSwitched.map((id) => ({ id, enabled: false })),
  });
}

/** The account an API key of the stub belongs to (undefined: no key, or one the stub does not know). */
export function accountOfKey(store: Store, key: string | undefined): number | undefined {
  if (!key) return undefined;
  return store.get<{ account_id: number }>('SELECT account_id FROM api_keys WHERE key = ?', key)?.account_id;
}
