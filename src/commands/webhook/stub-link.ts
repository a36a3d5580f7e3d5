/**
 * `webhook listen` against the local stub: point the account's endpoint at the
 * listener, switch delivery on, run the retry loop, and put everything back
 * when the listener stops.
 */
import type { AttemptResult, DeliveryLoop, WebhookSettings } from '../../stub/webhooks.js';
import type { Store } from '../../stub/store.js';

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
  const [{ openStore }, wh] = await Promise.all([import('../../stub/store.js'), import('../../stub/webhooks.js')]);
  const store: Store = await openStore(o.dataDir);
  try {
    const accountId = o.accountId ?? accountOfKey(store, o.apiKey) ?? wh.accountIds(store)[0];
    if (accountId === undefined) throw new wh.WebhookSettingsError('The stub has no account.');
    const before = wh.getWebhookSettings(store, accountId);
    if (!before) throw new wh.WebhookSettingsError(`Account ${accountId} does not exist in the stub (${o.dataDir}).`);
    const teamsSwitched = o.onlyEnabledTeams ? [] : before.teams.filter((t) => !t.webhooks_enabled).map((t) => t.id);
    wh.setWebhookSettings(store, accountId, {
      endpoint: o.url,
      enabled: true,
      teams: teamsSwitched.map((id) => ({ id, enabled: true })),
    });
    const loop: DeliveryLoop = wh.startDeliveryLoop(store, { onResult: o.onAttempt });
    let restored = false;
    return {
      accountId,
      teamsSwitched,
      signingSecret: wh.signingSecret(store, accountId)!,
      async restore() {
        if (restored) return;
        restored = true;
        await loop.stop();
        restoreSettings(wh, store, accountId, before, teamsSwitched, o.url);
        store.close();
      },
    };
  } catch (err) {
    store.close();
    throw err;
  }
}

function restoreSettings(
  wh: typeof import('../../stub/webhooks.js'),
  store: Store,
  accountId: number,
  before: WebhookSettings,
  teamsSwitched: number[],
  ourUrl: string,
): void {
  const now = wh.getWebhookSettings(store, accountId);
  // Someone changed the endpoint while we listened (another listener, the operator): theirs stands.
  const endpointIsOurs = now?.webhook_endpoint === ourUrl;
  wh.setWebhookSettings(store, accountId, {
    ...(endpointIsOurs ? { endpoint: before.webhook_endpoint, enabled: before.webhooks_enabled } : {}),
    teams: teamsSwitched.map((id) => ({ id, enabled: false })),
  });
}

function accountOfKey(store: Store, key: string | undefined): number | undefined {
  if (!key) return undefined;
  return store.get<{ account_id: number }>('SELECT account_id FROM api_keys WHERE key = ?', key)?.account_id;
}
