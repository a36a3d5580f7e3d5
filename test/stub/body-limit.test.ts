/**
 * Bodies over 1 MiB (issue 17): the stub answers 413 with the reference's
 * error body before it closes the connection, whether the client declared
 * the length, streamed it chunked, or asked `Expect: 100-continue`; and it
 * keeps answering. Over real HTTP, in this process and in another one.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { DANA, type TestStub, freshEmail, serveStub, startTestStub } from './helpers.js';

const TWO_MB = 2 * 1024 * 1024;
const bigJson = () => JSON.stringify({ first_name: 'B', last_name: 'B', email: freshEmail('big'), created_by_user_email: DANA, ref_text: 'x'.repeat(TWO_MB) });

/** One request over a raw socket; resolves with everything the server sent before it closed (or `idleMs` of silence). */
function rawRequest(origin: string, head: string, body?: Buffer, opts: { waitForContinue?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let got = '';
    let sentBody = false;
    const sendBody = () => {
      if (sentBody || !body) return;
      sentBody = true;
      socket.write(body);
    };
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      got += d;
      if (opts.waitForContinue && got.startsWith('HTTP/1.1 100')) sendBody();
    });
    socket.on('error', (err) => reject(new Error(`after ${JSON.stringify(got.slice(0, 200))}: ${err.message}`)));
    socket.on('close', () => resolve(got));
    socket.setTimeout(15_000, () => socket.destroy());
    socket.write(head);
    if (!opts.waitForContinue) sendBody();
  });
}

function checkTooLarge(response: string): void {
  const [head, body] = response.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 413 /);
  expect(head.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(body)).toEqual({ error: MSG.bodyTooLarge });
}

describe('bodies over 1 MiB, in process', () => {
  let stub: TestStub;
  beforeAll(async () => {
    stub = await startTestStub();
  });
  afterAll(async () => {
    await stub?.stop();
  });

  it('a 2 MB POST with Content-Length gets 413 and the error body (fetch)', async () => {
    const r = await stub.call('POST', '/invitations', { raw: bigJson() });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: MSG.bodyTooLarge });
  });

  it('a 2 MB chunked POST (no declared length) gets 413 after 1 MiB is read', async () => {
    const data = new TextEncoder().encode(bigJson());
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < data.length; at += 64 * 1024) c.enqueue(data.subarray(at, at + 64 * 1024));
        c.close();
      },
    });
    const r = await fetch(`${stub.url}/invitations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stub.live}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: MSG.bodyTooLarge });
  });

  it('over a raw socket the 413 arrives in full before the server closes, both ways of sending', async () => {
    const body = Buffer.from(bigJson());
    const base = `POST /v2/invitations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${stub.live}\r\nContent-Type: application/json\r\n`;
    checkTooLarge(await rawRequest(stub.origin, `${base}Content-Length: ${body.length}\r\n\r\n`, body));
    const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    checkTooLarge(await rawRequest(stub.origin, `${base}Transfer-Encoding: chunked\r\n\r\n`, chunked));
  });

  it('Expect: 100-continue with a declared length over the limit: 413 at once, no 100, no body read', async () => {
    const got = await rawRequest(
      stub.origin,
      `POST /v2/invitations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${stub.live}\r\nContent-Type: application/json\r\nContent-Length: ${TWO_MB}\r\nExpect: 100-continue\r\n\r\n`,
      Buffer.alloc(TWO_MB, 'a'),
      { waitForContinue: true },
    );
    expect(got).not.toMatch(/^HTTP\/1\.1 100/);
    checkTooLarge(got);
  });

  it('a body of exactly 1 MiB is read; the stub keeps answering after 413s', async () => {
    const payload = { first_name: 'Edge', last_name: 'Case', email: freshEmail('edge'), created_by_user_email: DANA };
    const text = JSON.stringify(payload);
    const exact = text.slice(0, -1) + ' '.repeat(1_048_576 - Buffer.byteLength(text)) + '}';
    expect(Buffer.byteLength(exact)).toBe(1_048_576);
    expect((await stub.call('POST', '/invitations', { raw: exact })).status).toBe(201);
    expect((await stub.call('POST', '/invitations', { raw: `${exact} ` })).status).toBe(413);
    expect((await stub.call('GET', '/healthcheck', { key: null })).status).toBe(200);
    expect((await stub.call('POST', '/invitations', { body: { ...payload, email: freshEmail('after') } })).status).toBe(201);
  });
});


describe('bodies over 1 MiB, the stub in another process', () => {
  let child: ChildProcess | undefined;
  let dataDir: string;
  let origin = '';
  let key = '';
  let stderr = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'jobfit-stub-413-'));
    ({ child, origin, key } = await serveStub({
      data: dataDir,
      env: { ...process.env, JOBFIT_CONFIG_DIR: dataDir, NO_COLOR: '1' },
      onStderr: (d) => (stderr += d),
    }));
  }, 30_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('2 MB POSTs get 413 with the error body, then the stub still answers and stores', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${origin}/v2/invitations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: bigJson(),
      });
      expect(r.status).toBe(413);
      expect(await r.json()).toEqual({ error: MSG.bodyTooLarge });
    }
    const body = Buffer.from(bigJson());
    checkTooLarge(
      await rawRequest(origin, `POST /v2/invitations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\n\r\n`, body),
    );
    expect((await fetch(`${origin}/v2/healthcheck`)).status).toBe(200);
    const ok = await fetch(`${origin}/v2/invitations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'After', last_name: 'Big', email: freshEmail('after-big'), created_by_user_email: DANA }),
    });
    expect(ok.status).toBe(201);
    expect(stderr).not.toMatch(/Error|warning/i);
  });
});
