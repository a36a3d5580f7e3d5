/**
 * `webhook listen` believes only a delivery that looks like one: its own
 * well-formed event gets 200; a request for another Host (DNS rebinding), a
 * web page's text/plain post with a foreign Origin, a malformed id get a 4xx
 * and are neither shown nor forwarded; the duplicate check forgets the
 * oldest ids; the app's redirects are not followed; the log is 0600 and not
 * written through a planted link; and 400 events with 900 KB ids keep the
 * listener (a real process) under 150 MB.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ForwardResult } from '../../src/webhook/forward.js';
import type { WebhookEvent } from '../../src/webhook/gate.js';
import { startReceiver } from '../../src/webhook/receiver.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { run } from '../../src/cli/main.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { until } from './helpers.js';

function event(id: string, type = 'invitation.accepted'): WebhookEvent {
  return { id, type, object: 'event', created_at: '2026-11-22T10:00:00.123Z', api_version: '2.3.0', data: { object: { object: 'invitation', id: 100001 } } };
}

/** A raw POST (node:http, so Host and Origin can be anything). */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function app(status = 200, headers: Record<string, string> = {}) {
  const got: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push(`${req.url} ${body}`);
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  closers.push(() => new Promise((ok) => server.close(() => ok())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

async function receiver(extra: Partial<Parameters<typeof startReceiver>[0]> = {}) {
  const shown: WebhookEvent[] = [];
  const notes: string[] = [];
  const forwards: ForwardResult[] = [];
  const r = await startReceiver({ onEvent: (e) => shown.push(e), onNote: (m) => notes.push(m), onForward: (_e, f) => forwards.push(f), ...extra });
  closers.push(async () => {
    await r.close();
  });
  return { r, shown, notes, forwards };
}

describe('webhook listen hardening', () => {
  it('takes its own well-formed event; refuses another Host and a web page\'s text/plain post, without showing or forwarding them', async () => {
    const target = await app();
    const { r, shown, notes, forwards } = await receiver({ forwardTo: `${target.url}/hook` });
    const port = new URL(r.url).port;
    expect(await post(r.url, JSON.stringify(event('evt_ok')))).toBe(200);
    expect(await post(r.url, JSON.stringify(event('evt_rebind')), { host: `attacker.example:${port}` })).toBe(403);
    expect(await post(r.url, JSON.stringify(event('evt_page')), { 'content-type': 'text/plain', origin: 'https://attacker.example' })).toBe(403);
    // Each check on its own: the foreign Origin with JSON, text/plain without an Origin.
    expect(await post(r.url, JSON.stringify(event('evt_page2')), { origin: 'https://attacker.example' })).toBe(403);
    expect(await post(r.url, JSON.stringify(event('evt_text')), { 'content-type': 'text/plain' })).toBe(415);
    // localhost by name and another 127/8 address are this machine too.
    expect(await post(r.url, JSON.stringify(event('evt_named')), { host: `localhost:${port}` })).toBe(200);
    await r.close();
    expect(shown.map((e) => e.id)).toEqual(['evt_ok', 'evt_named']);
    expect(forwards).toHaveLength(2);
    expect(target.got.join('\n')).not.toMatch(/evt_rebind|evt_page|evt_text/);
    expect(r.refused).toBe(4);
    expect(notes.join('\n')).toMatch(/host "attacker\.example/);
    expect(notes.join('\n')).toMatch(/Origin https:\/\/attacker\.example/);
  });

  it('accepts a tunnel\'s host only when named', async () => {
    const { r, shown } = await receiver({ allowHosts: ['abc.tunnel.example'] });
    expect(await post(r.url, JSON.stringify(event('evt_t')), { host: 'abc.tunnel.example' })).toBe(200);
    expect(await post(r.url, JSON.stringify(event('evt_u')), { host: 'abc.tunnel.example.evil' })).toBe(403);
    expect(shown.map((e) => e.id)).toEqual(['evt_t']);
  });

  it('refuses ids and types of the wrong shape', async () => {
    const { r, shown } = await receiver();
    expect(await post(r.url, JSON.stringify(event('evt with space')))).toBe(400);
    expect(await post(r.url, JSON.stringify(event('x'.repeat(201))))).toBe(400);
    expect(await post(r.url, JSON.stringify(event('evt_1', 'Invitation Accepted\x1b[2J')))).toBe(400);
    // A type beyond the reference's four is shown: the reference does not list them all.
    expect(await post(r.url, JSON.stringify(event('evt_2', 'invitation.expired')))).toBe(200);
    expect(shown.map((e) => e.type)).toEqual(['invitation.expired']);
  });

  it('remembers ids for the replay window, and past its bound asks the sender to come again rather than forgetting', async () => {
    let t = Date.parse('2026-11-22T10:00:00Z');
    const { r, shown } = await receiver({ maxRememberedIds: 3, now: () => t });
    for (const id of ['a1', 'a2', 'a3', 'a1']) expect(await post(r.url, JSON.stringify(event(id)))).toBe(200);
    // A fourth id within the window: 503, a1 is not forgotten to make room.
    expect(await post(r.url, JSON.stringify(event('a4')))).toBe(503);
    expect(await post(r.url, JSON.stringify(event('a1')))).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['a1', 'a2', 'a3']);
    // Ten minutes on (twice the 5-minute tolerance), the old ids are let go and a4 comes in.
    t += 600_001;
    expect(await post(r.url, JSON.stringify(event('a4')))).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it('does not follow the app\'s redirect with the event', async () => {
    const elsewhere = await app();
    const target = await app(307, { location: `${elsewhere.url}/stolen` });
    const { r, forwards } = await receiver({ forwardTo: `${target.url}/hook` });
    expect(await post(r.url, JSON.stringify(event('evt_r')))).toBe(200);
    await r.close();
    expect(forwards.map((f) => f.status)).toEqual([307]);
    expect(elsewhere.got).toEqual([]);
  });
});

describe('webhook listen --log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-listen-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is created 0600 and never written through a symbolic link', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    const link = join(dir, 'link.ndjson');
    symlinkSync(victim, link);
    const refused = await runCli(['webhook', 'listen', '--no-stub', '--log', link]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');

    const log = join(dir, 'events.ndjson');
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir }, signal: ac.signal });
    const old = process.umask(0o022);
    const done = run(['webhook', 'listen', '--no-stub', '--log', log], m.io);
    try {
      const url = await until(() => /Listening for webhook events on (\S+)/.exec(m.stderr())?.[1], 'the listening URL');
      expect(await post(url, JSON.stringify(event('evt_log')))).toBe(200);
    } finally {
      ac.abort();
      expect(await done).toBe(0);
      process.umask(old);
    }
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(lstatSync(log).isFile()).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain('"evt_log"');
  });
});

describe('webhook listen under a flood of large ids', () => {
  let child: ChildProcess | undefined;
  let cli: BuiltCli | undefined;
  afterAll(() => {
    child?.kill();
    cli?.close();
  });

  it('400 events with 900 KB ids keep its memory under 150 MB', async () => {
    // The built binary, as a user runs it (under tsx the loader alone takes ~40 MB more).
    cli = buildCli();
    const dir = mkdtempSync(join(tmpdir(), 'jobfit-listen-mem-'));
    child = spawn(process.execPath, [cli.bin, 'webhook', 'listen', '--no-stub', '-q'], {
      env: { ...process.env, JOBFIT_CONFIG_DIR: dir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c) => (stderr += c));
    child.stdout?.resume();
    try {
      const url = await until(() => /Listening for webhook events on (\S+)/.exec(stderr)?.[1], 'the listening URL', 30_000);
      const big = 'e'.repeat(900 * 1024);
      let next = 0;
      const statuses: number[] = [];
      // 16 senders at a time, 400 events with a distinct 900 KB id each.
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < 400) {
            const i = next++;
            statuses.push(await post(url, JSON.stringify(event(`${i}_${big}`))));
          }
        }),
      );
      expect(statuses).toHaveLength(400);
      expect(statuses.every((s) => s === 400 || s === 503)).toBe(true);
      // The peak resident size of the whole process (VmHWM), node itself included.
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
      expect(peakKb).toBeGreaterThan(0);
      expect(peakKb / 1024).toBeLessThan(150);
    } finally {
      child.kill('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('webhook listen bound beyond loopback', () => {
  it('warns, names what it bound, and still takes its own event at the URL it prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobfit-listen-any-'));
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir }, signal: ac.signal });
    const done = run(['webhook', 'listen', '--no-stub', '--host', '0.0.0.0'], m.io);
    try {
      const url = await until(() => /Listening for webhook events on (\S+)/.exec(m.stderr())?.[1], 'the listening URL');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
      expect(m.stderr()).toMatch(/\(bound to 0\.0\.0\.0:\d+\)\n/);
      expect(m.stderr()).toMatch(/Warning: listening on 0\.0\.0\.0, beyond this machine: anyone who can reach it can post events/);
      expect(await post(url, JSON.stringify(event('evt_any')))).toBe(200);
      await until(() => m.stdout().includes('evt_any'), 'the event line');
    } finally {
      ac.abort();
      expect(await done).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
