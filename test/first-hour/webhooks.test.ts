/**
 * Issue 14, "Developer loop": webhook settings in one command, `webhook
 * listen` after `login` to a served stub, signed deliveries, `stub trigger`
 * and `stub events --resend`. In-process, against throw-away data.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedHeaders, verifyDelivery } from '../../src/api/webhook-signature.js';
import { run } from '../../src/cli/main.js';
import { accept } from '../../src/stub/lifecycle.js';
import { openStore } from '../../src/stub/index.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { endpoint, tempDir, until } from '../webhook/helpers.js';

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let env: Record<string, string>;

beforeEach(() => {
  tmp = tempDir('jobfit-first-hour-wh-');
  dataDir = join(tmp.dir, 'stub');
  env = { JOBFIT_CONFIG_DIR: join(tmp.dir, 'config') };
});
afterEach(() => tmp.remove());

/** A long-running command in-process; stop() is Ctrl-C. */
function start(argv: string[], extraEnv: Record<string, string> = {}) {
  const ac = new AbortController();
  const m = memoryIO({ env: { ...env, ...extraEnv }, signal: ac.signal });
  const done = run(argv, m.io);
  return {
    ...m,
    async stop() {
      ac.abort();
      return done;
    },
  };
}

const stub = (...args: string[]) => runCli(['stub', ...args, '--data', dataDir], { env });
const openInvitation = (store: Awaited<ReturnType<typeof openStore>>) =>
  store.get<{ id: number }>('SELECT id FROM invitations WHERE accepted_at IS NULL ORDER BY id LIMIT 1')!.id;

describe('11. stub webhooks: one command is enough', () => {
  it('--endpoint … --all-teams --enable switches the account on too, and a skip names the command that lifts it', async () => {
    const ep = await endpoint();
    try {
      const set = await stub('webhooks', '--endpoint', ep.url, '--all-teams', '--enable', '-o', 'json');
      expect(set.code, set.stderr).toBe(0);
      const after = JSON.parse(set.stdout);
      expect(after.webhooks_enabled).toBe(true);
      expect(after.teams.every((t: { webhooks_enabled: boolean }) => t.webhooks_enabled)).toBe(true);
      const store = await openStore(dataDir);
      try {
        accept(store, openInvitation(store));
        await flushDeliveries();
        expect(ep.received.map((r) => r.json.type)).toEqual(['invitation.accepted', 'test_taker.created']);

        expect((await stub('webhooks', '--disable')).code).toBe(0);
        accept(store, openInvitation(store));
        await flushDeliveries();
      } finally {
        store.close();
      }
      const events = JSON.parse((await stub('events', '-o', 'json')).stdout) as Array<{ delivery: string; reason: string | null }>;
      expect(events.at(-1)).toMatchObject({ delivery: 'skipped', reason: 'webhooks are disabled for the account (`jobfit stub webhooks --enable` switches them on)' });
    } finally {
      await ep.close();
    }
  });
});

describe('12. webhook listen after login to a served stub', () => {
  it('wires itself to the stub the profile points at', async () => {
    const serve = start(['stub', 'serve', '--port', '0', '--data', dataDir]);
    try {
      const url = await until(() => /Stub listening on (\S+)/.exec(serve.stdout())?.[1], 'the stub URL');
      const key = /live key: (\S+)/.exec(serve.stdout())![1];
      const login = await runCli(['login', '--base-url', url], { env: { ...env, JOBFIT_API_KEY: key } });
      expect(login.code, login.stderr).toBe(0);

      const listen = start(['webhook', 'listen']);
      await until(() => listen.stderr().includes('Press Ctrl-C'), 'listen to be ready');
      expect(listen.stderr()).toContain(`Local stub (${dataDir}): account 1 now delivers to this listener`);
      expect(listen.stderr()).not.toContain("Set this URL as your account's webhook endpoint");
      const store = await openStore(dataDir);
      const invitation = openInvitation(store);
      store.close();
      expect((await runCli(['stub', 'accept', String(invitation), '--data', dataDir], { env })).code).toBe(0);
      await until(() => listen.stdout().includes('test_taker.created'), 'the events at the listener');
      expect(await listen.stop()).toBe(0);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  }, 30_000);
});

describe('13. signed deliveries', () => {
  it('each delivery carries a Standard Webhooks signature (and no other), under the secret stub webhooks and listen --print-secret show', async () => {
    const ep = await endpoint();
    try {
      const settings = JSON.parse((await stub('webhooks', '--endpoint', ep.url, '--all-teams', '--enable', '-o', 'json')).stdout);
      const secret = settings.signing_secret as string;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const printed = await runCli(['webhook', 'listen', '--print-secret', '--data', dataDir], { env });
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toBe(`${secret}\n`);

      expect((await stub('trigger', 'test_taker.created')).code).toBe(0);
      await until(() => ep.received.length >= 1, 'the delivery');
      const got = ep.received[0];
      const sig = got.headers['webhook-signature'] as string;
      const id = got.headers['webhook-id'] as string;
      const ts = got.headers['webhook-timestamp'] as string;
      expect(sig).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(id).toBe(got.json.id);
      expect(verifyDelivery(secret, signedHeaders(got.headers), got.body)).toMatchObject({ ok: true });
      expect(Object.keys(got.headers).filter((h) => h.includes('signature'))).toEqual(['webhook-signature']);

      // jobfit webhook verify, on the raw body as received, and on a changed one.
      const body = join(tmp.dir, 'body.json');
      writeFileSync(body, got.body);
      const ok = await runCli(['webhook', 'verify', '--secret', secret, '--id', id, '--timestamp', ts, '--signature', sig, body], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toMatch(/^Verified: signed \d+ s ago/m);
      writeFileSync(body, got.body.replace('test_taker', 'test_takeR'));
      const bad = await runCli(['webhook', 'verify', '--secret', secret, '--id', id, '--timestamp', ts, '--signature', sig, body], { env });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('Error: Not verified: the signature does not match this id, timestamp, body and secret');
      const stale = await runCli(['webhook', 'verify', '--id', id, '--timestamp', ts, '--signature', sig, '-'], {
        env: { ...env, JOBFIT_WEBHOOK_SECRET: secret },
        stdin: got.body,
        now: () => new Date(Date.now() + 3_600_000),
      });
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(/beyond the tolerance of 300 s/);

      // A rotated secret signs from then on; the old one no longer verifies.
      const rotated = JSON.parse((await stub('webhooks', '--rotate-secret', '-o', 'json')).stdout).signing_secret as string;
      expect(rotated).not.toBe(secret);
      expect((await stub('trigger', 'test_taker.created')).code).toBe(0);
      await until(() => ep.received.length >= 2, 'the second delivery');
      expect(verifyDelivery(rotated, signedHeaders(ep.received[1].headers), ep.received[1].body)).toMatchObject({ ok: true });
      expect(verifyDelivery(secret, signedHeaders(ep.received[1].headers), ep.received[1].body)).toMatchObject({ ok: false });
    } finally {
      await ep.close();
    }
  });

  it('webhook listen shows the secret, and forwarded events keep the signature an app can verify', async () => {
    const app = await endpoint();
    try {
      const listen = start(['webhook', 'listen', '--data', dataDir, '--forward-to', app.url]);
      await until(() => listen.stderr().includes('Press Ctrl-C'), 'listen to be ready');
      const secret = /with the secret (whsec_\S+);/.exec(listen.stderr())?.[1];
      expect(secret).toBeDefined();
      expect((await stub('trigger', 'test_taker.created')).code).toBe(0);
      await until(() => app.received.length >= 1, 'the forwarded event');
      expect(await listen.stop()).toBe(0);
      const got = app.received[0];
      expect(verifyDelivery(secret!, signedHeaders(got.headers), got.body)).toMatchObject({ ok: true });
    } finally {
      await app.close();
    }
  });
});

describe('14. stub trigger and stub events --resend', () => {
  it('emits one event about existing data, and sends one again', async () => {
    const ep = await endpoint();
    try {
      await stub('webhooks', '--endpoint', ep.url, '--all-teams', '--enable');
      const store = await openStore(dataDir);
      let testTakerId: number;
      try {
        testTakerId = accept(store, openInvitation(store)).testTakerId;
        await flushDeliveries();
      } finally {
        store.close();
      }
      const before = ep.received.length;
      const t = await stub('trigger', 'test_taker.created', '--test-taker', String(testTakerId), '-o', 'json');
      expect(t.code, t.stderr).toBe(0);
      const ev = JSON.parse(t.stdout);
      expect(ev).toMatchObject({ object: 'event', type: 'test_taker.created', data: { object: { object: 'test_taker', id: testTakerId } } });
      expect(t.stderr).toMatch(/^Delivered to http:\/\/127\.0\.0\.1:\d+\/hooks \(200 in \d+ ms\)\.$/m);
      expect(ep.received.slice(before).map((r) => r.json.id)).toEqual([ev.id]);

      // Nothing completed yet: said plainly, exit 1.
      const none = await stub('trigger', 'test_taker.assessment_completed', '--test-taker', String(testTakerId));
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`Test taker ${testTakerId} has no completed assessment yet`);
      expect((await stub('trigger', 'invitation.created')).code).toBe(2);

      const again = await stub('events', '--resend', ev.id);
      expect(again.code, again.stderr).toBe(0);
      expect(ep.received.slice(before).map((r) => r.json.id)).toEqual([ev.id, ev.id]);
      // The same body, byte for byte: an app that de-duplicates by id sees a duplicate.
      expect(ep.received.at(-1)!.body).toBe(ep.received.at(-2)!.body);
      expect((await stub('events', '--resend', 'evt_nope')).code).toBe(1);
    } finally {
      await ep.close();
    }
  });
});
