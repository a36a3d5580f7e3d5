/**
 * A stub.db made by the previous version opens, once, into this schema
 * (src/stub/schema.ts): that version added `deliveries.duration_ms`,
 * `accounts.webhook_secret` (and `webhook_secret_legacy`) and the webhook
 * queue at run time, the first time its webhook code touched the database,
 * so a database it made has them or not. Both kinds open, and deliveries
 * work on them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/sqlite-engines.js';
import { openStore } from '../../src/stub/index.js';
import { trigger } from '../../src/stub/lifecycle.js';
import { DB_FILE } from '../../src/stub/store.js';
import { deliverDue } from '../../src/stub/webhooks/deliver.js';
import { listEventDeliveries } from '../../src/stub/webhooks/events.js';
import { getWebhookSettings, setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { type Endpoint, endpoint, tempDir } from '../webhook/helpers.js';
import { join } from 'node:path';

let tmp: ReturnType<typeof tempDir>;
let ep: Endpoint;
beforeEach(async () => {
  tmp = tempDir('jobfit-migration-');
  ep = await endpoint();
});
afterEach(async () => {
  await ep.close();
  tmp.remove();
});

/** Makes a seeded stub.db, then takes it back to what the previous version left: `touched` when its webhook code had run. */
async function previousVersionDb(touched: boolean): Promise<void> {
  (await openStore(tmp.dir)).close();
  const db = openDatabase(join(tmp.dir, DB_FILE));
  try {
    db.exec('PRAGMA user_version = 0');
    if (touched) {
      db.exec('ALTER TABLE accounts ADD COLUMN webhook_secret_legacy TEXT');
      // A secret as a development build made it: base64url, with - and _.
      db.prepare('UPDATE accounts SET webhook_secret = ? WHERE id = 1').run(`whsec_${Buffer.from('fb-?>_~~fb-?>_~~fb-?>_~~', 'latin1').toString('base64url')}`);
      return;
    }
    db.exec('DROP TABLE webhook_queue');
    db.exec('DROP TABLE webhook_listeners');
    db.exec('ALTER TABLE deliveries DROP COLUMN duration_ms');
    db.exec('ALTER TABLE accounts DROP COLUMN webhook_secret');
  } finally {
    db.close();
  }
}

function columns(store: { all<T>(sql: string): T[] }, table: string): string[] {
  return store.all<{ name: string }>(`PRAGMA table_info(${table})`).map((c) => c.name);
}

describe('a stub.db made by the previous version', () => {
  for (const touched of [false, true]) {
    it(`opens into this schema once, and delivers (${touched ? 'its webhook code had run' : 'never touched by webhooks'})`, async () => {
      await previousVersionDb(touched);
      const store = await openStore(tmp.dir);
      try {
        expect(columns(store, 'deliveries')).toContain('duration_ms');
        expect(columns(store, 'accounts')).toContain('webhook_secret');
        expect(store.get<{ user_version: number }>('PRAGMA user_version')?.user_version).toBe(1);
        const teams = getWebhookSettings(store, 1)!.teams.map((t) => ({ id: t.id, enabled: true }));
        const settings = setWebhookSettings(store, 1, { endpoint: ep.url, enabled: true, teams });
        expect(settings.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
        const ev = trigger(store, 'test_taker.created');
        const [attempt] = await deliverDue(store);
        expect(attempt).toMatchObject({ event_id: ev.id, ok: true, next: 'delivered' });
        const [view] = listEventDeliveries(store, { id: ev.id });
        expect(view.delivery).toBe('delivered');
        expect(view.attempts[0].duration_ms).toEqual(expect.any(Number));
        expect(ep.received.map((r) => r.json.id)).toContain(ev.id);
      } finally {
        store.close();
      }
      // Opened again: nothing left to do (the step ran once).
      const again = await openStore(tmp.dir);
      expect(again.get<{ user_version: number }>('PRAGMA user_version')?.user_version).toBe(1);
      again.close();
    });
  }
});
