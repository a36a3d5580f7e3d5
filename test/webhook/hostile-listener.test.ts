/**
 * Issue 26, finding 4: one event must not kill `webhook listen`, and whatever
 * ends it, the stub is not left pointing at a dead port. Same payloads as the
 * probe: `data.object.id = {"toString":1}`; SIGTERM and SIGKILL of a real
 * process; 20,000 events with a forward target that hangs; a replay after
 * 10,000 other ids; the secret from the environment or stdin; `--sync` and a
 * forged event.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signDelivery } from '../../src/api/webhook-signature.js';
import { openStore } from '../../src/stub/index.js';
import { accept } from '../../src/stub/lifecycle.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { listEventDeliveries } from '../../src/stub/webhooks/events.js';
import { getWebhookSettings, setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import type { WebhookEvent } from '../../src/webhook/gate.js';
import { startReceiver } from '../../src/webhook/receiver.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { runCli } from '../helpers/cli.js';
import { endpoint, listenInProcess, tempDir, until } from './helpers.js';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;

function envelope(id: string, object: Record<string, unknown> = { object: 'invitation', id: 100001 }): string {
  return JSON.stringify({ id, type: 'invitation.accepted', object: 'event', created_at: '2026-11-22T10:00:00.123Z', api_version: '2.3.0', data: { object } });
}

/** A raw POST on a fresh connection (node:http, no keep-alive pool). */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // A connection refused past the connection cap counts as "come again", as a sender sees it.
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

const signed = (id: string, body: string) => signDelivery(SECRET, { id, timestamp: Math.floor(Date.now() / 1000), body });

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let env: Record<string, string>;
beforeEach(() => {
  tmp = tempDir();
  dataDir = join(tmp.dir, 'stub');
  env = { JOBFIT_CONFIG_DIR: join(tmp.dir, 'config') };
});
afterEach(() => tmp.remove());

const startListen = (args: string[], extraEnv: Record<string, string> = {}, stdin?: string) => listenInProcess({ ...env, ...extraEnv }, args, stdin);

describe('webhook listen and a hostile body', () => {
  it('shows an event whose data.object.id is {"toString":1} as unreadable, and goes on', async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { endpoint: 'https://app.example.com/hooks', enabled: false });
      const l = startListen(['--data', dataDir]);
      const url = await l.url();
      await l.ready();
      const secret = getWebhookSettings(store, 1)!.signing_secret;
      const hostile = envelope('evt_hostile', { object: 'invitation', id: { toString: 1 } });
      const h = signDelivery(secret, { id: 'evt_hostile', timestamp: Math.floor(Date.now() / 1000), body: hostile });
      expect(await post(url, hostile, h)).toBe(200);
      const assessment = envelope('evt_hostile2', { object: 'assigned_assessment', test_taker_id: [1], assessment: { short_name: { toString: 1 } } });
      expect(await post(url, assessment, signDelivery(secret, { id: 'evt_hostile2', timestamp: Math.floor(Date.now() / 1000), body: assessment }))).toBe(200);
      const fine = envelope('evt_fine');
      expect(await post(url, fine, signDelivery(secret, { id: 'evt_fine', timestamp: Math.floor(Date.now() / 1000), body: fine }))).toBe(200);
      await until(() => l.stdout().includes('evt_fine'), 'the next event');
      expect(l.stdout()).toMatch(/evt_hostile {2}invitation \(unreadable id\)\n/);
      expect(l.stdout()).toMatch(/evt_hostile2 {2}test_taker \(unreadable id\)\n/);
      expect(await l.stop()).toBe(0);
      expect(getWebhookSettings(store, 1)).toMatchObject({ webhook_endpoint: 'https://app.example.com/hooks', webhooks_enabled: false });
    } finally {
      store.close();
    }
  });

  it('remembers an id for the replay window: a replay after 10,000 other ids is still a duplicate', async () => {
    const shown: WebhookEvent[] = [];
    const r = await startReceiver({ onEvent: (e) => shown.push(e), onNote: () => undefined });
    try {
      expect(await post(r.url, envelope('evt_first'))).toBe(200);
      for (let i = 0; i < 10_000; i += 100) {
        await Promise.all(Array.from({ length: 100 }, (_, j) => post(r.url, envelope(`evt_other_${i + j}`))));
      }
      expect(shown).toHaveLength(10_001);
      expect(await post(r.url, envelope('evt_first'))).toBe(200);
      expect(shown).toHaveLength(10_001);
    } finally {
      await r.close();
    }
  }, 120_000);
});

describe('the secret never on the command line', () => {
  it('comes from JOBFIT_WEBHOOK_SECRET or stdin; unsigned or forged deliveries get 401 and are not shown', async () => {
    for (const [extraEnv, args, stdin] of [
      [{ JOBFIT_WEBHOOK_SECRET: SECRET }, [], undefined],
      [{}, ['--secret-stdin'], `${SECRET}\n`],
    ] as const) {
      const l = startListen(['--no-stub', ...args], extraEnv, stdin);
      const url = await l.url();
      await l.ready();
      const body = envelope('evt_s');
      expect(await post(url, body)).toBe(401);
      expect(await post(url, body, signDelivery(`whsec_${Buffer.alloc(32, 4).toString('base64')}`, { id: 'evt_s', timestamp: Math.floor(Date.now() / 1000), body }))).toBe(401);
      expect(l.stdout()).toBe('');
      expect(await post(url, body, signed('evt_s', body))).toBe(200);
      await until(() => l.stdout().includes('evt_s'), 'the signed event');
      expect(await l.stop()).toBe(0);
    }
    const bad = await runCli(['webhook', 'listen', '--no-stub'], { env: { ...env, JOBFIT_WEBHOOK_SECRET: 'not-a-secret' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/JOBFIT_WEBHOOK_SECRET is not a signing secret/);
  });

  it('--sync never turns a forged event into API calls: without a secret it does not start; with one, a forged event is refused', async () => {
    const db = join(tmp.dir, 'results.sqlite');
    const none = await runCli(['webhook', 'listen', '--no-stub', '--sync', db], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--sync needs the signing secret, so that a forged event cannot make API calls/);

    const l = startListen(['--data', dataDir, '--sync', db]);
    const url = await l.url();
    await l.ready();
    const forged = envelope('evt_forged', { object: 'invitation', id: 100001 });
    expect(await post(url, forged)).toBe(401);
    expect(await post(url, forged, signed('evt_forged', forged))).toBe(401);
    expect(await l.stop()).toBe(0);
    expect(l.stdout()).not.toContain('evt_forged');
    expect(l.stderr()).not.toMatch(/invitation 100001|Synced/);
  });
});

describe('webhook listen as a real process', () => {
  let cli: BuiltCli | undefined;
  const children: ChildProcess[] = [];
  const servers: Server[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const s of servers) s.close();
    cli?.close();
  });

  function spawnListen(args: string[], extraEnv: Record<string, string> = {}) {
    cli ??= buildCli();
    const child = spawn(process.execPath, [cli.bin, 'webhook', 'listen', ...args], {
      env: { ...process.env, ...env, ...extraEnv, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (c) => (stderr += c));
    child.stdout?.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return {
      child,
      exited,
      stderr: () => stderr,
      url: () => until(() => /Listening for webhook events on (\S+)/.exec(stderr)?.[1], 'the listening URL', 30_000),
      ready: () => until(() => stderr.includes('Press Ctrl-C'), 'listen to be ready', 30_000),
    };
  }

  it('SIGTERM and SIGHUP end it like Ctrl-C: the stub settings are put back', async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { endpoint: 'https://app.example.com/hooks', enabled: false });
      for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
        const l = spawnListen(['--data', dataDir]);
        const url = await l.url();
        await l.ready();
        expect(getWebhookSettings(store, 1)!.webhook_endpoint).toBe(url);
        l.child.kill(sig);
        expect(await l.exited).toBe(0);
        expect(l.stderr()).toMatch(/settings are back as they were/);
        const after = getWebhookSettings(store, 1)!;
        expect(after).toMatchObject({ webhook_endpoint: 'https://app.example.com/hooks', webhooks_enabled: false });
        expect(after.teams.every((t) => !t.webhooks_enabled)).toBe(true);
      }
    } finally {
      store.close();
    }
  }, 90_000);

  it('killed with SIGKILL: its events are not sent to whatever binds its port next, and the next listener gets them and puts the settings back', async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { endpoint: 'https://app.example.com/hooks', enabled: false, retrySchedule: '50ms,50ms,50ms,50ms,50ms' });
      const dead = spawnListen(['--data', dataDir]);
      const deadUrl = await dead.url();
      await dead.ready();
      dead.child.kill('SIGKILL');
      await dead.exited;
      // Someone else binds the dead listener's port.
      const squatter = await endpoint({ port: Number(new URL(deadUrl).port) });
      try {
        const inv = store.all<{ id: number }>('SELECT id FROM invitations WHERE accepted_at IS NULL ORDER BY id LIMIT 15');
        for (const { id } of inv) accept(store, id);
        await flushDeliveries();
        expect(listEventDeliveries(store, { limit: 30 })).toHaveLength(30);
        await new Promise((r) => setTimeout(r, 300));
        expect(squatter.received).toHaveLength(0);
        expect(listEventDeliveries(store, { limit: 30 }).every((v) => v.delivery === 'pending' && /held for the next `jobfit webhook listen`/.test(v.reason ?? ''))).toBe(true);
      } finally {
        await squatter.close();
      }
      // A listener restarted on --port 0 gets all 30.
      const next = startListen(['--data', dataDir, '--port', '0']);
      await next.ready();
      await until(() => next.stdout().trim().split('\n').length >= 30, 'the 30 events queued for the dead listener', 20_000);
      expect(next.stderr()).toMatch(/stopped without putting the stub's settings back/);
      expect(next.stderr()).toMatch(/30 events queued for an earlier listener come to this one/);
      expect(await next.stop()).toBe(0);
      const after = getWebhookSettings(store, 1)!;
      expect(after).toMatchObject({ webhook_endpoint: 'https://app.example.com/hooks', webhooks_enabled: false });
      expect(after.teams.every((t) => !t.webhooks_enabled)).toBe(true);
    } finally {
      store.close();
    }
  }, 90_000);

  it('20,000 events with a forward target that hangs: memory and sockets stay bounded, the rest get 503', async () => {
    // An app that takes the request and never answers.
    const hung = createServer(() => undefined);
    servers.push(hung);
    await new Promise<void>((ok) => hung.listen(0, '127.0.0.1', ok));
    const l = spawnListen(['--no-stub', '-q', '--forward-to', `http://127.0.0.1:${(hung.address() as AddressInfo).port}/hook`], { JOBFIT_WEBHOOK_SECRET: SECRET });
    const url = await l.url();
    const statuses = new Map<number, number>();
    let next = 0;
    let maxSockets = 0;
    const sockets = () => {
      let n = 0;
      for (const fd of readdirSync(`/proc/${l.child.pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${l.child.pid}/fd/${fd}`).startsWith('socket:')) n++;
        } catch {
          // closed meanwhile
        }
      }
      return n;
    };
    const sampler = setInterval(() => {
      maxSockets = Math.max(maxSockets, sockets());
    }, 100);
    try {
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (next < 20_000) {
            const i = next++;
            const body = envelope(`evt_flood_${i}`);
            const s = await post(url, body, signed(`evt_flood_${i}`, body));
            statuses.set(s, (statuses.get(s) ?? 0) + 1);
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    maxSockets = Math.max(maxSockets, sockets());
    const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${l.child.pid}/status`, 'utf8'))?.[1]) / 1024;
    // Every delivery was taken (200) or told to come again (503); at most the queue's 1,000 were taken.
    expect([...statuses.keys()].every((s) => s === 200 || s === 503 || s === 0)).toBe(true);
    expect(statuses.get(200)).toBeLessThanOrEqual(1000);
    expect(statuses.get(503)).toBeGreaterThan(18_000);
    expect(peakMb).toBeLessThan(200);
    // The 64 senders' connections, the 4 forwards and the listening socket, with room: never thousands.
    expect(maxSockets).toBeLessThan(200);
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
    expect(l.stderr()).toMatch(/events your app did not take .* are in \S+webhook-unforwarded\S+\.ndjson/);
  }, 180_000);
});
