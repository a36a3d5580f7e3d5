/**
 * The embedded stub answered in process (src/stub/in-process.ts) answers as
 * the stub does over HTTP: the same requests through the client's transport
 * (client/transport.ts exchange), once to a stub listening on a loopback port
 * with undici and once in process, on the same data, give the same status,
 * body and content type; and the transport's own rules (a size cap, an
 * abort, a closed stub) hold in process as they do on a socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, exchange, header, type RawResponse, type Transport } from '../../src/client/transport.js';
import { type EmbeddedStub, openEmbeddedStub, type RunningStub, startStubServer } from '../../src/stub/index.js';
import { DANA } from '../helpers/seeded.js';

let dataDir: string;
let served: RunningStub;
let embedded: EmbeddedStub;
const agent = new Agent();
let live: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'jobfit-inprocess-'));
  // A test of startStubServer itself (served vs embedded), so not through test/helpers/stub.ts.
  served = await startStubServer({ dataDir, port: 0 });
  embedded = await openEmbeddedStub({ dataDir });
  live = served.keys[0].live_key;
});
afterAll(async () => {
  await embedded?.close();
  await served?.close();
  await agent.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Ask {
  method?: string;
  path: string;
  key?: string | null;
  body?: string;
  maxBytes?: number;
  signal?: AbortSignal;
}

function ask(dispatcher: Transport, base: string, a: Ask): Promise<RawResponse> {
  const headers: Record<string, string> = { 'user-agent': 'jobfit-test' };
  const key = a.key === undefined ? live : a.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (a.body !== undefined) headers['content-type'] = 'application/json';
  return exchange(dispatcher, new URL(`${base}${a.path}`), a.method ?? 'GET', headers, a.body, a.signal, DEFAULT_TIMEOUTS, a.maxBytes ?? 64 * 1024 * 1024);
}

const overHttp = (a: Ask) => ask(agent, served.origin, a);
const inProcess = (a: Ask) => ask(embedded.dispatcher, new URL(embedded.url).origin, a);

/** What must agree: status, the body as JSON or text (the healthcheck's clock aside), and its content type. */
function seen(r: RawResponse) {
  const type = header(r.headers, 'content-type') ?? '';
  const text = r.body.toString('utf8');
  const body: unknown = type.startsWith('application/json') ? JSON.parse(text) : text;
  if (body && typeof body === 'object' && 'timestamp' in body) body.timestamp = typeof body.timestamp;
  return { status: r.status, type, body, allow: header(r.headers, 'allow') };
}

describe('the embedded stub, in process', () => {
  it('is reached at an address where nothing listens', () => {
    expect(embedded.url).toBe('http://127.0.0.1:0/v2');
  });

  const cases: Array<[string, Ask]> = [
    ['a list', { path: '/v2/teams' }],
    ['a list with its query', { path: '/v2/invitations?limit=2&status=sent' }],
    ['an item', { path: '/v2/accounts' }],
    ['no key', { path: '/v2/teams', key: null }],
    ['a key nobody has', { path: '/v2/teams', key: 'sk_live_nobodyhasthiskey000000' }],
    ['a path the table lacks', { path: '/v2/no-such-thing' }],
    ['a method the path lacks', { method: 'DELETE', path: '/v2/teams' }],
    ['a body that is not JSON', { method: 'POST', path: '/v2/invitations', body: '{"email": ' }],
    ['a body that is not an object', { method: 'POST', path: '/v2/invitations', body: '[1]' }],
    ['a body the reference refuses', { method: 'POST', path: '/v2/invitations', body: JSON.stringify({ email: 'not an email' }) }],
    ['a body over 1 MiB', { method: 'POST', path: '/v2/invitations', body: JSON.stringify({ email: 'x'.repeat(1_100_000) }) }],
    ['the healthcheck, with no key', { path: '/v2/healthcheck', key: null }],
    ['API v1', { path: '/v1/invitations/1' }],
  ];
  it.each(cases)('answers %s as the stub does over HTTP', async (_name, a) => {
    const [http, here] = await Promise.all([overHttp(a), inProcess(a)]);
    expect(seen(here)).toEqual(seen(http));
  });

  it('writes what the stub over HTTP then reads', async () => {
    const body = { first_name: 'Ada', last_name: 'Lovelace', email: `in.process.${Date.now()}@example.com`, created_by_user_email: DANA };
    const made = await inProcess({ method: 'POST', path: '/v2/invitations', body: JSON.stringify(body) });
    expect(made.status, made.body.toString()).toBe(201);
    const id = (JSON.parse(made.body.toString()) as { id: number }).id;
    expect(seen(await overHttp({ path: `/v2/invitations/${id}` })).body).toMatchObject({ id, email: body.email });
  });

  it('dates its answers, as node:http does (the client reads the service clock from them)', async () => {
    const r = await inProcess({ path: '/v2/teams' });
    const date = Date.parse(header(r.headers, 'date') ?? '');
    expect(Math.abs(date - Date.now())).toBeLessThan(5_000);
  });

  it('is held to the size cap of the transport', async () => {
    const err = await inProcess({ path: '/v2/teams', maxBytes: 64 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'JOBFIT_TOO_LARGE' });
  });

  it('gives up a request that was aborted', async () => {
    const c = new AbortController();
    c.abort();
    await expect(inProcess({ path: '/v2/teams', signal: c.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('hands raw header bytes that own their memory, not slices of node\'s buffer pool (a kept slice pins a whole slab)', async () => {
    const raws: Buffer[][] = [];
    for (const path of ['/v2/teams', '/v2/users', '/v2/score-profiles']) {
      await new Promise<void>((resolve, reject) => {
        embedded.dispatcher.dispatch(
          { origin: new URL(embedded.url).origin, path, method: 'GET', headers: { authorization: `Bearer ${live}` } },
          {
            onConnect: () => {},
            onHeaders: (_status: number, raw: Buffer[]) => {
              raws.push(raw);
              return true;
            },
            onData: () => true,
            onComplete: () => resolve(),
            onError: reject,
          },
        );
      });
    }
    const all = raws.flat();
    expect(all.length).toBeGreaterThan(6);
    for (const b of all) expect(b.buffer.byteLength, `the bytes of "${b.toString('latin1')}"`).toBe(b.length);
  });

  it('answers nothing once closed', async () => {
    const other = await openEmbeddedStub({ dataDir });
    await other.close();
    await expect(ask(other.dispatcher, 'http://127.0.0.1:0', { path: '/v2/teams' })).rejects.toThrow(/closed/);
  });
});
