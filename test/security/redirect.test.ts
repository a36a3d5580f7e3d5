/**
 * The key goes only to the exact origin (scheme, host and port) of the base
 * URL. An https base on localhost:A that answers 302 to localhost:B: nothing
 * arrives at B, the command fails with one sentence naming where it pointed,
 * and the -v trace names the host and port. A redirect within A is followed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedirectError } from '../../src/client/errors.js';
import { HttpClient } from '../../src/client/http.js';

const KEY = 'sk_live_redirectredirect0000a1b2';

let dir: string;
let cert: string;
let a: Server;
let b: Server;
let portA: number;
let portB: number;
const atB: string[] = [];
const atA: string[] = [];

/** Not the fault server: these are HTTPS origins with a certificate of the test's own (the fault server speaks plain HTTP). */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<[Server, number]> {
  const s = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, handler);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return [s, (s.address() as AddressInfo).port];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-redirect-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  [b, portB] = await serve((req, res) => {
    atB.push(`${req.method} ${req.url} ${req.headers.authorization ?? '(no key)'}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"mode":"live","object":"list","data":[]}');
  });
  [a, portA] = await serve((req, res) => {
    atA.push(`${req.method} ${req.url}`);
    if (req.url === '/v2/teams') res.writeHead(302, { location: `https://localhost:${portB}/v2/teams` }).end();
    else if (req.url === '/v2/moved') res.writeHead(301, { location: '/v2/here' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"mode":"live","object":"list","data":[]}');
  });
}, 30_000);
afterAll(async () => {
  for (const s of [a, b]) if (s) await new Promise<void>((ok) => s.close(() => ok()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function client(trace: string[]): HttpClient {
  return new HttpClient({ baseUrl: `https://localhost:${portA}/v2`, apiKey: KEY, dispatcher: new Agent({ connect: { ca: cert } }), trace: (l) => trace.push(l), retry: { maxRetries: 0 } });
}

describe('a redirect to another port of the same https host', () => {
  it('is not followed: nothing arrives at B, one sentence, the trace names host and port', async () => {
    const trace: string[] = [];
    const err = await client(trace).request({ method: 'GET', path: '/teams' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RedirectError);
    expect((err as Error).message).toBe(`The service redirected GET /teams to https://localhost:${portB}/v2/teams, another origin (localhost:${portB}); not followed, so the key is not sent there.`);
    expect(atB).toEqual([]);
    expect(trace.join('\n')).toContain(`302 to localhost:${portB} (another origin): not followed`);
  });

  it('within the same origin is followed, and the trace says where', async () => {
    const trace: string[] = [];
    const res = await client(trace).request({ method: 'GET', path: '/moved' });
    expect(res.status).toBe(200);
    expect(atA.slice(-2)).toEqual(['GET /v2/moved', 'GET /v2/here']);
    expect(trace.join('\n')).toContain(`following 301 to localhost:${portA} /v2/here`);
  });
});
