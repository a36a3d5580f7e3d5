/**
 * startStub for programs and their tests: the whole service on a loopback
 * port, seeded with the demo accounts, in a fresh temporary directory unless
 * told where to keep its data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StubOptions {
  /**
   * Where the stub keeps its SQLite data. Default: a new temporary directory,
   * removed by close(). A directory given here is kept (and reused next time).
   */
  dataDir?: string;
  /** Default 0: any free port (read it from `url`). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface StubAccount {
  account_id: number;
  display_name: string;
  /** Keys to pass to createClient({ apiKey }). */
  live_key: string;
  test_key: string;
}

export interface Stub {
  /** Base URL of API v2, e.g. `http://127.0.0.1:43117/v2`: pass it to createClient({ baseUrl }). */
  url: string;
  /** The seeded accounts and their keys. */
  keys: StubAccount[];
  /** Stops the server and closes its data (removing it when it was a temporary directory). */
  close(): Promise<void>;
}

export async function startStub(opts: StubOptions = {}): Promise<Stub> {
  const { startStubServer: start } = await import('../stub/index.js');
  const own = opts.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'jobfit-stub-')) : undefined;
  const dataDir = opts.dataDir ?? own!;
  let running;
  try {
    running = await start({ dataDir, port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  } catch (err) {
    if (own) rmSync(own, { recursive: true, force: true });
    throw err;
  }
  const stub = running;
  let closed: Promise<void> | undefined;
  return {
    url: stub.url,
    keys: stub.keys.map((k) => ({ account_id: k.account_id, display_name: k.display_name, live_key: k.live_key, test_key: k.test_key })),
    close() {
      closed ??= stub.close().finally(() => {
        if (own) rmSync(own, { recursive: true, force: true });
      });
      return closed;
    },
  };
}
