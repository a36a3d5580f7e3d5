/**
 * Issue 27, item 1: the stub's deliveries follow Standard Webhooks. Every
 * delivery of a real stub run (invite, accept, complete everything) is
 * verified by the `standardwebhooks` reference library and by an HMAC written
 * here with node:crypto from the specification; a secret made before (base64url,
 * which the library cannot load) is re-spelt with a notice and keeps working;
 * `webhook verify` and `webhook listen` hold the 5-minute tolerance both ways.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDelivery } from '../../src/api/webhook-signature.js';
import { accept, complete } from '../../src/stub/lifecycle.js';
import { type RunningStub } from '../../src/stub/index.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { getWebhookSettings, setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { run } from '../../src/cli/main.js';
import { type Endpoint, endpoint, invite, stubOn, tempDir, until } from './helpers.js';

/** Standard Webhooks, from the specification: base64(HMAC-SHA256(base64decode(secret after whsec_), "id.timestamp.body")). */
function independentSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

let tmp: ReturnType<typeof tempDir>;
let stub: RunningStub;
let ep: Endpoint;
let live: string;

beforeAll(async () => {
  tmp = tempDir();
  stub = await stubOn(join(tmp.dir, 'stub'));
  live = stub.keys[0].live_key;
  ep = await endpoint();
});
afterAll(async () => {
  await ep.close();
  await stub.close();
  tmp.remove();
});

async function stubRun(): Promise<void> {
  const inv = await invite(stub, live);
  const { testTakerId } = accept(stub.store, inv.id);
  complete(stub.store, testTakerId, { assessment: 'all' });
  await flushDeliveries();
}

describe('Standard Webhooks', () => {
  it('every delivery of a stub run verifies with the standardwebhooks library and with an independent HMAC', async () => {
    const teams = getWebhookSettings(stub.store, 1)!.teams.map((t) => ({ id: t.id, enabled: true }));
    const settings = setWebhookSettings(stub.store, 1, { endpoint: ep.url, enabled: true, teams });
    const secret = settings.signing_secret;
    // whsec_ + standard base64 of 24 to 64 bytes.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const key = Buffer.from(secret.slice(6), 'base64');
    expect(key.length).toBeGreaterThanOrEqual(24);
    expect(key.length).toBeLessThanOrEqual(64);

    await stubRun();
    await until(() => ep.received.length >= 4, 'the deliveries of a stub run');
    const wh = new Webhook(secret);
    for (const got of ep.received) {
      const h = got.headers as Record<string, string>;
      expect(h['webhook-id']).toBe(got.json.id);
      expect(h['webhook-timestamp']).toMatch(/^\d+$/);
      expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      // The reference library: throws on any mismatch, returns the parsed body.
      expect(wh.verify(got.body, h)).toEqual(JSON.parse(got.body));
      expect(h['webhook-signature']).toBe(`v1,${independentSignature(secret, h['webhook-id'], h['webhook-timestamp'], got.body)}`);
      // Standard Webhooks only: the earlier jobfit-signature scheme is gone.
      expect(h['jobfit-signature']).toBeUndefined();
    }
    // A changed body is refused by the library too.
    const one = ep.received[0];
    expect(() => wh.verify(one.body.replace('"event"', '"evenT"'), one.headers as Record<string, string>)).toThrow(/No matching signature/);
  });

  it('a secret made before (base64url) is re-spelt in standard base64, the same key, and deliveries verify under it', async () => {
    // A secret as the earlier release made it: base64url of 24 bytes, with - and _ in it.
    const old = `whsec_${Buffer.from('fb-?>_~~fb-?>_~~fb-?>_~~', 'latin1').toString('base64url')}`;
    expect(old).toMatch(/[-_]/);
    expect(() => new Webhook(old)).toThrow();
    stub.store.run('UPDATE accounts SET webhook_secret = ? WHERE id = 1', old);
    const secret = getWebhookSettings(stub.store, 1)!.signing_secret;
    expect(secret).not.toBe(old);
    expect(Buffer.from(secret.slice(6), 'base64').equals(Buffer.from(old.slice(6), 'base64url'))).toBe(true);

    const before = ep.received.length;
    await stubRun();
    await until(() => ep.received.length >= before + 4, 'the deliveries after the re-spelling');
    const wh = new Webhook(secret);
    for (const got of ep.received.slice(before)) expect(wh.verify(got.body, got.headers as Record<string, string>)).toEqual(JSON.parse(got.body));
  });
});

describe('the 5-minute tolerance, both ways', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_tol', type: 'invitation.accepted', object: 'event', created_at: '2026-11-22T10:00:00.000Z', api_version: '2.3.0', data: { object: { object: 'invitation', id: 1 } } });
  const now = Math.floor(Date.now() / 1000);

  it('webhook verify takes 299 s either way and refuses 301 s either way', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.dir, 'body.json');
      writeFileSync(file, body);
      const check = async (offset: number) => {
        const h = signDelivery(secret, { id: 'evt_tol', timestamp: now + offset, body });
        return runCli(['webhook', 'verify', '--id', 'evt_tol', '--timestamp', h['webhook-timestamp'], '--signature', h['webhook-signature'], file], {
          env: { JOBFIT_WEBHOOK_SECRET: secret },
          now: () => new Date(now * 1000),
        });
      };
      for (const ok of [-299, 299]) expect((await check(ok)).code).toBe(0);
      const ahead = await check(301);
      expect(ahead.code).toBe(1);
      expect(ahead.stderr).toMatch(/301 s ahead of this clock, beyond the tolerance of 300 s/);
      const behind = await check(-301);
      expect(behind.code).toBe(1);
      expect(behind.stderr).toMatch(/301 s ago, beyond the tolerance of 300 s/);
    } finally {
      dir.remove();
    }
  });

  it('webhook listen refuses a delivery signed 6 minutes ahead or behind, and one signed with another secret', async () => {
    const dir = tempDir();
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir.dir, JOBFIT_WEBHOOK_SECRET: secret }, signal: ac.signal });
    const done = run(['webhook', 'listen', '--no-stub'], m.io);
    try {
      const url = await until(() => /Listening for webhook events on (\S+)/.exec(m.stderr())?.[1], 'the listening URL');
      const post = (h: Record<string, string>) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...h } }).then((r) => r.status);
      const t = Math.floor(Date.now() / 1000);
      expect(await post(signDelivery(secret, { id: 'evt_tol', timestamp: t + 360, body }))).toBe(401);
      expect(await post(signDelivery(secret, { id: 'evt_tol', timestamp: t - 360, body }))).toBe(401);
      expect(await post(signDelivery(`whsec_${Buffer.alloc(32, 8).toString('base64')}`, { id: 'evt_tol', timestamp: t, body }))).toBe(401);
      expect(m.stdout()).toBe('');
      expect(await post(signDelivery(secret, { id: 'evt_tol', timestamp: t, body }))).toBe(200);
      await until(() => m.stdout().includes('evt_tol'), 'the verified event');
      // A delivery signed only the earlier, Stripe-shaped way (gone) is refused like an unsigned one.
      const older = body.replace('evt_tol', 'evt_old');
      const stale = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${older}`).digest('hex')}`;
      expect(await fetch(url, { method: 'POST', body: older, headers: { 'content-type': 'application/json', 'jobfit-signature': stale } }).then((r) => r.status)).toBe(401);
    } finally {
      ac.abort();
      expect(await done).toBe(0);
      dir.remove();
    }
    expect(m.stderr()).toMatch(/Refused a delivery whose signature does not verify \(the signature is valid but was made 360 s ahead of this clock/);
    expect(m.stdout()).not.toContain('evt_old');
  });
});
