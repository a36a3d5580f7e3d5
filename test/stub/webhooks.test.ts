/**
 * The stub's record of `webhook listen` runs (webhook_listeners,
 * src/stub/webhooks/listeners.ts): a listener on a new port each run must not leave a
 * row behind for good, and the rows that are still read (a killed listener
 * whose URL is still an endpoint, or with events waiting for it) are kept.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkStub, openStore } from '../../src/stub/index.js';
import { listenerAt, recordListener } from '../../src/stub/webhooks/listeners.js';
import { getWebhookSettings, setWebhookSettings } from '../../src/stub/webhooks/settings.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'jobfit-listeners-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A pid that ran and has ended (a listener killed with SIGKILL). */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

async function rows(): Promise<string[]> {
  const store = await openStore(dataDir);
  try {
    return store.all<{ url: string }>('SELECT url FROM webhook_listeners ORDER BY url').map((r) => r.url);
  } finally {
    store.close();
  }
}

describe('webhook_listeners', () => {
  it('ten listeners on ten ports, one after another, leave at most the last one behind', async () => {
    for (let port = 41001; port <= 41010; port++) {
      const link = await linkStub({ dataDir, url: `http://127.0.0.1:${port}/`, accountId: 1 });
      await link.restore();
      expect((await rows()).length).toBeLessThanOrEqual(2);
    }
    expect(await rows()).toEqual(['http://127.0.0.1:41010/']);
  });

  it('a killed listener is taken over: its settings come back, then its row goes', async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { endpoint: 'https://app.example.com/hooks', enabled: false });
      // Killed while it listened: the endpoint still names it, its row says what to put back.
      setWebhookSettings(store, 1, { endpoint: 'http://127.0.0.1:41100/', enabled: true });
      recordListener(store, { url: 'http://127.0.0.1:41100/', account_id: 1, pid: deadPid(), before: { endpoint: 'https://app.example.com/hooks', enabled: false, teamsSwitched: [] } });
    } finally {
      store.close();
    }
    const next = await linkStub({ dataDir, url: 'http://127.0.0.1:41101/', accountId: 1 });
    expect(next.tookOverFrom).toBe('http://127.0.0.1:41100/');
    expect(await rows()).toEqual(['http://127.0.0.1:41101/']);
    await next.restore();
    const after = await openStore(dataDir);
    try {
      expect(getWebhookSettings(after, 1)).toMatchObject({ webhook_endpoint: 'https://app.example.com/hooks', webhooks_enabled: false });
    } finally {
      after.close();
    }
  });

  it("keeps a killed listener's row while its URL is still an account's endpoint (another account's listener starting meanwhile)", async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 2, { endpoint: 'http://127.0.0.1:41200/', enabled: true });
      recordListener(store, { url: 'http://127.0.0.1:41200/', account_id: 2, pid: deadPid(), before: { endpoint: null, enabled: false, teamsSwitched: [] } });
    } finally {
      store.close();
    }
    const other = await linkStub({ dataDir, url: 'http://127.0.0.1:41201/', accountId: 1 });
    await other.restore();
    expect(await rows()).toContain('http://127.0.0.1:41200/');
    const check = await openStore(dataDir);
    try {
      expect(listenerAt(check, 'http://127.0.0.1:41200/')?.before).toEqual({ endpoint: null, enabled: false, teamsSwitched: [] });
    } finally {
      check.close();
    }
  });
});
