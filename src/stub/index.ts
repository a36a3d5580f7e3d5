/**
 * The embedded stub of the Assessment and Job-Fit Service. The CLI runs it
 * in-process for offline use (imported lazily by cli/create-context.ts), tests start
 * it on port 0, `jobfit stub serve` runs it as a long-lived server.
 */
import type { AppOptions } from './app.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { type StubKeys, stubKeys } from './embedded.js';
import { participantPages } from './page.js';
import { listenStub } from './server.js';
import { noteStubInProcess } from '../core/loopback.js';
import { type SeededStore, openStore } from './seeded-store.js';
import { type Store, originOf } from './store.js';

export type { FaultSpec } from './faults.js';
export { parseFaults } from './faults.js';
export { Store } from './store.js';
export { type EmbeddedStub, type StubKeys, openEmbeddedStub, stubKeys } from './embedded.js';
export { openStore, SeededStore } from './seeded-store.js';
export { accountOfKey, linkStub } from './listener-link.js';
export type { LinkOptions, StubLink } from './listener-link.js';
export { accept, complete, listEvents, listOutbox, recordEvent, trigger, LifecycleError } from './lifecycle.js';
export type { AssessmentChoice, CompleteResult, AcceptResult, StoredEvent, OutboxMessage, EventEnvelope, TriggerType } from './lifecycle.js';
export { flushDeliveries, startDeliveryLoop } from './webhooks/deliver.js';
export { listEventDeliveries, type EventView } from './webhooks/events.js';
export { resendEvent } from './webhooks/queue.js';
export { accountIds, getWebhookSettings, setWebhookSettings, signingSecret, WebhookSettingsError, type WebhookSettingsChange } from './webhooks/settings.js';


export interface StartStubOptions {
  dataDir: string;
  port?: number;
  host?: string;
  faults?: FaultSpec | string;
  /** Pages outside /v1 and /v2 (the participant page): return true when handled. */
  pages?: AppOptions['pages'];
  /**
   * Whether this server is the data directory's public face (default true):
   * it stores its origin, and every URL it or another process hands out
   * (assessment_url, event payloads, emails) points at it. The CLI's embedded
   * in-process stub passes false: it lives for one command on a random port,
   * so its URLs use the stored origin of the last `stub serve`, else
   * http://127.0.0.1:4010, and it leaves the stored origin alone.
   */
  publishOrigin?: boolean;
  /** Play a strict server: "not shown" list items carry only the fields the reference states. */
  minimalFields?: boolean;
}

export interface RunningStub {
  /** Base URL of API v2, e.g. http://127.0.0.1:4010/v2 */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The address and port really bound, e.g. `0.0.0.0:4010` (every interface). */
  bound: string;
  keys: StubKeys[];
  /** The random id this server answers at STUB_INSTANCE_PATH (core/loopback.ts): what tells it from any other server. */
  instance: string;
  store: SeededStore;
  close(): Promise<void>;
}

/** The ids of an account's teams, in order (none: no such account). */
export function accountTeamIds(store: Store, accountId: number): number[] {
  return store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = ? ORDER BY id', accountId).map((t) => t.id);
}

export async function startStubServer(opts: StartStubOptions): Promise<RunningStub> {
  const store = await openStore(opts.dataDir);
  const faults = opts.faults === undefined ? undefined : new FaultInjector(opts.faults);
  const publish = opts.publishOrigin ?? true;
  const l = await listenStub({
    store,
    port: opts.port ?? 0,
    host: opts.host,
    faults: faults?.enabled ? faults : undefined,
    pages: opts.pages ?? participantPages,
    minimalFields: opts.minimalFields,
    // Read per request: a `stub serve` started later on the same data moves it.
    urlOrigin: publish ? undefined : () => originOf(store),
  });
  // Lifecycle commands in other processes write URLs (events, emails) under this origin.
  if (publish) {
    try {
      store.write(() => store.setMeta('origin', l.origin));
    } catch (err) {
      // A full or read-only disk: the stub still serves reads, and says so once.
      const disk = store.diskError(err);
      if (!disk) {
        await l.close();
        store.close();
        throw err;
      }
      store.noteDiskCondition(disk.condition);
    }
  }
  // Bulk invite in this process knows it for our stub (config/served-stubs.ts, isOurStub).
  const forget = noteStubInProcess(l.origin, l.instance);
  return {
    url: `${l.origin}/v2`,
    origin: l.origin,
    bound: l.bound,
    instance: l.instance,
    keys: stubKeys(store),
    store,
    close: async () => {
      forget();
      await l.close();
      store.close();
    },
  };
}
