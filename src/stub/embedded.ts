/**
 * The CLI's embedded stub: the store and its routes, answered in the
 * command's own process (in-process.ts), with no listener. Its own module,
 * apart from index.ts, so that an offline command loads neither the server,
 * the pages, the lifecycle nor the webhooks (cli/create-context.ts).
 */
import { IN_PROCESS_ORIGIN, type InProcessDispatcher, inProcessDispatcher } from './in-process.js';
import { openStore } from './seeded-store.js';
import { type Store, originOf } from './store.js';

export interface StubKeys {
  account_id: number;
  display_name: string;
  live_key: string;
  test_key: string;
}

/** The seeded accounts and their keys, from the store. */
export function stubKeys(store: Store): StubKeys[] {
  return store.all<StubKeys>(
    `SELECT a.id AS account_id, a.display_name,
       (SELECT key FROM api_keys WHERE account_id = a.id AND mode = 'live') AS live_key,
       (SELECT key FROM api_keys WHERE account_id = a.id AND mode = 'test') AS test_key
     FROM accounts a ORDER BY a.id`,
  );
}

/** The CLI's embedded stub: the store and its routes, answered in this process through `dispatcher` (in-process.ts). */
export interface EmbeddedStub {
  /** Base URL of API v2 to give the client with `dispatcher` (IN_PROCESS_ORIGIN: nothing listens there). */
  url: string;
  keys: StubKeys[];
  dispatcher: InProcessDispatcher;
  close(): Promise<void>;
}

/**
 * Opens the stub for one command of the CLI, with no listener: its URLs
 * (assessment_url, events, emails) use the stored origin of the last `stub
 * serve`, else http://127.0.0.1:4010, as a stub with publishOrigin false does.
 */
export async function openEmbeddedStub(opts: { dataDir: string; minimalFields?: boolean }): Promise<EmbeddedStub> {
  const store = await openStore(opts.dataDir);
  const dispatcher = inProcessDispatcher({ store, origin: () => originOf(store), minimalFields: opts.minimalFields });
  return {
    url: `${IN_PROCESS_ORIGIN}/v2`,
    keys: stubKeys(store),
    dispatcher,
    close: async () => {
      await dispatcher.close();
      store.close();
    },
  };
}

