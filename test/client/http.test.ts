/**
 * The client against a server that is not ours (real sockets, no mocks):
 * unknown fields, nulls, 429 + Retry-After, dropped connections, a POST lost
 * after it was received, key errors, proxies. Every trace line and error
 * message of the file is scanned for the whole key at the end.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobfitClient } from '../../src/client/client.js';
import { ApiError, AuthenticationError, BadRequestError, NetworkError, NotFoundError, RateLimitError, SCORE_PROFILES_HINT, ServerError, UnknownOutcomeError } from '../../src/client/errors.js';
import { HttpClient, type HttpClientOptions, joinUrl } from '../../src/client/http.js';
import { AuthError, ExitCode, UsageError } from '../../src/core/errors.js';
import { createInvitation, type ForeignServer, send as json, FOREIGN_KEY as KEY, startFaultServer } from '../helpers/fault-server.js';

const allOutput: string[] = [];
let server: ForeignServer;
let trace: string[];
let sleeps: number[];

function client(extra: Partial<HttpClientOptions> = {}): JobfitClient {
  const http = new HttpClient({
    baseUrl: server.url,
    apiKey: KEY,
    trace: (l) => {
      trace.push(l);
      allOutput.push(l);
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 1,
    env: {},
    ...extra,
  });
  return new JobfitClient(http, { verbose: true });
}

async function caught(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { hint?: string };
    allOutput.push(err.message, err.hint ?? '');
    return err;
  }
  throw new Error('expected a rejection');
}

const clients: JobfitClient[] = [];
const c = (extra?: Partial<HttpClientOptions>) => {
  const cl = client(extra);
  clients.push(cl);
  return cl;
};

beforeEach(async () => {
  server = await startFaultServer({ world: 'foreign' });
  trace = [];
  sleeps = [];
});
afterEach(async () => {
  for (const cl of clients.splice(0)) await cl.close();
  await server.close();
});

describe('joinUrl', () => {
  it('keeps the base path and adds the query', () => {
    expect(joinUrl('https://h/v2/', '/teams').toString()).toBe('https://h/v2/teams');
    expect(joinUrl('https://h/api/v2', 'invitations', { email: 'a@b.c', team_id: 3, custom_id: undefined }).toString()).toBe(
      'https://h/api/v2/invitations?email=a%40b.c&team_id=3',
    );
  });
});

describe('HttpClient against a foreign server', () => {
  it('passes unknown fields and nulls through, with bearer auth and a trace', async () => {
    const teams = await c().listTeams();
    expect(teams.data[0]).toMatchObject({ id: 1, region: 'eu' });
    expect((teams as unknown as { next_cursor: unknown }).next_cursor).toBeNull();
    expect(server.seen[0].authorization).toBe(`Bearer ${KEY}`);
    expect(trace[0]).toBe('→ GET /v2/teams');
    expect(trace[1]).toBe('  Authorization: Bearer sk_live_…a1b2');
    expect(trace[2]).toMatch(/^← 200 \d+ms$/);
    // Extra fields are not a mismatch.
    expect(trace.join('\n')).not.toContain('differs from the reference');
  });

  it('returns data that fails validation as received and notes it in the trace', async () => {
    server.queue('GET /v2/teams', (_req, res) =>
      json(res, 200, { mode: 'live', object: 'list', total_count: '1', has_more: false, data: [{ id: 'x', display_name: null }] }),
    );
    const teams = await c().listTeams();
    expect(teams.total_count).toBe('1');
    expect(trace.join('\n')).toMatch(/! the answer of listTeams differs from the reference \(.*total_count/);
  });

  it("keeps the latest Date the service's answers stated (serviceTime, what sync compares with), not an older one or one it cannot read", async () => {
    const list = { mode: 'live', object: 'list', total_count: 0, has_more: false, data: [] };
    const dated = (date: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      res.sendDate = false;
      json(res, 200, list, date === '' ? {} : { date });
    };
    server.queue('GET /v2/teams', dated('Wed, 25 Nov 2026 10:00:00 GMT'), dated('Wed, 25 Nov 2026 09:00:00 GMT'), dated('not a date'), dated(''), dated('Wed, 25 Nov 2026 10:00:07 GMT'));
    const client = c();
    expect(client.http.serviceTime).toBeUndefined();
    const seen: Array<number | undefined> = [];
    for (let i = 0; i < 5; i++) {
      await client.listTeams();
      seen.push(client.http.serviceTime);
    }
    const at = (t: string) => Date.parse(`2026-11-25T${t}Z`);
    expect(seen).toEqual([at('10:00:00'), at('10:00:00'), at('10:00:00'), at('10:00:00'), at('10:00:07')]);
  });

  it('waits out a 429 with Retry-After, then succeeds', async () => {
    server.queue('GET /v2/teams', (_req, res) => json(res, 429, { error: 'Too many requests' }, { 'retry-after': '2' }));
    const teams = await c().listTeams();
    expect(teams.total_count).toBe(1);
    expect(sleeps).toEqual([2000]);
    expect(server.seen).toHaveLength(2);
    expect(trace).toContain('→ GET /v2/teams (retry 1)');
    expect(trace.some((l) => /^← 200 \d+ms \(retry 1\)$/.test(l))).toBe(true);
    expect(trace.some((l) => l.includes('waiting 2000ms before retry 1 (429, Retry-After)'))).toBe(true);
  });

  it('honours an HTTP-date Retry-After', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    server.queue('GET /v2/teams', (_req, res) => json(res, 429, { error: 'slow down' }, { 'retry-after': new Date(now + 4000).toUTCString() }));
    await c({ now: () => now }).listTeams();
    expect(sleeps).toEqual([4000]);
  });

  it('retries a GET whose connection was dropped', async () => {
    server.queue('GET /v2/teams', (req) => {
      req.socket.destroy();
    });
    const teams = await c().listTeams();
    expect(teams.data).toHaveLength(1);
    expect(server.seen.filter((s) => s.url === '/v2/teams')).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('retries 5xx on PUT and gives up with a ServerError after maxRetries', async () => {
    const fail = (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 502, { error: 'Bad gateway' });
    server.queue('PUT /v2/invitations/5', fail, fail, fail);
    const err = await caught(c({ retry: { maxRetries: 2 } }).updateInvitation(5, { first_name: 'A' }));
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).status).toBe(502);
    expect(err.message).toBe('Bad gateway (502 from PUT /invitations/5)');
    expect(server.seen).toHaveLength(3);
  });

  it('a 429 that does not clear becomes a RateLimitError', async () => {
    const limit = (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 429, { error: 'Too many requests' }, { 'retry-after': '1' });
    server.queue('GET /v2/teams', limit, limit, limit, limit);
    const err = await caught(c({ retry: { maxRetries: 1, maxRateLimitWaits: 2 } }).listTeams());
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).hint).toMatch(/rate limiting/);
    // Two waits on the server's word, then the one ordinary retry.
    expect(server.seen.filter((s) => s.url === '/v2/teams')).toHaveLength(4);
  });

  it('429s with Retry-After do not use up the retries a dropped connection needs', async () => {
    const limit = (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 429, { error: 'Too many requests' }, { 'retry-after': '1' });
    const drop = (req: { socket: { destroy(): void } }) => {
      req.socket.destroy();
    };
    server.queue('GET /v2/teams', limit, drop, limit, limit, drop);
    const teams = await c({ retry: { maxRetries: 2 } }).listTeams();
    expect(teams.data).toHaveLength(1);
    expect(server.seen.filter((s) => s.url === '/v2/teams')).toHaveLength(6);
    expect(trace).toContain('→ GET /v2/teams (retry 5)');
  });

  it('a POST /invitations lost after the server created it is found by email, not sent twice', async () => {
    server.queue('POST /v2/invitations', (req, _res, body) => {
      createInvitation(server, body);
      req.socket.destroy();
    });
    const cl = c();
    const r = await cl.createInvitationDetailed({ first_name: 'Ada', last_name: 'L', email: 'Ada@Example.com', created_by_user_email: 'boss@example.com' });
    expect(r.recovered).toBe(true);
    expect(r.sends).toBe(1);
    expect(r.invitation.id).toBe(100);
    expect(server.invitations).toHaveLength(1);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /v2/invitations',
      'GET /v2/invitations?email=Ada%40Example.com',
      'GET /v2/invitations/100',
    ]);
    expect(trace.some((l) => l.includes('found invitation 100'))).toBe(true);
  });

  it('a POST /invitations lost before the server stored it is sent again once', async () => {
    server.queue('POST /v2/invitations', (req) => {
      req.socket.destroy();
    });
    const r = await c().createInvitationDetailed({ first_name: 'Bo', last_name: 'K', email: 'bo@example.com', created_by_user_email: 'boss@example.com' });
    expect(r).toMatchObject({ recovered: false, sends: 2 });
    expect(server.invitations).toHaveLength(1);
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it('a POST /invitations that is lost twice, and not found, reports an unknown outcome', async () => {
    const drop = (req: { socket: { destroy(): void } }) => req.socket.destroy();
    server.queue('POST /v2/invitations', drop, drop);
    const err = await caught(c().createInvitation({ first_name: 'C', last_name: 'D', email: 'c@example.com', created_by_user_email: 'boss@example.com' }));
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect((err as UnknownOutcomeError).hint).toContain('jobfit invitations list --email c@example.com');
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(2);
  });

  it('a POST /invitations refused with 429 is simply retried', async () => {
    server.queue('POST /v2/invitations', (_req, res) => json(res, 429, { error: 'Too many requests' }, { 'retry-after': '1' }));
    const r = await c().createInvitationDetailed({ first_name: 'E', last_name: 'F', email: 'e@example.com', created_by_user_email: 'boss@example.com' });
    expect(r).toMatchObject({ recovered: false, sends: 1 });
    expect(server.invitations).toHaveLength(1);
    expect(sleeps).toEqual([1000]);
  });

  it("404 'API key is required' is an AuthenticationError: exit 4 with the login hint", async () => {
    const err = await caught(c({ apiKey: 'sk_live_wrongwrongwrong9z9z' }).listTeams());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as AuthenticationError).exitCode).toBe(ExitCode.AUTH);
    expect((err as AuthenticationError).hint).toBe('run `jobfit login` or set JOBFIT_API_KEY');
    expect(err.message).toBe('API key is required (404 from GET /teams)');
    expect(sleeps).toEqual([]);
  });

  it('400 keeps the API message (string or array); an unknown sp points at score-profiles', async () => {
    server.queue('GET /v2/test-takers/7/scorecard', (_req, res) => json(res, 400, { error: 'sp: Invalid score profile' }));
    const err = await caught(c().getScorecard(7, 'nope'));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).hint).toBe(SCORE_PROFILES_HINT);
    expect((err as BadRequestError).path).toBe('/test-takers/7/scorecard?sp=nope');

    server.queue('POST /v2/invitations', (_req, res) => json(res, 400, { error: ['first_name: First name is required', 'sent_to_email: Invalid email address'] }));
    const err2 = await caught(c().createInvitation({ first_name: '', last_name: 'x', email: 'bad', created_by_user_email: 'b@x.y' }));
    expect(err2).toBeInstanceOf(BadRequestError);
    expect((err2 as BadRequestError).apiMessage).toHaveLength(2);
    expect(err2.message).toBe('first_name: First name is required; sent_to_email: Invalid email address (400 from POST /invitations)');
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('404 with a null body is a NotFoundError', async () => {
    server.queue('GET /v2/career-navigation-profiles/abc', (_req, res) => json(res, 404, null));
    const err = await caught(c().getCareerNavigationProfile('abc'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).body).toBeNull();
  });

  it('raw requests return non-2xx answers instead of throwing', async () => {
    server.queue('DELETE /v2/teams', (_req, res) => {
      res.writeHead(405, { 'content-type': 'text/plain' });
      res.end('Method Not Allowed');
    });
    const r = await c().raw('DELETE', '/teams');
    expect(r).toMatchObject({ status: 405, data: 'Method Not Allowed' });
  });

  it('fails with AuthError when the answer is in the other mode', async () => {
    server.queue('GET /v2/teams', (_req, res) => json(res, 200, { mode: 'test', object: 'list', total_count: 0, has_more: false, data: [] }));
    const err = await caught(c().listTeams());
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toContain('test mode, but the key is a live key (sk_live_…a1b2)');
  });

  it('refuses to send a live key over plain http to another host', () => {
    expect(() => new HttpClient({ baseUrl: 'http://api.example.com/v2', apiKey: KEY })).toThrow(UsageError);
    expect(() => new HttpClient({ baseUrl: 'http://api.example.com/v2', apiKey: 'sk_test_abcdefabcdefabcd' })).not.toThrow();
    expect(() => new HttpClient({ baseUrl: 'https://api.example.com/v2', apiKey: KEY })).not.toThrow();
    expect(() => new HttpClient({ baseUrl: 'http://localhost:1/v2', apiKey: KEY })).not.toThrow();
  });

  it('connection refused: NetworkError with the URL and a hint, after retries', async () => {
    const port = server.port;
    await server.close();
    const err = await caught(c({ baseUrl: `http://127.0.0.1:${port}/v2`, retry: { maxRetries: 2 } }).listTeams());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(`Could not reach http://127.0.0.1:${port}/v2 (connection refused).`);
    expect((err as NetworkError).hint).toMatch(/base URL/);
    expect(sleeps).toHaveLength(2);
    server = await startFaultServer({ world: 'foreign' });
  });

  it('a stalled answer times out', async () => {
    server.queue('GET /v2/teams', () => {
      /* never answers */
    });
    const err = await caught(c({ timeouts: { headersMs: 200 }, retry: { maxRetries: 0 } }).listTeams());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('no answer within 0.2s');
  });

  it('goes through HTTPS_PROXY/HTTP_PROXY, and not for hosts in NO_PROXY', async () => {
    const proxy = `http://127.0.0.1:${server.port}`;
    const viaProxy = c({ baseUrl: 'http://api.jobfit.test:80/v2', apiKey: 'sk_test_proxyproxyproxy0000', env: { HTTP_PROXY: proxy } });
    // The proxy tunnels to our server, which rejects the test key: proof the request went through it.
    const err = await caught(viaProxy.listTeams());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(server.tunnels).toEqual(['api.jobfit.test:80']);

    const bypass = c({ baseUrl: 'http://api.jobfit.test:80/v2', apiKey: 'sk_test_proxyproxyproxy0000', env: { HTTP_PROXY: proxy, NO_PROXY: 'jobfit.test' }, retry: { maxRetries: 0 } });
    const err2 = await caught(bypass.listTeams());
    expect(err2).toBeInstanceOf(NetworkError);
    expect(server.tunnels).toHaveLength(1);
  });

  it('Ctrl-C during a retry wait cancels', async () => {
    server.queue('GET /v2/teams', (_req, res) => json(res, 429, { error: 'x' }, { 'retry-after': '30' }));
    const ac = new AbortController();
    const cl = c({ signal: ac.signal, sleep: undefined });
    const p = cl.listTeams();
    setTimeout(() => ac.abort(), 100);
    const err = await caught(p);
    expect(err.name).toBe('CancelError');
  });

  it("a call's own signal replaces the client's: Ctrl-C does not stop a call that brought its own (a bulk run finishes the POSTs in flight); its own signal does", async () => {
    server.queue('GET /v2/teams', (_req, res) => json(res, 429, { error: 'x' }, { 'retry-after': '1' }));
    const ofClient = new AbortController();
    const own = c({ signal: ofClient.signal, sleep: undefined }).raw('GET', '/teams', { signal: new AbortController().signal });
    setTimeout(() => ofClient.abort(), 100);
    expect(await own.then(() => 'answered', (e: Error) => e.name)).toBe('answered');
    server.queue('GET /v2/teams', (_req, res) => json(res, 429, { error: 'x' }, { 'retry-after': '30' }));
    const ofCall = new AbortController();
    const p = c({ signal: new AbortController().signal, sleep: undefined }).raw('GET', '/teams', { signal: ofCall.signal });
    setTimeout(() => ofCall.abort(), 100);
    expect((await caught(p)).name).toBe('CancelError');
  });

  // Runs last (tests of a file run in order): scans everything the tests above printed.
  it('never shows the whole key in any trace line, error message or hint', () => {
    expect(allOutput.length).toBeGreaterThan(50);
    for (const line of allOutput) expect(line).not.toContain(KEY);
    expect(allOutput.some((l) => l.includes('sk_live_…a1b2'))).toBe(true);
  });
});
