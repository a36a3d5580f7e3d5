/**
 * The stub's side of `webhook listen`: point the account's endpoint at the
 * listener, switch delivery on, run the retry loop, and put everything back
 * when the listener stops.
 *
 * Each link is recorded (`webhook_listeners`: the URL, the process, what to put
 * back), so that a listener that could not clean up (SIGKILL) does no harm:
 * events for its URL are held, not sent to whatever binds that port next
 * (webhooks/deliver.ts, `attempt`), and the next listener puts back the settings it
 * found before the dead one and takes over what was queued for it.
 */
import { openStore } from './seeded-store.js';
import type { Store } from './store.js';
import { type AttemptResult, type DeliveryLoop, startDeliveryLoop } from './webhooks/deliver.js';
import { endListener, listenerAt, listenerGone, recordListener, requeueForListener } from './webhooks/listeners.js';
import { WebhookSettingsError, accountIds, getWebhookSettings, setWebhookSettings, signingSecret } from './webhooks/settings.js';

export interface StubLink {
  accountId: number;
  /** Teams whose flag we switched on (they are switched off again on restore). */
  teamsSwitched: number[];
  /** The secret the stub signs this listener's deliveries with. */
  signingSecret: string;
  /** Events queued for a listener that had stopped, now coming to this one. */
  requeued: number;
  /** A listener killed before it could put the settings back, whose settings this one puts back instead. */
  tookOverFrom?: string;
  restore(): Promise<void>;
  /** restore() without waiting for the retry loop: for the process's `exit`. */
  restoreNow(): void;
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
    const now = getWebhookSettings(store, accountId);
    if (!now) throw new WebhookSettingsError(`Account ${accountId} does not exist in the stub (${o.dataDir}).`);
    let before = { endpoint: now.webhook_endpoint, enabled: now.webhooks_enabled, teamsSwitched: [] as number[] };
    // The endpoint is a listener's that was killed before it put things back: what it found is what comes back.
    let tookOverFrom: string | undefined;
    const dead = now.webhook_endpoint === null ? undefined : listenerAt(store, now.webhook_endpoint);
    if (dead && dead.account_id === accountId && dead.ended_at === null && listenerGone(store, dead.url)) {
      before = { ...dead.before };
      tookOverFrom = dead.url;
      endListener(store, dead.url);
    }
    const ours = o.onlyEnabledTeams ? [] : now.teams.filter((t) => !t.webhooks_enabled).map((t) => t.id);
    const teamsSwitched = [...new Set([...before.teamsSwitched, ...ours])];
    before.teamsSwitched = teamsSwitched;
    setWebhookSettings(store, accountId, {
      endpoint: o.url,
      enabled: true,
      teams: ours.map((id) => ({ id, enabled: true })),
    });
    recordListener(store, { url: checkUrl(o.url), account_id: accountId, pid: process.pid, before });
    const requeued = requeueForListener(store, accountId, checkUrl(o.url));
    const loop: DeliveryLoop = startDeliveryLoop(store, { onResult: o.onAttempt });
    let restored = false;
    const putBack = () => {
      restored = true;
      try {
        endListener(store, checkUrl(o.url));
        restoreSettings(store, accountId, before, o.url);
      } finally {
        store.close();
      }
    };
    return {
      accountId,
      teamsSwitched,
      signingSecret: signingSecret(store, accountId)!,
      requeued,
      tookOverFrom,
      async restore() {
        if (restored) return;
        await loop.stop();
        if (!restored) putBack();
      },
      restoreNow() {
        if (restored) return;
        void loop.stop();
        putBack();
      },
    };
  } catch (err) {
    store.close();
    throw err;
  }
}

/** The URL as the settings store it (setWebhookSettings normalises it). */
function checkUrl(url: string): string {
  return new URL(url).toString();
}

function restoreSettings(store: Store, accountId: number, before: { endpoint: string | null; enabled: boolean; teamsSwitched: number[] }, ourUrl: string): void {
  const now = getWebhookSettings(store, accountId);
  // Someone changed the endpoint while we listened (another listener, the operator): theirs stands.
  const endpointIsOurs = now?.webhook_endpoint === checkUrl(ourUrl);
  setWebhookSettings(store, accountId, {
    ...(endpointIsOurs ? { endpoint: before.endpoint, enabled: before.enabled } : {}),
    teams: before.teamsSwitched.map((id) => ({ id, enabled: false })),
  });
}

/** The account an API key of the stub belongs to (undefined: no key, or one the stub does not know). */
export function accountOfKey(store: Store, key: string | undefined): number | undefined {
  if (!key) return undefined;
  return store.get<{ account_id: number }>('SELECT account_id FROM api_keys WHERE key = ?', key)?.account_id;
}
