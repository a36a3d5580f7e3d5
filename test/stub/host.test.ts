/**
 * DNS rebinding: a web page whose name is pointed at 127.0.0.1 reaches a stub
 * on loopback with its own name in the Host header, and the seed's keys are
 * public. A stub bound to this machine answers only requests addressed to it.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FOREIGN_HOST } from '../../src/stub/server.js';
import { type TestStub, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

function get(path: string, host: string, key?: string): Promise<{ status: number; body: string }> {
  const u = new URL(stub.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: `${u.pathname}${path}`, headers: { host, ...(key ? { authorization: `Bearer ${key}` } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a stub on loopback and the Host header', () => {
  it('a request addressed to another name is refused with 403 and one sentence, before any route or key is looked at', async () => {
    const port = new URL(stub.url).port;
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.attacker.example:${port}`]) {
      const r = await get('/teams', host, stub.live);
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.body)).toEqual({ error: FOREIGN_HOST });
    }
  });

  it('requests addressed to this machine are answered as always', async () => {
    const port = new URL(stub.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `127.1.2.3:${port}`]) {
      const r = await get('/teams', host, stub.live);
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.body).object).toBe('list');
    }
  });
});
