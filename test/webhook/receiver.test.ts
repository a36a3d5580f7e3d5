import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ForwardResult } from '../../src/webhook/forward.js';
import { type Receiver, resourceLabel, startReceiver, type WebhookEvent } from '../../src/webhook/receiver.js';

function event(id: string, type = 'invitation.accepted', object: Record<string, unknown> = { object: 'invitation', id: 100001 }): WebhookEvent {
  return { id, type, object: 'event', created_at: '2026-11-22T10:00:00.123Z', api_version: '2.3.0', data: { object } };
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const res = await fetch(url, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json().catch(() => null)) as unknown };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function receiver(extra: Partial<Parameters<typeof startReceiver>[0]> = {}) {
  const shown: WebhookEvent[] = [];
  const notes: string[] = [];
  const forwards: ForwardResult[] = [];
  const r: Receiver = await startReceiver({
    onEvent: (e) => shown.push(e),
    onNote: (m) => notes.push(m),
    onForward: (_e, f) => forwards.push(f),
    ...extra,
  });
  closers.push(async () => {
    await r.close();
  });
  return { r, shown, notes, forwards };
}

describe('webhook receiver', () => {
  it('listens on 127.0.0.1 with a free port and shows an event once even when delivered twice', async () => {
    const { r, shown, notes } = await receiver();
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    const body = JSON.stringify(event('evt_1'));
    expect((await post(r.url, body)).status).toBe(200);
    expect((await post(r.url, body)).status).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_1']);
    expect(r.shown).toBe(1);
    expect(notes.join('\n')).toMatch(/Duplicate delivery of evt_1/);
  });

  it('answers 400 with a note for a body that is not JSON, or JSON that is not an event', async () => {
    const { r, shown, notes } = await receiver();
    const bad = await post(r.url, 'id=1&type=x');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'body is not JSON' });
    const notEvent = await post(r.url, JSON.stringify({ hello: 'world' }));
    expect(notEvent.status).toBe(400);
    expect(shown).toHaveLength(0);
    expect(notes[0]).toMatch(/not JSON.*400/);
    expect(notes[1]).toMatch(/not an event.*400/);
  });

  it('answers 413 with a note for a body over the limit (declared or streamed)', async () => {
    const { r, shown, notes } = await receiver();
    const big = Buffer.alloc(1024 * 1024 + 10, 'a');
    expect((await post(r.url, big)).status).toBe(413);
    expect(notes[0]).toMatch(/1\.0 MB.*limit 1\.0 MB.*413/);
    // Chunked, so no content-length: the limit applies while reading.
    const { r: small, notes: n2 } = await receiver({ maxBodyBytes: 100 });
    const res = await fetch(small.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode('x'.repeat(80)));
          c.enqueue(new TextEncoder().encode('x'.repeat(80)));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(n2[0]).toMatch(/413/);
    expect(shown).toHaveLength(0);
  });

  it('shows only the --events types but still acknowledges the others', async () => {
    const { r, shown } = await receiver({ events: new Set(['test_taker.created']) });
    expect((await post(r.url, JSON.stringify(event('evt_a', 'invitation.accepted')))).status).toBe(200);
    expect((await post(r.url, JSON.stringify(event('evt_b', 'test_taker.created', { object: 'test_taker', id: 5 })))).status).toBe(200);
    expect(shown.map((e) => e.type)).toEqual(['test_taker.created']);
  });

  it('forwards each new event to the app with its headers and reports status and time', async () => {
    const got: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
    const app: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        got.push({ body, headers: req.headers });
        res.writeHead(got.length === 1 ? 202 : 500).end();
      });
    });
    await new Promise<void>((ok) => app.listen(0, '127.0.0.1', ok));
    closers.push(() => new Promise((ok) => app.close(() => ok())));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hook`;
    const { r, forwards } = await receiver({ forwardTo: appUrl });
    const body = JSON.stringify(event('evt_f1'));
    await post(r.url, body, { 'content-type': 'application/json', 'x-delivery-attempt': '2' });
    await post(r.url, body); // duplicate: not forwarded again
    await post(r.url, JSON.stringify(event('evt_f2')));
    await r.close();
    expect(got).toHaveLength(2);
    expect(JSON.parse(got[0].body)).toEqual(event('evt_f1'));
    expect(got[0].headers['content-type']).toBe('application/json');
    expect(got[0].headers['webhook-id']).toBe('evt_f1');
    expect(got[0].headers['x-delivery-attempt']).toBe('2');
    expect(forwards.map((f) => f.status)).toEqual([202, 500]);
    expect(forwards[0].ms).toBeGreaterThanOrEqual(0);
  });

  it('reports an app that cannot be reached', async () => {
    const dead = createServer();
    await new Promise<void>((ok) => dead.listen(0, '127.0.0.1', ok));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((ok) => dead.close(ok));
    const { r, forwards } = await receiver({ forwardTo: `http://127.0.0.1:${port}/` });
    await post(r.url, JSON.stringify(event('evt_x')));
    await r.close();
    expect(forwards).toHaveLength(1);
    expect(forwards[0].status).toBeNull();
    expect(forwards[0].error).toMatch(/ECONNREFUSED/);
  });

  it('labels the resource of each event type', () => {
    expect(resourceLabel(event('e', 'invitation.accepted', { object: 'invitation', id: 100001 }))).toBe('invitation 100001');
    expect(resourceLabel(event('e', 'test_taker.assessment_completed', { object: 'assigned_assessment', id: 9, test_taker_id: 500001, assessment: { short_name: 'Personality' } }))).toBe(
      'test_taker 500001 Personality',
    );
    expect(resourceLabel(event('e', 'career_navigation_profile.created', { object: 'career_navigation_profile', id: 'cnp_x' }))).toBe('career_navigation_profile cnp_x');
  });
});
