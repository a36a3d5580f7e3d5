/**
 * The CLI against a server that is not ours and not polite: proxies' HTML
 * pages, broken or missing JSON, compressed bodies it never asked for, nulls
 * where the reference promises values, redirects, odd statuses, rate limits
 * with absurd waits, stalls, trickles, resets and huge bodies. Every run goes
 * through the in-process CLI and must end with one sentence and the right exit
 * code, never a stack trace and never a hang, and never show the key whole.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type RunResult } from '../helpers/cli.js';
import { type FaultServer, type Req, startFaultServer } from '../helpers/fault-server.js';
import { humanStderr } from '../helpers/stderr.js';

const LIVE = 'sk_live_hostilehostile0000cafe';
const TEST = 'sk_test_hostilehostile0000beef';

type Handler = (req: Req, res: ServerResponse, body: string) => unknown;

interface Hostile {
  port: number;
  url: string;
  /** Replaces the well-behaved default for the next requests (cleared after each test). */
  handle?: Handler;
  /** Rewrites the default's JSON before it is sent. */
  mutate?: (path: string, body: Record<string, unknown>) => unknown;
  seen: Array<{ method: string; url: string; authorization?: string; acceptEncoding?: string }>;
  /** The fault server it runs on (every request goes to its one fault). */
  server: FaultServer;
}

const now = '2026-01-02T03:04:05.000Z';
const team = { id: 1, display_name: 'Team A' };
const account = { id: 1, display_name: 'Acme' };
const invitationItem = (id: number) => ({
  object: 'invitation_list_item', id, first_name: 'Ana', last_name: 'Diaz', email: `ana${id}@example.com`, created_at: now,
  accepted_at: null, assessment_url: null, test_taker_id: null, custom_id: null, person_id: null, team, account,
});
const invitation = (id: number, mode: string) => ({
  mode, object: 'invitation', id, invited_by_user: null, created_at: now, accepted_at: null, first_name: 'Ana', last_name: 'Diaz',
  email: `ana${id}@example.com`, send_via_email: true, phone: null, send_via_sms: false, custom_id: null, person_id: null,
  invitation_email_template: { id: 3, display_name: 'Default' }, ref_text: null, congrats_email_template: null,
  send_congrats_notification: false, target_score_profile: null,
  invitation_assessments: [{ id: 6, display_name: 'Personality Traits', short_name: 'Personality' }], assessment_url: null,
  career_navigation_url: null, scorecard_url: null, job_fit_summary_url: null, career_options_spotlight_url: null, team, account,
  test_taker_id: null, career_navigation_profile_id: null,
});
const score = (short: string, v: number | null) => ({ object: 'score', id: 1, display_name: short, short_name: short, description: 'd', is_starred: false, yellow_band: 2, test_taker_score: v });
const scorecard = (id: number, mode: string) => ({
  mode, object: 'scorecard', test_taker_id: id, invitation_id: 100 + id, custom_id: null, person_id: null, career_navigation_profile_id: null,
  first_name: 'Ana', last_name: 'Diaz', email: 'ana@example.com', phone: null, fitscore_raw: 1.234, five_star_score: 4, job_fit_percentage: 77,
  scorecard_url: null, score_profile: { id: 1, display_name: 'Sales', short_name: 'sales', riasec_profile: 'ESC' }, riasec_profile: 'ESC',
  scores: { thinking_skills: [score('think', 5)], personality_traits: [{ ...score('agree', 3), facets: [score('agree-comp', 2)] }], career_interests: null, skill_survey_reference: null, structured_interview: null },
});
const testTaker = (id: number, mode: string) => ({
  mode, object: 'test_taker', id, person_id: null, invitation_id: 100 + id, phone: null, custom_id: null,
  assigned_assessments: [{ id: 1, completed_at: now, language: 'en', assessment: { id: 6, display_name: 'Personality Traits', short_name: 'Personality' } }],
  scorecard_url: null, job_fit_summary_url: null, career_navigation_url: null, career_navigation_profile_id: null,
});
const list = (mode: string, data: unknown[]) => ({ mode, object: 'list', total_count: data.length, has_more: false, data });

/** What a well-behaved server would answer, in the key's mode. */
function reference(method: string, path: string, mode: string): { status: number; body: unknown } | undefined {
  const m = (re: RegExp) => re.exec(path);
  if (method === 'GET' && path === '/v2/healthcheck') return { status: 200, body: { status: 'ok', timestamp: now, version: 'v2' } };
  if (method === 'GET' && path === '/v2/teams') return { status: 200, body: list(mode, [{ object: 'team_list_item', id: 1, display_name: 'Team A', users_count: 2, invitations_count: 3, test_takers_count: 1 }]) };
  if (method === 'GET' && path === '/v2/accounts') return { status: 200, body: { mode, object: 'account', id: 1, display_name: 'Acme', webhook_endpoint: null, webhooks_enabled: false } };
  if (method === 'GET' && path === '/v2/users') {
    return { status: 200, body: list(mode, [{ object: 'user', id: 9, first_name: 'Rita', last_name: 'R', email: 'rita@acme.test', default_team: team, default_assessments: [{ id: 6, display_name: 'Personality Traits', short_name: 'Personality' }], default_invitation_email_template: { id: 3, display_name: 'Default' }, default_congrats_email_template: null }]) };
  }
  if (method === 'GET' && path === '/v2/email-templates') return { status: 200, body: list(mode, [{ object: 'email_template', id: 3, display_name: 'Default', template_type: 'invitation', teams: [team] }]) };
  if (method === 'GET' && path === '/v2/assessments') return { status: 200, body: list(mode, [{ object: 'assessment', id: 6, display_name: 'Personality Traits', short_name: 'Personality' }]) };
  if (method === 'GET' && path === '/v2/score-profiles') return { status: 200, body: list(mode, [{ object: 'score_profile', id: 1, display_name: 'Sales', short_name: 'sales', riasec_profile: 'ESC' }]) };
  if (method === 'GET' && path === '/v2/invitations') return { status: 200, body: list(mode, [invitationItem(101), invitationItem(102)]) };
  if (method === 'POST' && path === '/v2/invitations') return { status: 201, body: invitation(103, mode) };
  let g = m(/^\/v2\/invitations\/(\d+)$/);
  if (method === 'GET' && g) return { status: 200, body: invitation(Number(g[1]), mode) };
  if (method === 'GET' && path === '/v2/test-takers') return { status: 200, body: list(mode, []) };
  g = m(/^\/v2\/test-takers\/(\d+)\/scorecard$/);
  if (method === 'GET' && g) return { status: 200, body: scorecard(Number(g[1]), mode) };
  g = m(/^\/v2\/test-takers\/(\d+)$/);
  if (method === 'GET' && g) return { status: 200, body: testTaker(Number(g[1]), mode) };
  return undefined;
}

async function startHostile(): Promise<Hostile> {
  const h = { seen: [] } as unknown as Hostile;
  h.server = await startFaultServer({ anyKey: true });
  h.server.faults.push(async (req, res) => {
    h.seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, acceptEncoding: req.headers['accept-encoding'] });
    try {
      if (h.handle) {
        await h.handle(req, res, req.body);
        return true;
      }
      const auth = req.headers.authorization ?? '';
      const mode = auth.includes('sk_test') ? 'test' : 'live';
      if (req.path !== '/v2/healthcheck' && auth !== `Bearer ${LIVE}` && auth !== `Bearer ${TEST}`) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'API key is required' }));
        return true;
      }
      const ref = reference(req.method, req.path, mode);
      if (!ref) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
        return true;
      }
      const out = h.mutate ? h.mutate(req.path, ref.body as Record<string, unknown>) : ref.body;
      res.writeHead(ref.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    } catch {
      res.destroy();
    }
    return true;
  });
  h.port = h.server.port;
  h.url = `${h.server.url}/v2`;
  closers.push(() => h.server.close());
  return h;
}

const closers: Array<() => Promise<void>> = [];
let srv: Hostile;
const allOutput: string[] = [];

beforeAll(async () => {
  srv = await startHostile();
});
afterEach(() => {
  srv.handle = undefined;
  srv.mutate = undefined;
  srv.seen.length = 0;
  srv.server.dropConnections();
});
afterAll(async () => {
  for (const c of closers.splice(0)) await c();
});

/** The CLI with the hostile server's URL and a key; no retries unless asked (real sleeps). */
async function cli(args: string[], env: Record<string, string> = {}, key = LIVE): Promise<RunResult> {
  const r = await runCli(args, {
    env: { JOBFIT_BASE_URL: srv.url, JOBFIT_API_KEY: key, JOBFIT_MAX_RETRIES: '0', JOBFIT_TIMEOUT: '5', ...env },
  });
  allOutput.push(r.stdout, r.stderr);
  return r;
}

/** One `Error:` sentence (plus an optional hint), no stack, no key. */
function expectOneSentence(r: RunResult, code: number, pattern?: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  const lines = humanStderr(r.stderr).trim().split('\n');
  const errLines = lines.filter((l) => l.startsWith('Error: '));
  expect(errLines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/TypeError|SyntaxError|ReferenceError|Cannot read properties|undefined is not/);
  expect(r.stderr).not.toContain('looks like a bug in jobfit');
  expect(errLines[0].length, errLines[0]).toBeLessThan(400);
  expect(r.stderr).not.toMatch(/<html|<body|<!DOCTYPE/i);
  if (pattern) expect(errLines[0]).toMatch(pattern);
}

function send(status: number, headers: Record<string, string | number>, body: string | Buffer): Handler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

const PROXY_PAGE = (s: number, t: string) =>
  `<!DOCTYPE html>\n<html>\n<head><title>${s} ${t}</title></head>\n<body>\n<center><h1>${s} ${t}</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n`;

// Commands that each read the server once or a few times.
const READS: Array<[string, string[]]> = [
  ['teams', ['teams']],
  ['invitations list', ['invitations', 'list']],
  ['invitations get', ['invitations', 'get', '101']],
  ['test-takers get', ['test-takers', 'get', '7']],
  ['scorecard', ['scorecard', '7', '8', '--sp', 'sales']],
  ['health', ['health']],
];

describe('baseline: the well-behaved default works for every command', () => {
  it.each(READS)('%s', async (_n, args) => {
    const r = await cli([...args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(2);
  });
  it('invite and invitations list --all', async () => {
    const r = await cli(['invite', '--yes', '--first-name', 'Ana', '--last-name', 'Diaz', '--email', 'ana103@example.com', '--created-by', 'rita@acme.test', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(103);
    const all = await cli(['invitations', 'list', '--all', '-o', 'json']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).data).toHaveLength(2);
  });
  it('asks for an uncompressed answer', async () => {
    await cli(['teams']);
    expect(srv.seen[0].acceptEncoding).toBe('identity');
  });
});

describe('answers that are not the API JSON', () => {
  for (const [status, text] of [
    [502, 'Bad Gateway'],
    [503, 'Service Temporarily Unavailable'],
    [504, 'Gateway Time-out'],
  ] as const) {
    it.each(READS)(`a proxy's ${status} HTML page: %s`, async (_n, args) => {
      srv.handle = send(status, { 'content-type': 'text/html' }, PROXY_PAGE(status, text));
      const r = await cli(args);
      expectOneSentence(r, 1, new RegExp(`${status}`));
      expect(r.stderr).toContain(text);
    });
  }

  // A 2xx answer that is not the API's JSON: one sentence naming what came instead.
  for (const [what, type, body, message] of [
    ['invalid JSON', 'application/json', '{"mode":"live","data":[{"id":1,', /not valid JSON/],
    ['an empty body', 'application/json', '', /empty/],
    ['null', 'application/json', 'null', /null/],
    ['an array where an object is expected', 'application/json', '[{"id":1}]', /array/],
    ['an HTML page (a captive portal)', 'text/html', '<html><head><title>Sign in to Wi-Fi</title></head><body>hi</body></html>', /HTML/],
  ] as const) {
    it.each(READS)(`200 with ${what}: %s`, async (_n, args) => {
      srv.handle = send(200, { 'content-type': type }, body);
      expectOneSentence(await cli(args), 1, message);
    });
  }

  it('a list object without data is not a list', async () => {
    srv.handle = send(200, { 'content-type': 'application/json' }, JSON.stringify({ mode: 'live', object: 'list', data: null }));
    expectOneSentence(await cli(['teams']), 1, /data/);
    srv.handle = send(200, { 'content-type': 'application/json' }, JSON.stringify({ mode: 'live', object: 'list', data: { id: 1 } }));
    expectOneSentence(await cli(['invitations', 'list', '--all']), 1, /data/);
  });

  it('JSON with a wrong content-type is still read', async () => {
    srv.mutate = (_p, b) => b;
    srv.handle = (req, res) => {
      const ref = reference('GET', new URL(req.url ?? '/', 'http://x').pathname, 'live');
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
      res.end(JSON.stringify(ref?.body));
    };
    const r = await cli(['teams', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data[0].display_name).toBe('Team A');
    const noType = await cli(['invitations', 'get', '101', '-o', 'json']);
    expect(noType.code, noType.stderr).toBe(0);
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a %s body the client did not ask for is decompressed', async (enc, zip) => {
    srv.handle = (req, res) => {
      const ref = reference('GET', new URL(req.url ?? '/', 'http://x').pathname, 'live');
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': enc });
      res.end(zip(Buffer.from(JSON.stringify(ref?.body))));
    };
    const r = await cli(['teams', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data[0].id).toBe(1);
    const s = await cli(['scorecard', '7', '--sp', 'sales', '-o', 'csv']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toContain('ESC');
  });

  it('a body that says gzip but is not, or an unknown encoding, is one sentence', async () => {
    srv.handle = send(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, '{"mode":"live"}');
    expectOneSentence(await cli(['teams']), 1, /gzip/);
    srv.handle = send(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }, 'xx');
    expectOneSentence(await cli(['teams']), 1, /zstd/);
  });

  it('a gzip bomb is not inflated without limit', async () => {
    const bomb = gzipSync(Buffer.alloc(300 * 1024 * 1024, 0x20));
    srv.handle = send(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb);
    expectOneSentence(await cli(['teams']), 1, /too large|larger/);
  });

  it.each(READS.filter(([n]) => n !== 'health'))('204 with no content: %s', async (_n, args) => {
    srv.handle = send(204, {}, '');
    expectOneSentence(await cli(args), 1, /no content|empty/);
  });

  it('api prints whatever came, and fails only on an error status', async () => {
    srv.handle = send(200, { 'content-type': 'text/html' }, '<html>ok</html>');
    const r = await cli(['api', 'GET', '/teams']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<html>ok</html>');
    srv.handle = send(204, {}, '');
    const e = await cli(['api', 'GET', '/teams']);
    expect(e.code, e.stderr).toBe(0);
    srv.handle = send(502, { 'content-type': 'text/html' }, PROXY_PAGE(502, 'Bad Gateway'));
    expectOneSentence(await cli(['api', 'GET', '/teams']), 1, /502/);
  });
});

describe('a newer server: unknown fields and nulls everywhere', () => {
  /** Adds an unknown field to every object (scalar, nested object, array of objects). */
  const enrich = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(enrich);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = enrich(x);
      o.x_new = { nested: { deep: [1, 'two', { three: 3 }] }, tags: ['a', 'b'] };
      o.x_list = [{ a: 1 }, { b: [2, 3] }];
      return o;
    }
    return v;
  };
  /** Nulls every field except the envelope's data and the mode. */
  const nullify = (v: unknown, top = true): unknown => {
    if (Array.isArray(v)) return v.map((x) => nullify(x, false));
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = top && (k === 'data' || k === 'mode') ? nullify(x, false) : null;
      return o;
    }
    return v;
  };

  for (const format of ['table', 'json', 'ndjson', 'csv']) {
    it.each(READS)(`unknown fields, -o ${format}: %s`, async (_n, args) => {
      srv.mutate = (_p, b) => enrich(b);
      const r = await cli([...args, '-o', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
    });
    it.each(READS)(`every field null, -o ${format}: %s`, async (_n, args) => {
      srv.mutate = (p, b) => (p === '/v2/score-profiles' ? b : nullify(b));
      const r = await cli([...args, '-o', format]);
      expect(r.code, r.stderr).toBe(0);
    });
    it.each(READS)(`list items that are null or scalars, -o ${format}: %s`, async (_n, args) => {
      srv.mutate = (p, b) => (Array.isArray(b.data) && p !== '/v2/score-profiles' ? { ...b, data: [...b.data, null, 7, 'x', [1]] } : b);
      const r = await cli([...args, '-o', format]);
      expect(r.code, r.stderr).toBe(0);
    });
  }

  it('on a terminal too', async () => {
    srv.mutate = (_p, b) => nullify(enrich(b));
    const r = await runCli(['teams'], { tty: true, env: { JOBFIT_BASE_URL: srv.url, JOBFIT_API_KEY: LIVE, JOBFIT_MAX_RETRIES: '0' } });
    expect(r.code, r.stderr).toBe(0);
  });

  it('invite with nulls in the account data and the answer', async () => {
    srv.mutate = (p, b) => (p === '/v2/invitations' ? nullify(enrich(b)) : enrich(b));
    const r = await cli(['invite', '--yes', '--first-name', 'Ana', '--last-name', 'Diaz', '--email', 'ana103@example.com', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
  });

  // A newer server may send null where the reference has a string: the account
  // lookups of invite skip such entries rather than fail on them.
  it('invite when the account lists hold nulls in non-nullable fields', async () => {
    srv.mutate = (p, b) => {
      if (!Array.isArray(b.data) || p === '/v2/invitations') return b;
      return { ...b, data: [...b.data, { id: null, email: null, display_name: null, short_name: null, template_type: null }] };
    };
    const r = await cli(['invite', '--yes', '--first-name', 'Ana', '--last-name', 'Diaz', '--email', 'ana103@example.com', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).email).toBe('ana103@example.com');
  });
});

describe('list envelopes that do not add up', () => {
  it('missing total_count and has_more: one page prints; --all says it cannot check', async () => {
    srv.mutate = (_p, b) => {
      const { total_count: _t, has_more: _h, ...rest } = b;
      return rest;
    };
    const r = await cli(['invitations', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toHaveLength(2);
    const t = await cli(['teams', '-o', 'table']);
    expect(t.code, t.stderr).toBe(0);
    expectOneSentence(await cli(['invitations', 'list', '--all']), 1, /total_count/);
  });

  it('has_more true with fewer items than the cap: a notice, not a crash', async () => {
    srv.mutate = (_p, b) => (Array.isArray(b.data) ? { ...b, has_more: true, total_count: 500 } : b);
    const r = await cli(['invitations', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Showing 2 of 500/);
  });

  it('has_more true for ever under --all ends, with one sentence', async () => {
    srv.mutate = (_p, b) => (Array.isArray(b.data) ? { ...b, has_more: true, total_count: 500 } : b);
    const started = Date.now();
    const r = await cli(['invitations', 'list', '--all', '-o', 'ndjson']);
    expectOneSentence(r, 1);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('total_count as a string, has_more as a string', async () => {
    srv.mutate = (_p, b) => (Array.isArray(b.data) ? { ...b, has_more: 'no', total_count: '2' } : b);
    const r = await cli(['invitations', 'list', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('mode', () => {
  it('missing or null mode is accepted (a check on what is there)', async () => {
    srv.mutate = (_p, b) => {
      const { mode: _m, ...rest } = b;
      return rest;
    };
    expect((await cli(['teams', '-o', 'json'])).code).toBe(0);
    srv.mutate = (_p, b) => ({ ...b, mode: null });
    expect((await cli(['invitations', 'get', '101', '-o', 'json'])).code).toBe(0);
  });

  it.each(READS.filter(([n]) => n !== 'health'))('a mode that disagrees with the key fails with exit 4: %s', async (_n, args) => {
    srv.mutate = (_p, b) => ({ ...b, mode: 'test' });
    expectOneSentence(await cli(args), 4, /test mode.*live key/);
  });

  it('upper-case TEST against a live key also disagrees', async () => {
    srv.mutate = (_p, b) => ({ ...b, mode: 'TEST' });
    expectOneSentence(await cli(['teams']), 4, /mode/);
  });

  it('a test key answered in live mode: exit 4', async () => {
    srv.mutate = (_p, b) => ({ ...b, mode: 'live' });
    expectOneSentence(await cli(['teams'], {}, TEST), 4, /live mode.*test key/);
  });

  it('invitations list --all and invite with a disagreeing mode', async () => {
    srv.mutate = (_p, b) => ({ ...b, mode: 'test' });
    expectOneSentence(await cli(['invitations', 'list', '--all']), 4);
    expectOneSentence(await cli(['invite', '--yes', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.co', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3']), 4);
  });
});

describe('redirects', () => {
  it.each([301, 302, 307, 308])('%i to the same origin is followed for GET, with the key', async (status) => {
    srv.handle = (req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/v2/')) {
        res.writeHead(status, { location: `/v3/${path.slice(4)}` });
        return res.end();
      }
      const ref = reference('GET', path.replace('/v3/', '/v2/'), 'live');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ref?.body));
    };
    const r = await cli(['teams', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data[0].id).toBe(1);
    expect(srv.seen.map((s) => s.url)).toEqual(['/v2/teams', '/v3/teams']);
    expect(srv.seen[1].authorization).toBe(`Bearer ${LIVE}`);
  });

  it('to another host is not followed, and the key is not sent there', async () => {
    const other = await startHostile();
    other.handle = send(200, { 'content-type': 'application/json' }, '{}');
    srv.handle = (_req, res) => {
      res.writeHead(302, { location: `http://localhost:${other.port}/v2/teams` });
      res.end();
    };
    const r = await cli(['teams']);
    expectOneSentence(r, 1, /redirect/i);
    expect(r.stderr).toContain(`localhost:${other.port}`);
    expect(other.seen).toHaveLength(0);
  });

  it('a POST redirect is not followed (it would be sent again)', async () => {
    srv.handle = (req, res) => {
      if (req.method === 'POST') {
        res.writeHead(307, { location: '/v2/invitations2' });
        return res.end();
      }
      const ref = reference(req.method ?? '', new URL(req.url ?? '/', 'http://x').pathname, 'live');
      res.writeHead(ref?.status ?? 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ref?.body ?? { error: 'no' }));
    };
    const r = await cli(['invite', '--yes', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.co', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3']);
    expectOneSentence(r, 1, /redirect/i);
    expect(srv.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('a redirect loop ends', async () => {
    srv.handle = (req, res) => {
      res.writeHead(302, { location: req.url === '/v2/teams' ? '/v2/teams?x=1' : '/v2/teams' });
      res.end();
    };
    expectOneSentence(await cli(['teams']), 1, /redirect/i);
    expect(srv.seen.length).toBeLessThan(12);
  });

  it('a redirect without a Location', async () => {
    srv.handle = send(301, {}, '');
    expectOneSentence(await cli(['teams']), 1, /301/);
  });
});

describe('error statuses the reference does not describe', () => {
  it.each([401, 403])('%i is an authentication failure: exit 4 with a hint', async (status) => {
    srv.handle = send(status, { 'content-type': 'text/html' }, `<html><title>${status} Forbidden</title><body>nope</body></html>`);
    const r = await cli(['teams']);
    expectOneSentence(r, 4, new RegExp(String(status)));
    expect(r.stderr).toMatch(/Hint: /);
    srv.handle = send(status, { 'content-type': 'application/json' }, JSON.stringify({ error: { code: 'forbidden', message: 'Key revoked' } }));
    expectOneSentence(await cli(['invitations', 'get', '1']), 4, /Key revoked/);
  });

  it('404 with an HTML body (a wrong base URL)', async () => {
    srv.handle = send(404, { 'content-type': 'text/html' }, '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
    const r = await cli(['teams']);
    expectOneSentence(r, 1, /404/);
    expect(r.stderr).toMatch(/base URL/);
  });

  it('405 plain text, multi-line', async () => {
    srv.handle = send(405, { 'content-type': 'text/plain' }, 'Method Not Allowed\n\nThe method is not allowed for the requested URL.\n');
    expectOneSentence(await cli(['teams']), 1, /Method Not Allowed.*405/);
  });

  it('413', async () => {
    srv.handle = send(413, { 'content-type': 'text/html' }, PROXY_PAGE(413, 'Request Entity Too Large'));
    expectOneSentence(await cli(['invite', '--yes', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.co', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3']), 1, /413/);
  });

  it('500 with error as an array of objects, an object, null, a number', async () => {
    srv.handle = send(500, { 'content-type': 'application/json' }, JSON.stringify({ error: [{ field: 'email', message: 'bad' }, { code: 7 }, 'plain'] }));
    expectOneSentence(await cli(['teams']), 1, /bad.*500/);
    srv.handle = send(500, { 'content-type': 'application/json' }, JSON.stringify({ error: { detail: 'boom' } }));
    expectOneSentence(await cli(['teams']), 1, /boom/);
    srv.handle = send(500, { 'content-type': 'application/json' }, JSON.stringify({ error: null }));
    expectOneSentence(await cli(['teams']), 1, /500/);
    srv.handle = send(400, { 'content-type': 'application/json' }, JSON.stringify({ error: 42 }));
    expectOneSentence(await cli(['teams']), 1, /42/);
    srv.handle = send(400, { 'content-type': 'application/json' }, JSON.stringify({ error: 'x'.repeat(5000) }));
    expectOneSentence(await cli(['teams']), 1);
  });

  it('an error that echoes the key does not show it', async () => {
    srv.handle = (req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad header ${req.headers.authorization}` }));
    };
    const r = await cli(['teams']);
    expectOneSentence(r, 1, /sk_live_…cafe/);
  });

  it('an odd status (999, 1xx only, 3xx without meaning)', async () => {
    srv.handle = send(599, { 'content-type': 'text/plain' }, 'weird');
    expectOneSentence(await cli(['teams']), 1, /599/);
    srv.handle = send(300, { 'content-type': 'text/plain' }, 'choices');
    expectOneSentence(await cli(['teams']), 1, /300/);
  });
});

describe('rate limits', () => {
  it('429 with Retry-After as an HTTP date in the near future is waited out', async () => {
    let n = 0;
    srv.handle = (req, res) => {
      if (n++ === 0) {
        res.writeHead(429, { 'retry-after': new Date(Date.now() + 1000).toUTCString() });
        return res.end();
      }
      const ref = reference('GET', new URL(req.url ?? '/', 'http://x').pathname, 'live');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ref?.body));
    };
    const r = await cli(['teams', '-o', 'json'], { JOBFIT_MAX_RETRIES: '2' });
    expect(r.code, r.stderr).toBe(0);
    expect(n).toBe(2);
  });

  it('429 with Retry-After 86400 does not sleep a day: it says when to retry', async () => {
    srv.handle = send(429, { 'retry-after': '86400', 'content-type': 'application/json' }, JSON.stringify({ error: 'Too many requests' }));
    const started = Date.now();
    const r = await cli(['teams'], { JOBFIT_MAX_RETRIES: '3' });
    expect(Date.now() - started).toBeLessThan(5000);
    expectOneSentence(r, 1, /429/);
    expect(r.stderr).toMatch(/24h|86400|1 day|try again (after|in)/i);
    expect(srv.seen).toHaveLength(1);
  });

  it('429 with Retry-After as a far HTTP date', async () => {
    const when = new Date(Date.now() + 3 * 3600_000).toUTCString();
    srv.handle = send(429, { 'retry-after': when }, '');
    const r = await cli(['invitations', 'get', '1'], { JOBFIT_MAX_RETRIES: '3' });
    expectOneSentence(r, 1, /429/);
    expect(r.stderr).toMatch(/try again/i);
  });

  it('429 without Retry-After: backs off, then one sentence', async () => {
    srv.handle = send(429, {}, '');
    const r = await cli(['teams'], { JOBFIT_MAX_RETRIES: '1' });
    expectOneSentence(r, 1, /429/);
    expect(srv.seen).toHaveLength(2);
  });

  it('429 with a garbage Retry-After', async () => {
    srv.handle = send(429, { 'retry-after': 'soon, maybe' }, 'slow down');
    expectOneSentence(await cli(['teams'], { JOBFIT_MAX_RETRIES: '1' }), 1, /429/);
  });
});

describe('slow, broken and huge answers', () => {
  it('headers never come: JOBFIT_TIMEOUT', async () => {
    srv.handle = () => {};
    const started = Date.now();
    const r = await cli(['teams'], { JOBFIT_TIMEOUT: '0.5' });
    expect(Date.now() - started).toBeLessThan(5000);
    expectOneSentence(r, 1, /0\.5s/);
  });

  it('the body stalls', async () => {
    srv.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"mode":"live","data":[');
    };
    const r = await cli(['invitations', 'list'], { JOBFIT_TIMEOUT: '0.5' });
    expectOneSentence(r, 1, /stalled|0\.5s/);
  });

  it('the body trickles for ever (a byte at a time, never stalling long)', async () => {
    srv.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"mode":"live","data":[');
      const t = setInterval(() => {
        if (res.destroyed) return clearInterval(t);
        res.write(' ');
      }, 100);
      res.on('close', () => clearInterval(t));
    };
    const started = Date.now();
    const r = await cli(['teams'], { JOBFIT_TIMEOUT: '0.5' });
    expect(Date.now() - started).toBeLessThan(8000);
    expectOneSentence(r, 1, /within/);
  });

  it.each(READS)('the connection is reset mid-body: %s', async (_n, args) => {
    srv.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"mode":"live","data":[{"id":1');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    expectOneSentence(await cli(args), 1, /connection/);
  });

  it('the connection is closed before any answer, and a GET is retried', async () => {
    let n = 0;
    srv.handle = (req, res) => {
      if (n++ === 0) return res.socket?.destroy();
      const ref = reference('GET', new URL(req.url ?? '/', 'http://x').pathname, 'live');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ref?.body));
    };
    const r = await cli(['teams', '-o', 'json'], { JOBFIT_MAX_RETRIES: '1' });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a 10 MB answer is read and printed', async () => {
    const data = Array.from({ length: 40_000 }, (_, i) => ({ ...invitationItem(i), filler: 'f'.repeat(200) }));
    srv.handle = send(200, { 'content-type': 'application/json' }, JSON.stringify({ mode: 'live', object: 'list', total_count: data.length, has_more: false, data }));
    const r = await cli(['invitations', 'list', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').length).toBe(40_001);
  });

  it('an endless answer is cut at the size limit with one sentence', async () => {
    srv.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (!res.destroyed && sent < 400) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
    };
    const r = await cli(['teams'], { JOBFIT_TIMEOUT: '20' });
    expectOneSentence(r, 1, /larger|too large/);
  });

  it('a Content-Length over the limit is refused before reading', async () => {
    srv.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 ** 3) });
      res.write('{');
    };
    expectOneSentence(await cli(['teams']), 1, /larger|too large/);
  });
});

describe('failures inside multi-request commands', () => {
  /** The well-behaved answer, except for paths matching `bad`, which get `fail`. */
  const except = (bad: RegExp, fail: Handler): Handler => (req, res, body) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (bad.test(`${req.method} ${path}`)) return fail(req, res, body);
    const ref = reference(req.method ?? '', path, 'live');
    res.writeHead(ref?.status ?? 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ref?.body ?? { error: 'not here' }));
  };

  it('scorecard: proxy pages for some ids are reported per id, in one line each, and fail the run', async () => {
    srv.handle = except(/scorecard$/, send(502, { 'content-type': 'text/html' }, PROXY_PAGE(502, 'Bad Gateway')));
    const r = await cli(['scorecard', '7', '8', '--sp', 'sales', '-o', 'csv']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(/<html|\n\s+at |TypeError/i);
    expect(r.stderr).toContain('Bad Gateway');
  });

  it('scorecard: null for one id is reported for that id; the others print', async () => {
    srv.handle = except(/test-takers\/8\/scorecard$/, send(200, { 'content-type': 'application/json' }, 'null'));
    const r = await cli(['scorecard', '7', '8', '--sp', 'sales', '-o', 'csv']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('ESC');
    expect(r.stderr).toMatch(/null instead of a JSON object/);
    expect(r.stderr).not.toMatch(/\n\s+at |TypeError/);
  });

  it('invite: a 502 page for the POST is resolved by looking the email up, then one sentence', async () => {
    srv.handle = except(/^POST /, send(502, { 'content-type': 'text/html' }, PROXY_PAGE(502, 'Bad Gateway')));
    const r = await cli(['invite', '--yes', '--first-name', 'A', '--last-name', 'B', '--email', 'new@b.co', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3']);
    expectOneSentence(r, 1, /outcome unknown|may or may not/);
    expect(srv.seen.filter((x) => x.method === 'POST')).toHaveLength(2);
  });

  it('invite: an HTML page with 201 is one sentence (the invitation may exist)', async () => {
    srv.handle = except(/^POST /, send(201, { 'content-type': 'text/html' }, '<html><title>Created</title></html>'));
    const r = await cli(['invite', '--yes', '--first-name', 'A', '--last-name', 'B', '--email', 'new@b.co', '--created-by', 'rita@acme.test', '--team', '1', '--assessments', '6', '--template', '3']);
    expectOneSentence(r, 1, /HTML/);
    expect(r.stderr).toMatch(/Hint: the POST was accepted \(HTTP 201\) and may have been done/);
  });

  it('a stall says how to wait longer', async () => {
    srv.handle = () => {};
    const r = await cli(['invitations', 'get', '5'], { JOBFIT_TIMEOUT: '0.3' });
    expectOneSentence(r, 1, /no answer within 0\.3s/);
    expect(r.stderr).toMatch(/JOBFIT_TIMEOUT/);
  });

  it('api: a redirect to another host is never followed, and fails with one sentence (an empty success would mislead)', async () => {
    srv.handle = (_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.invalid/v2/teams' });
      res.end();
    };
    const r = await cli(['api', 'GET', '/teams']);
    expectOneSentence(r, 1, /302 to http:\/\/elsewhere\.invalid\/v2\/teams; the redirect was not followed/);
    expect(srv.seen).toHaveLength(1);
  });
});

describe('-v shows details but still never the key', () => {
  it('a proxy page with -v', async () => {
    srv.handle = send(502, { 'content-type': 'text/html' }, PROXY_PAGE(502, 'Bad Gateway'));
    const r = await cli(['teams', '-v']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sk_live_…cafe');
  });
});

describe('the key', () => {
  it('never appears whole in any output of this file', () => {
    expect(allOutput.length).toBeGreaterThan(100);
    for (const o of allOutput) {
      expect(o).not.toContain(LIVE);
      expect(o).not.toContain(TEST);
    }
  });
});
