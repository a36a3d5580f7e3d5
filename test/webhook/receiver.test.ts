import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { newSigningSecret, signDelivery } from '../../src/api/webhook-signature.js';
import type { ForwardResult } from '../../src/webhook/forward.js';
import { ForwardQueue, lastError, retryWait, taken, unforwardedItem } from '../../src/webhook/forward-queue.js';
import { allowedHostNames, formatBytes, gateRequest, parseDelivery, type Refusal, verifySigned, type WebhookEvent } from '../../src/webhook/gate.js';
import { addressesOf, type Receiver, resourceLabel, startReceiver } from '../../src/webhook/receiver.js';
import { ReplayWindow } from '../../src/webhook/replay.js';
import { refusedPort } from '../helpers/refused-port.js';

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

  it('answers 400 for a body that is not UTF-8, and forwards a UTF-8 one to the app byte for byte', async () => {
    const got: Buffer[] = [];
    const app: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push(Buffer.concat(chunks));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ok) => app.listen(0, '127.0.0.1', ok));
    closers.push(() => new Promise((ok) => app.close(() => ok())));
    const { r, shown, notes } = await receiver({ forwardTo: `http://127.0.0.1:${(app.address() as AddressInfo).port}/hook` });
    // "Renée" written in Latin-1 (one byte 0xE9): read as UTF-8 it would become U+FFFD, and the app would get other bytes than were sent.
    const latin1 = Buffer.from(JSON.stringify(event('evt_latin1', 'invitation.accepted', { object: 'invitation', id: 1, first_name: 'Renée' })), 'latin1');
    const bad = await post(r.url, latin1);
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'body is not UTF-8' });
    expect(notes.join('\n')).toMatch(/not UTF-8 text.*400/);
    const utf8 = Buffer.from(JSON.stringify(event('evt_utf8', 'invitation.accepted', { object: 'invitation', id: 2, first_name: 'Renée 🙂' })), 'utf8');
    expect((await post(r.url, utf8)).status).toBe(200);
    await r.close();
    expect(shown.map((e) => e.id)).toEqual(['evt_utf8']);
    expect(got).toHaveLength(1);
    expect(got[0].equals(utf8)).toBe(true);
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

  it('reads a body of declared length that comes in pieces byte for byte: a character cut between pieces, the signature verifies', async () => {
    const secret = newSigningSecret();
    const { r, shown } = await receiver({ secrets: [secret] });
    const name = 'Zoë Ångström ✓ '.repeat(400);
    const body = Buffer.from(JSON.stringify(event('evt_pieces', 'invitation.accepted', { object: 'invitation', id: 1, name })));
    const headers = { 'content-type': 'application/json', 'content-length': String(body.length), ...signDelivery(secret, { id: 'evt_pieces', timestamp: Math.floor(Date.now() / 1000), body }) };
    // Cut inside the two bytes of the first ë, and again later on.
    const cuts = [body.indexOf('ë') + 1, body.length >> 1, body.length];
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(r.url, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const send = (i: number, from: number) => {
        if (i === cuts.length - 1) return req.end(body.subarray(from));
        req.write(body.subarray(from, cuts[i]), () => setTimeout(() => send(i + 1, cuts[i]), 10));
      };
      send(0, 0);
    });
    expect(status).toBe(200);
    expect(shown.map((e) => (e.data.object as { name: string }).name)).toEqual([name]);
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
    const dead = await refusedPort();
    closers.push(() => dead.close());
    const { r, forwards } = await receiver({ forwardTo: `http://127.0.0.1:${dead.port}/` });
    await post(r.url, JSON.stringify(event('evt_x')));
    await r.close();
    expect(forwards).toHaveLength(1);
    expect(forwards[0].status).toBeNull();
    expect(forwards[0].error).toMatch(/ECONNREFUSED/);
  });

  it('keeps of a queued event only its id and type beside the body (the parsed event would hold the body twice)', async () => {
    const dead = await refusedPort();
    closers.push(() => dead.close());
    const seen: unknown[] = [];
    const { r } = await receiver({ forwardTo: `http://127.0.0.1:${dead.port}/`, onForward: (e) => seen.push(e) });
    const body = JSON.stringify(event('evt_ref', 'invitation.accepted', { object: 'invitation', id: 1, note: 'n'.repeat(10_000) }));
    await post(r.url, body);
    const kept = await r.close();
    expect(seen).toEqual([{ id: 'evt_ref', type: 'invitation.accepted' }]);
    expect(kept.map((k) => [k.id, k.type, k.body])).toEqual([['evt_ref', 'invitation.accepted', body]]);
  });

  it('labels the resource of each event type', () => {
    expect(resourceLabel(event('e', 'invitation.accepted', { object: 'invitation', id: 100001 }))).toBe('invitation 100001');
    expect(resourceLabel(event('e', 'test_taker.assessment_completed', { object: 'assigned_assessment', id: 9, test_taker_id: 500001, assessment: { short_name: 'Personality' } }))).toBe(
      'test_taker 500001 Personality',
    );
    expect(resourceLabel(event('e', 'career_navigation_profile.created', { object: 'career_navigation_profile', id: 'cnp_x' }))).toBe('career_navigation_profile cnp_x');
  });
});

describe('receiver rules', () => {
  const local = allowedHostNames(undefined, undefined);
  const json = { host: '127.0.0.1:4000', 'content-type': 'application/json' };

  it('answers to loopback, the bound address and --allow-host names, never to a wildcard', () => {
    expect([...allowedHostNames(['tunnel.example'], '0.0.0.0')]).toEqual(['tunnel.example']);
    expect([...allowedHostNames([], '::')]).toEqual([]);
    expect([...allowedHostNames([], '::1')]).toEqual(['[::1]']);
    expect([...allowedHostNames([], '192.168.1.5')]).toEqual(['192.168.1.5']);
    expect(gateRequest('POST', { ...json, host: 'tunnel.example' }, allowedHostNames(['tunnel.example'], undefined))).toBe('read');
    expect(gateRequest('POST', { ...json, host: 'localhost:4000' }, local)).toBe('read');
  });

  it('gates a request before its body: host, method, origin, content type, in that order', () => {
    const refusal = (r: ReturnType<typeof gateRequest>) => (typeof r === 'string' ? r : `${r.status} ${r.kind}`);
    expect(refusal(gateRequest('POST', { ...json, host: 'evil.example' }, local))).toBe('403 host');
    expect(refusal(gateRequest('POST', { 'content-type': 'application/json' }, local))).toBe('403 host');
    expect(refusal(gateRequest('GET', { host: 'evil.example' }, local))).toBe('403 host');
    expect(gateRequest('GET', json, local)).toBe('alive');
    expect(gateRequest('HEAD', json, local)).toBe('alive');
    expect(gateRequest('PUT', { ...json, origin: 'https://evil.example' }, local)).toBe('method');
    expect(refusal(gateRequest('POST', { ...json, origin: 'https://evil.example' }, local))).toBe('403 origin');
    expect(gateRequest('POST', { ...json, origin: 'http://127.0.0.1:4000' }, local)).toBe('read');
    expect(refusal(gateRequest('POST', { ...json, 'content-type': 'text/plain' }, local))).toBe('415 type');
    expect(refusal(gateRequest('POST', { host: '127.0.0.1' }, local))).toBe('415 type');
    expect(gateRequest('POST', { ...json, 'content-type': 'application/cloudevents+json; charset=utf-8' }, local)).toBe('read');
  });

  it('believes a body only when it is JSON, an event, and its id and type have the usual shape', () => {
    const kind = (b: string) => {
      const r = parseDelivery(Buffer.from(b));
      return 'kind' in r ? r.kind : r.event.id;
    };
    expect(kind(JSON.stringify(event('evt_ok')))).toBe('evt_ok');
    expect(kind('id=1')).toBe('json');
    expect(kind('{"hello":"world"}')).toBe('shape');
    expect(kind(JSON.stringify(event('has space')))).toBe('id');
    expect(kind(JSON.stringify(event('e'.repeat(201))))).toBe('id');
    expect(kind(JSON.stringify(event('evt_t', 'Invitation.Accepted')))).toBe('id');
    expect(kind(JSON.stringify(event('evt_t', 'invitation')))).toBe('id');
    expect('kind' in parseDelivery(Buffer.from([0x7b, 0xff, 0x7d])) && (parseDelivery(Buffer.from([0x7b, 0xff, 0x7d])) as { kind: string }).kind).toBe('utf8');
    // A BOM is kept, so the body is still not JSON (as before).
    expect(kind('\uFEFF' + JSON.stringify(event('evt_bom')))).toBe('json');
    const ok = parseDelivery(Buffer.from(JSON.stringify(event('evt_raw'))));
    expect('raw' in ok && ok.raw).toBe(JSON.stringify(event('evt_raw')));
  });

  it('verifies with any of the secrets, within the tolerance, and the signed id must be the event id', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify(event('evt_s'));
    const at = 1_800_000_000;
    const headers = signDelivery(secret, { id: 'evt_s', timestamp: at, body });
    const check = (secrets: string[], h: Record<string, string>, nowS = at, id = 'evt_s') => verifySigned(secrets, h, Buffer.from(body), id, { toleranceSeconds: 300, nowMs: nowS * 1000 });
    expect(check([newSigningSecret(), secret], headers)).toBeUndefined();
    expect(check([newSigningSecret()], headers)?.kind).toBe('signature');
    expect(check([secret], headers, at + 301)?.kind).toBe('signature');
    expect(check([secret], headers, at + 299)).toBeUndefined();
    expect(check([secret], headers, at, 'evt_other')).toMatchObject({ status: 401, kind: 'id-header' });
    // Without a webhook-signature header, nothing verifies (the earlier jobfit-signature scheme is gone).
    const { 'webhook-signature': _s, ...unsigned } = headers;
    expect(check([secret], { ...unsigned, 'jobfit-signature': `t=${at},v1=${'0'.repeat(64)}` })).toMatchObject({ status: 401, kind: 'signature' });
  });

  it('remembers ids for the window, keeps those the app has not taken, and says when it is full', () => {
    const w = new ReplayWindow(1000, 2);
    w.remember('a', 0, 'done');
    w.remember('b', 10, 'queued');
    expect(w.full()).toBe(true);
    w.forget(999);
    expect([w.state('a'), w.state('b')]).toEqual(['done', 'queued']);
    w.forget(1000);
    expect(w.state('a')).toBeUndefined();
    w.forget(5000);
    expect(w.state('b')).toBe('queued');
    w.done('b');
    w.done('never-seen');
    expect(w.state('b')).toBe('done');
    expect(w.full()).toBe(false);
    w.forget(5000);
    expect(w.state('b')).toBeUndefined();
  });

  it('tells long ids apart by their hash: the same 200 characters are a duplicate, one character more or less another id', () => {
    const w = new ReplayWindow(1000, 10);
    const long = `evt_${'x'.repeat(195)}`;
    w.remember(long, 0, 'queued');
    expect(w.state(`evt_${'x'.repeat(195)}`)).toBe('queued');
    expect(w.state(`evt_${'x'.repeat(194)}y`)).toBeUndefined();
    expect(w.state(long.slice(0, 64))).toBeUndefined();
    w.done(long);
    expect(w.state(long)).toBe('done');
    w.forget(1000);
    expect(w.state(long)).toBeUndefined();
  });

  it('waits longer after each failed forward, the last wait repeating, and keeps the last answer', () => {
    const waits = [1000, 2000, 5000];
    expect([1, 2, 3, 4, 10].map((n) => retryWait(n, waits))).toEqual([1000, 2000, 5000, 5000, 5000]);
    expect(retryWait(1, [])).toBe(30_000);
    const r = (status: number | null, error?: string): ForwardResult => ({ url: 'http://app', status, ms: 1, error });
    expect([r(200), r(204), r(299), r(199), r(302), r(500), r(null)].map(taken)).toEqual([true, true, true, false, false, false, false]);
    expect([lastError(r(500)), lastError(r(302)), lastError(r(null, 'ECONNREFUSED')), lastError(r(null))]).toEqual(['HTTP 500', 'HTTP 302', 'ECONNREFUSED', 'failed']);
  });

  it('keeps an event for the app with its delivery headers only, and its body as received', () => {
    const raw = JSON.stringify(event('evt_k'));
    const item = unforwardedItem(event('evt_k'), raw, { 'webhook-id': 'evt_k', 'x-delivery-attempt': '3', cookie: 'secret', host: 'x', 'webhook-signature': ['a', 'b'] }, Date.UTC(2026, 10, 22));
    expect(item).toEqual({ id: 'evt_k', type: 'invitation.accepted', received_at: '2026-11-22T00:00:00.000Z', attempts: 0, last_error: 'not tried', headers: { 'webhook-id': 'evt_k', 'x-delivery-attempt': '3' }, body: raw });
  });

  it('caps the forward queue in events, and gives back on close what the app did not take', async () => {
    const queue = new ForwardQueue({ forwardTo: 'http://127.0.0.1:9/', maxEvents: 1, retryMs: [60_000], note: () => {}, onTaken: () => {} });
    expect(queue.wouldOverflow(10)).toBe(false);
    expect(queue.wouldOverflow(64 * 1024 * 1024)).toBe(true);
    expect(await queue.close()).toEqual([]);
    // Closed: an event added is kept, never tried.
    queue.add(event('evt_q'), unforwardedItem(event('evt_q'), '{}', {}, 0), 2);
    expect([queue.size, queue.bytes, queue.wouldOverflow(1)]).toEqual([1, 2, true]);
    expect((await queue.close()).map((i) => [i.id, i.attempts, i.last_error])).toEqual([['evt_q', 0, 'not tried']]);
  });

  it('says where it is reached from this machine and what it bound', () => {
    expect(addressesOf({ address: '127.0.0.1', family: 'IPv4', port: 4000 })).toEqual({ url: 'http://127.0.0.1:4000/webhooks', bound: '127.0.0.1:4000' });
    expect(addressesOf({ address: '0.0.0.0', family: 'IPv4', port: 4000 })).toEqual({ url: 'http://127.0.0.1:4000/webhooks', bound: '0.0.0.0:4000' });
    expect(addressesOf({ address: '::', family: 'IPv6', port: 4000 })).toEqual({ url: 'http://[::1]:4000/webhooks', bound: '[::]:4000' });
    expect(addressesOf({ address: '::1', family: 'IPv6', port: 4000 }).url).toBe('http://[::1]:4000/webhooks');
  });

  it('writes sizes as a person reads them', () => {
    expect([formatBytes(10), formatBytes(1536), formatBytes(1024 * 1024)]).toEqual(['10 bytes', '1.5 KB', '1.0 MB']);
  });

  it('refusals carry a status, a kind noted once, and the error for the body', () => {
    const r = gateRequest('POST', { ...json, 'content-type': 'text/html' }, local) as Refusal;
    expect(r).toEqual({ status: 415, kind: 'type', message: 'Refused a delivery that is not JSON (content-type text/html)', error: 'content-type must be application/json' });
  });
});
