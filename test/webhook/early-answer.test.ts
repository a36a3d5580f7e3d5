/**
 * A sender still writing its body when `webhook listen` answers 413 (too
 * large) or an early 503 (the in-flight budget is full) gets that status and
 * its body, not a reset: the listener reads and drops the rest of the body
 * before it closes (lingerThenClose() in src/webhook/receiver.ts). A sender
 * that never stops writing is cut off at the byte cap or the time limit, and
 * the listener takes the next delivery. The senders are real: node:http,
 * which stops writing on its own once it has read an answer with
 * `connection: close`, and a bare socket that writes its whole body whatever
 * it is told (as curl does), neither with `expect: 100-continue`.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LINGER_AT_ONCE, LINGER_BYTES, type WebhookEvent } from '../../src/webhook/gate.js';
import { type Receiver, startReceiver } from '../../src/webhook/receiver.js';
import { until } from './helpers.js';

const KB = 1024;
const MB = 1024 * KB;

/** What a sender saw: the answer, how its connection ended, and what it wrote. */
interface Seen {
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** The error the connection ended with (`ECONNRESET`, `EPIPE`), if any. */
  error?: string;
  /** Body bytes written in all, and after the answer had come. */
  wrote: number;
  wroteAfterAnswer: number;
  /** From the answer to the end of the connection. */
  msAfterAnswer: number;
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function receiver(extra: Partial<Parameters<typeof startReceiver>[0]> = {}): Promise<{ r: Receiver; shown: WebhookEvent[] }> {
  const shown: WebhookEvent[] = [];
  const r = await startReceiver({ onEvent: (e) => shown.push(e), ...extra });
  closers.push(async () => {
    await r.close();
  });
  return { r, shown };
}

/**
 * node:http: POSTs `total` bytes with that Content-Length (or chunked) in
 * 64 KB chunks, each as soon as the socket has taken the one before, until
 * the body is written or the connection ends.
 */
function nodeSender(url: string, total: number, o: { chunked?: boolean } = {}): Promise<Seen> {
  return new Promise((resolve) => {
    const seen: Seen = { headers: {}, body: '', error: undefined, wrote: 0, wroteAfterAnswer: 0, msAfterAnswer: 0 };
    let answeredAt = 0;
    const length: Record<string, string> = o.chunked ? {} : { 'content-length': String(total) };
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...length } }, (res) => {
      answeredAt = performance.now();
      seen.status = res.statusCode;
      seen.headers = res.headers as Record<string, string>;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (seen.body += c));
    });
    req.on('error', (e: NodeJS.ErrnoException) => (seen.error = e.code ?? e.message));
    req.on('close', () => {
      seen.msAfterAnswer = answeredAt ? performance.now() - answeredAt : 0;
      resolve(seen);
    });
    const chunk = Buffer.alloc(64 * KB, 0x20);
    const next = (): void => {
      if (req.destroyed) return;
      if (seen.wrote >= total) {
        req.end();
        return;
      }
      const piece = chunk.subarray(0, Math.min(chunk.length, total - seen.wrote));
      seen.wrote += piece.length;
      if (answeredAt) seen.wroteAfterAnswer += piece.length;
      req.write(piece, (err) => {
        if (!err) next();
      });
    };
    next();
  });
}

/**
 * A bare socket: a POST declaring `declared` bytes, then `chunkKb` KB every
 * `gapMs` (0: as soon as the socket took the last) until `total` bytes
 * (Infinity: never stops), whatever the listener answers meanwhile.
 */
function rawSender(url: string, o: { declared: number; total: number; chunkKb: number; gapMs: number }): Promise<Seen> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const seen: Seen = { headers: {}, body: '', error: undefined, wrote: 0, wroteAfterAnswer: 0, msAfterAnswer: 0 };
    let answeredAt = 0;
    let got = '';
    const s = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
    s.setEncoding('utf8');
    s.on('data', (c: string) => {
      answeredAt ||= performance.now();
      got += c;
    });
    s.on('error', (e: NodeJS.ErrnoException) => (seen.error = e.code ?? e.message));
    // The listener closed its side: the body is written (or cut off), nothing more to send.
    s.on('end', () => s.end());
    s.on('close', () => {
      seen.msAfterAnswer = answeredAt ? performance.now() - answeredAt : 0;
      const [head = '', body = ''] = got.split('\r\n\r\n');
      seen.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? NaN) || undefined;
      for (const line of head.split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        seen.headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      seen.body = body;
      resolve(seen);
    });
    s.write(`POST ${u.pathname} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/json\r\ncontent-length: ${o.declared}\r\n\r\n`);
    const chunk = Buffer.alloc(o.chunkKb * KB, 0x20);
    const next = (): void => {
      if (s.destroyed || !s.writable) return;
      if (seen.wrote >= o.total) return;
      const piece = chunk.subarray(0, Math.min(chunk.length, o.total - seen.wrote));
      s.write(piece, (err) => {
        if (err) return;
        seen.wrote += piece.length;
        if (answeredAt) seen.wroteAfterAnswer += piece.length;
        if (o.gapMs > 0) setTimeout(next, o.gapMs);
        else next();
      });
    };
    next();
  });
}

function event(id: string): string {
  return JSON.stringify({ id, type: 'invitation.accepted', object: 'event', created_at: '2026-11-22T10:00:00.123Z', api_version: '2.3.0', data: { object: { object: 'invitation', id: 100001 } } });
}

/** A well-formed delivery on a fresh connection: the listener is still taking them. */
async function deliver(url: string, id: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: event(id) });
  await res.arrayBuffer();
  return res.status;
}

describe('an answer before the body is read', () => {
  it('413: a sender still writing a 4 MB body gets the status and its body, not a reset', async () => {
    const { r, shown } = await receiver();
    const tooLarge = JSON.stringify({ error: 'body larger than 1048576 bytes' });
    const viaNode = await nodeSender(r.url, 4 * MB);
    expect(viaNode).toMatchObject({ status: 413, body: tooLarge, error: undefined });
    expect(viaNode.headers.connection).toBe('close');
    // Chunked: the 413 comes once 1 MB has been read.
    expect(await nodeSender(r.url, 4 * MB, { chunked: true })).toMatchObject({ status: 413, body: tooLarge, error: undefined });
    // A sender that writes its whole body whatever it is told, 64 KB every 2 ms: all of it is read, then the connection ends cleanly.
    const whole = await rawSender(r.url, { declared: 4 * MB, total: 4 * MB, chunkKb: 64, gapMs: 2 });
    expect(whole).toMatchObject({ status: 413, body: tooLarge, error: undefined, wrote: 4 * MB });
    expect(await deliver(r.url, 'evt_after_413')).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_after_413']);
    expect(r.refused).toBe(3);
  });

  it('an early 503 (the in-flight budget is full when the headers come): the sender still writing gets the status, Retry-After and body', async () => {
    // The budget is 16 MB; a delivery declaring 12 MB that never comes holds 12 MB of it.
    const { r, shown } = await receiver({ maxBodyBytes: 16 * MB });
    const u = new URL(r.url);
    const holder = connect({ port: Number(u.port), host: u.hostname });
    holder.on('error', () => undefined);
    closers.unshift(() => void holder.destroy());
    holder.write(`POST ${u.pathname} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/json\r\ncontent-length: ${12 * MB}\r\n\r\n{`);
    // Until the holder's headers are in, an 8 MB body is read in full and refused as not JSON (400).
    const busy = await until(async () => {
      const s = await nodeSender(r.url, 8 * MB);
      return s.status === 503 && s;
    }, 'a 503 while 12 MB are held');
    expect(busy).toMatchObject({ status: 503, body: JSON.stringify({ error: 'busy; retry' }), error: undefined });
    expect(busy.headers['retry-after']).toBe('1');
    const whole = await rawSender(r.url, { declared: 8 * MB, total: 8 * MB, chunkKb: 64, gapMs: 0 });
    expect(whole).toMatchObject({ status: 503, error: undefined, wrote: 8 * MB });
    holder.destroy();
    expect(await deliver(r.url, 'evt_after_503')).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_after_503']);
  });

  it(`a sender that never stops writing is cut off after ${LINGER_BYTES / MB} MB, and the next delivery is taken`, async () => {
    const { r, shown } = await receiver();
    const endless = await rawSender(r.url, { declared: 1024 * MB, total: Infinity, chunkKb: 64, gapMs: 0 });
    expect(endless.status).toBe(413);
    // It was read well past the answer (not reset at once), then cut off at the cap, long before the time limit.
    expect(endless.wroteAfterAnswer).toBeGreaterThan(4 * MB);
    expect(endless.wrote).toBeLessThan(LINGER_BYTES + 16 * MB);
    expect(endless.error).toMatch(/ECONNRESET|EPIPE/);
    expect(await deliver(r.url, 'evt_after_cap')).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_after_cap']);
  });

  it('a slow sender that never stops writing is cut off at the time limit, and the next delivery is taken', async () => {
    const { r, shown } = await receiver({ lingerMs: 1000 });
    // 16 KB every 10 ms: ~1.6 MB a second, far under the byte cap.
    const endless = await rawSender(r.url, { declared: 1024 * MB, total: Infinity, chunkKb: 16, gapMs: 10 });
    expect(endless.status).toBe(413);
    expect(endless.wroteAfterAnswer).toBeGreaterThan(256 * KB);
    expect(endless.msAfterAnswer).toBeGreaterThan(900);
    expect(endless.msAfterAnswer).toBeLessThan(4000);
    expect(await deliver(r.url, 'evt_after_time')).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_after_time']);
  });

  it(`only ${LINGER_AT_ONCE} refused bodies are drained at once (memory under a flood): past that, the answer is written and the connection closed at once`, async () => {
    const { r, shown } = await receiver({ lingerMs: 1500 });
    // Slow senders that never stop: each drained one stays open until the time limit.
    const senders = Array.from({ length: LINGER_AT_ONCE + 1 }, () => rawSender(r.url, { declared: 1024 * MB, total: Infinity, chunkKb: 16, gapMs: 10 }));
    const seen = await Promise.all(senders);
    expect(seen.every((s) => s.status === 413)).toBe(true);
    const times = seen.map((s) => s.msAfterAnswer).sort((a, b) => a - b);
    // One closed right after its answer; the others read until the time limit.
    expect(times[0]).toBeLessThan(700);
    for (const t of times.slice(1)) expect(t).toBeGreaterThan(1300);
    expect(await deliver(r.url, 'evt_after_flood')).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_after_flood']);
  });
});

/** node:http with `expect: 100-continue`: the body (`total` bytes) is sent only once the listener says 100 Continue. */
function expectingSender(url: string, body: Buffer): Promise<{ status?: number; body: string; continued: boolean; error?: string }> {
  return new Promise((resolve) => {
    const seen = { status: undefined as number | undefined, body: '', continued: false, error: undefined as string | undefined };
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length), expect: '100-continue' } }, (res) => {
      seen.status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (seen.body += c));
    });
    req.on('continue', () => {
      seen.continued = true;
      req.end(body);
    });
    req.on('error', (e: NodeJS.ErrnoException) => (seen.error = e.code ?? e.message));
    req.on('close', () => resolve(seen));
    req.flushHeaders();
  });
}

describe('expect: 100-continue (curl asks so for a body over 1 MB)', () => {
  it('a body over the limit is refused on its headers: 413 without 100 Continue, and no byte of it is sent', async () => {
    const { r, shown } = await receiver();
    const seen = await expectingSender(r.url, Buffer.alloc(4 * MB, 0x20));
    expect(seen).toMatchObject({ status: 413, continued: false, error: undefined, body: JSON.stringify({ error: 'body larger than 1048576 bytes' }) });
    expect(await deliver(r.url, 'evt_after_expect')).toBe(200);
    expect(shown.map((e) => e.id)).toEqual(['evt_after_expect']);
  });

  it.each([
    ['PUT', 405],
    ['GET', 200],
  ])('a %s that asks 100 Continue for a body is answered %i without it, and its connection closed (no body is read, none is waited for)', async (method, status) => {
    const { r } = await receiver();
    const u = new URL(r.url);
    const got = await new Promise<{ text: string; closedMs: number }>((resolve) => {
      const s = connect({ port: Number(u.port), host: u.hostname });
      let text = '';
      const at = performance.now();
      s.setEncoding('utf8').on('data', (c: string) => (text += c));
      s.on('error', () => {});
      s.on('close', () => resolve({ text, closedMs: performance.now() - at }));
      s.write(`${method} ${u.pathname} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/json\r\ncontent-length: 100\r\nexpect: 100-continue\r\n\r\n`);
      // Left open by the listener, it would wait here for a body that is never sent.
      setTimeout(() => s.destroy(), 5_000).unref();
    });
    expect(got.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(got.text).not.toContain('100 Continue');
    expect(got.text.toLowerCase()).toContain('connection: close');
    expect(got.closedMs).toBeLessThan(4_000);
  });

  it('a delivery that fits is told 100 Continue, sent and taken', async () => {
    const { r, shown } = await receiver();
    const seen = await expectingSender(r.url, Buffer.from(event('evt_expect_ok')));
    expect(seen).toMatchObject({ status: 200, continued: true, error: undefined });
    expect(shown.map((e) => e.id)).toEqual(['evt_expect_ok']);
  });
});
