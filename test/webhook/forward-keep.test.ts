/**
 * Issue 31, finding 10: `webhook listen --forward-to` loses nothing it could
 * not forward. Events the app did not get (down, or answering 500) are
 * counted, tried again, and the ones still not taken when the listener stops
 * are written to the file named in its summary; `stub events --resend` of
 * such an event reaches the app instead of being dropped as a duplicate. (A
 * listener restarted on --port 0 getting what was queued for the dead one:
 * hostile-listener.test.ts, "killed with SIGKILL".)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/stub/index.js';
import { accept } from '../../src/stub/lifecycle.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { listEventDeliveries } from '../../src/stub/webhooks/events.js';
import { setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { runCli } from '../helpers/cli.js';
import { endpoint, listenInProcess, refusedPort, tempDir, until } from './helpers.js';

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let env: Record<string, string>;
beforeEach(() => {
  tmp = tempDir();
  dataDir = join(tmp.dir, 'stub');
  env = { JOBFIT_CONFIG_DIR: join(tmp.dir, 'config') };
});
afterEach(() => tmp.remove());

const startListen = (args: string[]) => listenInProcess(env, args);

describe('webhook listen --forward-to keeps what the app did not get', () => {
  it('app down: every event is counted and written to the file the summary names', async () => {
    const store = await openStore(dataDir);
    const kept = join(tmp.dir, 'unforwarded.ndjson');
    const app = await refusedPort();
    try {
      const appPort = app.port;
      const l = startListen(['--data', dataDir, '--forward-to', `http://127.0.0.1:${appPort}/hook`, '--unforwarded', kept]);
      await l.ready();
      const inv = store.all<{ id: number }>('SELECT id FROM invitations WHERE accepted_at IS NULL ORDER BY id LIMIT 5');
      for (const { id } of inv) accept(store, id);
      await flushDeliveries();
      await until(() => (l.stdout().match(/failed: ECONNREFUSED/g) ?? []).length >= 10, 'ten failed forwards');
      expect(await l.stop()).toBe(0);
      expect(l.stderr()).toMatch(/Stopped; 10 events received\. 0 taken by your app, 10 not \(\d+ failed attempts?\)\./);
      expect(l.stderr()).toContain(`10 events your app did not take (last: ECONNREFUSED) are in ${kept}`);
      const lines = readFileSync(kept, 'utf8').trim().split('\n').map((x) => JSON.parse(x) as { id: string; body: string; headers: Record<string, string> });
      expect(lines).toHaveLength(10);
      const ids = listEventDeliveries(store, { limit: 10 }).map((v) => v.id);
      expect(lines.map((x) => x.id).sort()).toEqual([...ids].sort());
      // Each kept as received: the body and the signature headers, so it can be replayed to the app.
      expect(JSON.parse(lines[0].body).id).toBe(lines[0].id);
      expect(lines[0].headers['webhook-signature']).toMatch(/^v1,/);
    } finally {
      store.close();
      await app.close();
    }
  });

  it('app answering 500, then fixed: `stub events --resend` reaches it, not dropped as a duplicate', async () => {
    const store = await openStore(dataDir);
    let broken = true;
    const app = await endpoint({ status: () => (broken ? 500 : 200) });
    try {
      setWebhookSettings(store, 1, { retrySchedule: '1m' });
      const l = startListen(['--data', dataDir, '--forward-to', app.url, '--events', 'test_taker.created']);
      await l.ready();
      const inv = store.get<{ id: number }>('SELECT id FROM invitations WHERE accepted_at IS NULL ORDER BY id LIMIT 1')!;
      accept(store, inv.id);
      await flushDeliveries();
      await until(() => app.received.length >= 1, 'the first forward (500)');
      const id = app.received[0].json.id;
      broken = false;
      const resend = await runCli(['stub', 'events', '--data', dataDir, '--resend', id], { env });
      expect(resend.code, resend.stderr).toBe(0);
      await until(() => app.received.some((r, i) => i > 0 && r.json.id === id), 'the event at the app after the resend');
      expect(await l.stop()).toBe(0);
      expect(l.stderr()).not.toMatch(/Duplicate delivery of/);
      expect(l.stderr()).toMatch(/Stopped; 1 event received\. 1 taken by your app, 0 not \(1 failed attempt\)\./);
    } finally {
      store.close();
      await app.close();
    }
  });
});
