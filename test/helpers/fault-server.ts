/**
 * A server of the API v2 reference of our own for fault tests (not our stub,
 * and not made to lie by it): the routes exports, reports and bulk invite
 * use, written from /work/shared/api-v2.md alone, over its people
 * (fault-server/people.ts: the invitations, and the test takers of the
 * accepted ones; the sync world answers from the same model). A test
 * injects faults with `fault` (answer a request itself, before the server
 * does) and changes the data while a run reads it (`create`, `remove`,
 * `accept`). Lists follow the reference: newest first, 50 items (150 with
 * an `email` or `custom_id` filter), `email` and `custom_id` as
 * case-insensitive substrings, `team_id` exact.
 *
 * `idsAsStrings` sends every id as a numeric string ("50001"), as some
 * servers do. Binds port 0 on the loopback.
 *
 * The one fault server of the tests, in three worlds (`world`):
 * - `lists` (the default, above): exports, reports, bulk invite;
 * - `sync` (fault-server/sync-world.ts): the same people as a sync reads
 *   them, with its switches (ids as strings, overstated or missing totals,
 *   hidden people);
 * - `foreign` (fault-server/foreign-world.ts): the client's tests, a server
 *   that speaks the reference loosely, with queued behaviours and a CONNECT
 *   proxy;
 * and, with `upstream` (fault-server/upstream.ts), the lists world's faults
 * in front of a real server (our stub): what no fault answers is forwarded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type ForeignServer, startForeignWorld } from './fault-server/foreign-world.js';
import { listenLoopback } from './fault-server/listen.js';
import { type SyncFaultServer, startSyncWorld } from './fault-server/sync-world.js';
import type { FaultServer, Inv, Req } from './fault-server/lists-types.js';
import { people as makePeople } from './fault-server/people.js';
import { forward } from './fault-server/upstream.js';

export { type Behaviour, createInvitation, FOREIGN_INVITER, FOREIGN_KEY, type ForeignServer, type Seen } from './fault-server/foreign-world.js';
export { SYNC_FAULT_KEY, type SyncFaultServer } from './fault-server/sync-world.js';

export const FAULT_KEY = 'sk_live_faultserver0123456789ab';

export type { Fault, FaultServer, Inv, Req } from './fault-server/lists-types.js';

const TEAMS = [
  { id: 1, display_name: 'Team One' },
  { id: 2, display_name: 'Team Two' },
];
const ACCOUNT = { id: 1, display_name: 'Fault Co' };
const PERSONALITY = { id: 6, display_name: 'Personality Traits', short_name: 'Personality' };
const INTERESTS = { id: 8, display_name: 'Career Interests', short_name: 'Interests' };
const TEMPLATE = { id: 11, display_name: 'Invite' };
export const INVITER = 'boss@fault.example';

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
  return true;
}

/** Seeds `n` invitations, `accepted` of them with a test taker with results; created_at one second apart, oldest first. */
export function seed(s: FaultServer, n: number, o: { accepted?: number; email?: (i: number) => string; team?: (i: number) => number } = {}): void {
  const start = Date.now() - (n + 10) * 1000;
  for (let i = 0; i < n; i++) {
    const inv = s.create({ email: o.email ? o.email(i) : `person${i}@d${i % 7}.example`, team: o.team ? o.team(i) : 1 + (i % 2) });
    inv.created_at = new Date(start + i * 1000).toISOString();
    if (i < (o.accepted ?? 0)) s.accept(inv.id, true);
  }
}

export interface FaultOptions {
  world?: 'lists';
  idsAsStrings?: boolean;
  minimal?: boolean;
  /** An origin (http://127.0.0.1:PORT, or with a path that prefixes each request's) that answers what no fault did; the server then checks no key and serves no data of its own. */
  upstream?: string;
  /** Lets a request with any key (or none) through to the faults, as a server of the test's own would. */
  anyKey?: boolean;
}

export function startFaultServer(o?: FaultOptions): Promise<FaultServer>;
/** The sync world: `people` seeded people (see fault-server/sync-world.ts). */
export function startFaultServer(o: { world: 'sync'; people: number }): Promise<SyncFaultServer>;
/** The foreign world: a loose server with queued behaviours (see fault-server/foreign-world.ts). */
export function startFaultServer(o: { world: 'foreign' }): Promise<ForeignServer>;
export function startFaultServer(o: FaultOptions | { world: 'sync'; people: number } | { world: 'foreign' } = {}): Promise<FaultServer | SyncFaultServer | ForeignServer> {
  if (o.world === 'sync') return startSyncWorld(o.people);
  if (o.world === 'foreign') return startForeignWorld();
  return startListsWorld(o);
}

async function startListsWorld(o: FaultOptions): Promise<FaultServer> {
  // The people (fault-server/people.ts): test takers numbered from 90001 in order of acceptance.
  const people = makePeople({ firstTaker: 90001 });
  const counts = new Map<string, number>();
  const s: FaultServer = {
    url: '',
    port: 0,
    get invitations() {
      return people.invitations;
    },
    set invitations(v) {
      people.invitations = v;
    },
    idsAsStrings: o.idsAsStrings ?? false,
    minimal: o.minimal ?? false,
    faults: [],
    log: [],
    staleSent: 0,
    create: (c) => people.create(c),
    remove: (id) => people.remove(id),
    accept: (id, completed = false) => people.accept(id, completed),
    dropConnections: () => {},
    close: async () => {},
  };
  const id = (n: number) => (s.idsAsStrings ? String(n) : n);
  const team = (t: number) => ({ id: id(t), display_name: TEAMS.find((x) => x.id === t)?.display_name ?? `Team ${t}` });
  const account = () => ({ ...ACCOUNT, id: id(ACCOUNT.id) });
  const invItem = (i: Inv) => ({
    object: 'invitation_list_item',
    id: id(i.id),
    first_name: i.first_name,
    last_name: i.last_name,
    email: i.email,
    created_at: i.created_at,
    accepted_at: i.accepted_at,
    assessment_url: `https://take.example/a/${i.id}`,
    test_taker_id: i.test_taker_id === null ? null : id(i.test_taker_id),
    custom_id: i.custom_id,
    person_id: null,
    team: team(i.team_id),
    account: account(),
  });
  const invitation = (i: Inv) => ({
    mode: 'live',
    ...invItem(i),
    object: 'invitation',
    invited_by_user: null,
    send_via_email: true,
    phone: null,
    send_via_sms: false,
    invitation_email_template: TEMPLATE,
    ref_text: null,
    congrats_email_template: null,
    send_congrats_notification: false,
    target_score_profile: null,
    invitation_assessments: [PERSONALITY, INTERESTS],
    career_navigation_url: null,
    scorecard_url: null,
    job_fit_summary_url: null,
    career_options_spotlight_url: null,
    career_navigation_profile_id: null,
  });
  const takerItem = (i: Inv) =>
    s.minimal
      ? { id: id(i.test_taker_id ?? 0), custom_id: i.custom_id, person_id: null, team: team(i.team_id), account: account() }
      : fullTakerItem(i);
  const fullTakerItem = (i: Inv) => ({
    object: 'test_taker_list_item',
    id: id(i.test_taker_id ?? 0),
    invitation_id: id(i.id),
    first_name: i.first_name,
    last_name: i.last_name,
    email: i.email,
    created_at: i.accepted_at,
    custom_id: i.custom_id,
    person_id: null,
    team: team(i.team_id),
    account: account(),
  });
  const scorecard = (i: Inv, sp: string) => ({
    mode: 'live',
    object: 'scorecard',
    test_taker_id: id(i.test_taker_id ?? 0),
    invitation_id: id(i.id),
    custom_id: i.custom_id,
    person_id: null,
    career_navigation_profile_id: null,
    first_name: i.first_name,
    last_name: i.last_name,
    email: i.email,
    phone: null,
    fitscore_raw: 1.5,
    five_star_score: 1 + (i.id % 5),
    job_fit_percentage: 50 + (i.id % 50),
    scorecard_url: null,
    score_profile: { id: 1, display_name: 'Sales Rep', short_name: sp, riasec_profile: 'ESC' },
    riasec_profile: 'ESC',
    scores: { thinking_skills: null, personality_traits: null, career_interests: null, skill_survey_reference: null, structured_interview: null },
  });

  function list(people: Inv[], q: URLSearchParams, item: (i: Inv) => unknown, res: ServerResponse): true {
    const teamId = q.get('team_id');
    const cid = q.get('custom_id')?.toLowerCase();
    const email = q.get('email')?.toLowerCase();
    if (teamId !== null && !TEAMS.some((t) => String(t.id) === teamId)) return send(res, 400, { error: 'team_id not found' });
    const match = people
      .filter((i) => (teamId === null || String(i.team_id) === teamId) && (!cid || (i.custom_id ?? '').toLowerCase().includes(cid)) && (!email || (s.emailMatches ? s.emailMatches(i.email, email) : i.email.toLowerCase().includes(email))))
      .reverse();
    const cap = cid || email ? 150 : 50;
    return send(res, 200, { mode: 'live', object: 'list', total_count: match.length, has_more: match.length > cap, data: match.slice(0, cap).map(item) });
  }

  async function answer(r: Req, res: ServerResponse): Promise<void> {
    for (const f of s.faults) if (await f(r, res)) return;
    if (o.upstream) return forward(o.upstream, r, res, s.rewrite);
    const seg = r.path.split('/').filter(Boolean);
    const byTaker = (v: string) => people.byTaker(v);
    if (r.method === 'GET') {
      if (r.path === '/accounts') return void send(res, 200, { mode: 'live', object: 'account', ...account(), webhook_endpoint: null, webhooks_enabled: false });
      if (r.path === '/users')
        return void send(res, 200, {
          mode: 'live',
          object: 'list',
          total_count: 1,
          has_more: false,
          data: [
            {
              object: 'user',
              id: id(7),
              first_name: 'Bo',
              last_name: 'Ss',
              email: INVITER,
              default_team: team(1),
              default_assessments: [PERSONALITY, INTERESTS],
              default_invitation_email_template: TEMPLATE,
              default_congrats_email_template: null,
              default_scheduling_link: null,
            },
          ],
        });
      if (r.path === '/teams')
        return void send(res, 200, {
          mode: 'live',
          object: 'list',
          total_count: TEAMS.length,
          has_more: false,
          data: TEAMS.map((t) => ({ object: 'team_list_item', ...team(t.id), users_count: 1, invitations_count: 0, test_takers_count: 0 })),
        });
      if (r.path === '/email-templates')
        return void send(res, 200, { mode: 'live', object: 'list', total_count: 1, has_more: false, data: [{ object: 'email_template', ...TEMPLATE, template_type: 'invitation', teams: TEAMS.map((t) => team(t.id)) }] });
      if (r.path === '/assessments')
        return void send(res, 200, { mode: 'live', object: 'list', total_count: 2, has_more: false, data: [PERSONALITY, INTERESTS].map((a) => ({ object: 'assessment', ...a })) });
      if (r.path === '/score-profiles')
        return void send(res, 200, { mode: 'live', object: 'list', total_count: 1, has_more: false, data: [{ object: 'score_profile', id: id(1), display_name: 'Sales Rep', short_name: 'sales-rep', riasec_profile: 'ESC' }] });
      if (r.path === '/invitations') return void list(s.invitations, r.query, invItem, res);
      if (r.path === '/test-takers') return void list(s.invitations.filter((i) => i.test_taker_id !== null), r.query, takerItem, res);
      if (seg[0] === 'invitations' && seg.length === 2) {
        const inv = s.invitations.find((i) => String(i.id) === seg[1]);
        return void (inv ? send(res, 200, invitation(inv)) : send(res, 400, { error: 'Invitation not found' }));
      }
      if (seg[0] === 'test-takers' && seg.length >= 2) {
        const inv = byTaker(seg[1]);
        if (!inv) return void send(res, 400, { error: 'Test taker not found' });
        if (seg[2] === 'scorecard') {
          const sp = r.query.get('sp');
          if (sp !== 'sales-rep') return void send(res, 400, { error: 'sp: Invalid score profile' });
          return void send(res, 200, scorecard(inv, sp));
        }
        if (seg.length === 2)
          return void send(res, 200, {
            mode: 'live',
            object: 'test_taker',
            id: id(inv.test_taker_id ?? 0),
            person_id: null,
            custom_id: inv.custom_id,
            invitation_id: id(inv.id),
            phone: null,
            assigned_assessments: [],
            scorecard_url: null,
            job_fit_summary_url: null,
            career_navigation_url: null,
            career_navigation_profile_id: null,
          });
      }
    }
    if (r.method === 'POST' && r.path === '/invitations') {
      const b = JSON.parse(r.body || '{}') as Record<string, unknown>;
      const email = String(b.email ?? '');
      if (s.invitations.some((i) => i.email.toLowerCase() === email.toLowerCase())) return void send(res, 400, { error: `Team already has an invitation with email ${email}` });
      const inv = s.create({ email, first: String(b.first_name ?? ''), last: String(b.last_name ?? ''), team: typeof b.team_id === 'number' ? b.team_id : 1 });
      return void send(res, 201, invitation(inv));
    }
    send(res, 404, { error: 'Not found' });
  }

  /** The last answer each connection carried (for `stale`). */
  const lastOn = new WeakMap<Socket, { status: number; headers: Record<string, string>; body: string }>();
  const remember = (sock: Socket, res: ServerResponse) => {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    (res as unknown as { end: (chunk?: unknown) => ServerResponse }).end = (chunk?: unknown) => {
      if (typeof chunk === 'string') lastOn.set(sock, { status: res.statusCode, headers: { 'content-type': String(res.getHeader('content-type') ?? 'application/json') }, body: chunk });
      return end(chunk);
    };
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      s.log.push(`${req.method} ${u.pathname}${u.search}`);
      if (!o.upstream && u.pathname === '/healthcheck') return void send(res, 200, { status: 'ok', timestamp: new Date().toISOString(), version: 'v2' });
      if (!o.upstream && !o.anyKey && req.headers.authorization !== `Bearer ${FAULT_KEY}`) return void send(res, 404, { error: 'API key is required' });
      const key = `${req.method} ${u.pathname}`;
      const nth = (counts.get(key) ?? 0) + 1;
      counts.set(key, nth);
      const r: Req = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, body: Buffer.concat(chunks).toString('utf8'), nth, url: req.url ?? '/', headers: req.headers };
      const before = lastOn.get(req.socket);
      if (before && s.stale?.(r)) {
        s.staleSent++;
        res.writeHead(before.status, before.headers);
        return void res.end(before.body);
      }
      remember(req.socket, res);
      answer(r, res).then(
        () => {
          if (r.method === 'GET' && (r.path === '/invitations' || r.path === '/test-takers')) s.afterList?.(r);
        },
        (err: unknown) => {
          if (!res.headersSent) send(res, 500, { error: String(err) });
        },
      );
    });
  });
  const bound = await listenLoopback(server);
  s.port = bound.port;
  s.url = `http://127.0.0.1:${s.port}`;
  s.dropConnections = () => server.closeAllConnections();
  s.close = bound.close;
  return s;
}

/** Environment for runCli against the fault server. */
export const faultEnv = (s: FaultServer, extra: Record<string, string> = {}) => ({ JOBFIT_BASE_URL: s.url, JOBFIT_API_KEY: FAULT_KEY, JOBFIT_BREAKER_SECONDS: '0', ...extra });
