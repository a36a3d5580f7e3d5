/**
 * The foreign world of test/helpers/fault-server.ts (`startFaultServer({
 * world: 'foreign' })`): a tiny server that is not our stub: it speaks the
 * reference loosely (extra fields, nulls), rate-limits, fails and drops
 * connections on demand. Each test queues behaviours; unqueued requests get
 * the default handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { listenLoopback } from './listen.js';

/** What a behaviour returns is ignored (`send` returns true). */
export type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

export interface ForeignServer {
  url: string;
  port: number;
  seen: Seen[];
  /** CONNECT requests seen when used as a proxy. */
  tunnels: string[];
  invitations: Array<Record<string, unknown>>;
  /** Behaviours for the next requests matching `METHOD /path` (path without query). */
  queue(key: string, ...b: Behaviour[]): void;
  close(): Promise<void>;
}

export const FOREIGN_KEY = 'sk_live_foreignforeign1234a1b2';
/** The one user of its account (the inviter of a bulk invite). */
export const FOREIGN_INVITER = 'rea.cruiter@acme.example';

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function invitationOf(id: number, b: Record<string, unknown>) {
  return {
    mode: 'live',
    object: 'invitation',
    id,
    invited_by_user: null,
    created_at: new Date().toISOString(),
    accepted_at: null,
    first_name: b.first_name,
    last_name: b.last_name,
    email: b.email,
    send_via_email: true,
    phone: null,
    send_via_sms: false,
    custom_id: null,
    person_id: null,
    invitation_email_template: null,
    ref_text: null,
    congrats_email_template: null,
    send_congrats_notification: false,
    target_score_profile: null,
    invitation_assessments: [{ id: 6, display_name: 'Personality Traits', short_name: 'Personality' }],
    assessment_url: null,
    career_navigation_url: null,
    scorecard_url: null,
    job_fit_summary_url: null,
    career_options_spotlight_url: null,
    team: { id: 1, display_name: 'Team A' },
    account: { id: 1, display_name: 'Acme' },
    test_taker_id: null,
    career_navigation_profile_id: null,
    // A newer server's field:
    delivery_status: 'queued',
  };
}

/** Stores the invitation as a real server would; the caller decides what the client gets back. */
export function createInvitation(s: ForeignServer, body: string): Record<string, unknown> {
  const inv = invitationOf(s.invitations.length + 100, JSON.parse(body));
  s.invitations.push(inv);
  return inv;
}

export async function startForeignWorld(): Promise<ForeignServer> {
  const queues = new Map<string, Behaviour[]>();
  const state = {} as ForeignServer;
  state.seen = [];
  state.tunnels = [];
  state.invitations = [];
  state.queue = (key, ...b) => {
    queues.set(key, [...(queues.get(key) ?? []), ...b]);
  };

  const fallback: Behaviour = (req, res, body) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (req.headers.authorization !== `Bearer ${FOREIGN_KEY}`) return json(res, 404, { error: 'API key is required' });
    if (req.method === 'GET' && u.pathname === '/v2/teams') {
      return json(res, 200, {
        mode: 'live',
        object: 'list',
        total_count: 1,
        has_more: false,
        next_cursor: null,
        data: [{ object: 'team_list_item', id: 1, display_name: 'Team A', users_count: 2, invitations_count: 0, test_takers_count: 0, region: 'eu' }],
      });
    }
    // What a bulk invite reads before its first row: the account, its users, templates and catalog.
    if (req.method === 'GET' && u.pathname === '/v2/accounts') {
      return json(res, 200, { mode: 'live', object: 'account', id: 1, display_name: 'Acme', webhook_endpoint: null, webhooks_enabled: false });
    }
    if (req.method === 'GET' && u.pathname === '/v2/users') {
      const personality = { id: 6, display_name: 'Personality Traits', short_name: 'Personality' };
      const user = { object: 'user', id: 7, first_name: 'Rea', last_name: 'Cruiter', email: FOREIGN_INVITER, default_team: { id: 1, display_name: 'Team A' }, default_assessments: [personality], default_invitation_email_template: { id: 30, display_name: 'Welcome' }, default_congrats_email_template: null, default_scheduling_link: null };
      return json(res, 200, { mode: 'live', object: 'list', total_count: 1, has_more: false, data: [user] });
    }
    if (req.method === 'GET' && u.pathname === '/v2/email-templates') {
      const data = [{ object: 'email_template', id: 30, display_name: 'Welcome', template_type: 'invitation', teams: [{ id: 1, display_name: 'Team A' }] }];
      return json(res, 200, { mode: 'live', object: 'list', total_count: 1, has_more: false, data });
    }
    if (req.method === 'GET' && u.pathname === '/v2/assessments') {
      const data = [{ object: 'assessment', id: 6, display_name: 'Personality Traits', short_name: 'Personality' }];
      return json(res, 200, { mode: 'live', object: 'list', total_count: 1, has_more: false, data });
    }
    if (req.method === 'POST' && u.pathname === '/v2/invitations') return json(res, 201, createInvitation(state, body));
    if (req.method === 'GET' && u.pathname === '/v2/invitations') {
      const email = (u.searchParams.get('email') ?? '').toLowerCase();
      const data = state.invitations
        .filter((i) => String(i.email).toLowerCase().includes(email))
        .map((i) => ({ object: 'invitation_list_item', id: i.id, first_name: i.first_name, last_name: i.last_name, email: i.email, created_at: i.created_at, accepted_at: null, assessment_url: null, test_taker_id: null, custom_id: null, person_id: null, team: i.team, account: i.account }));
      return json(res, 200, { mode: 'live', object: 'list', total_count: data.length, has_more: false, data });
    }
    const m = /^\/v2\/invitations\/(\d+)$/.exec(u.pathname);
    if (req.method === 'GET' && m) {
      const inv = state.invitations.find((i) => i.id === Number(m[1]));
      return inv ? json(res, 200, inv) : json(res, 400, { error: 'Invitation not found' });
    }
    json(res, 404, { error: 'not here' });
  };

  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      state.seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
      const q = queues.get(key);
      const b = q?.shift() ?? fallback;
      await b(req, res, body);
    });
  });
  // Used as an HTTP proxy: tunnel to ourselves, remembering the target asked for.
  server.on('connect', (req, clientSocket, head) => {
    state.tunnels.push(req.url ?? '');
    const upstream = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  const bound = await listenLoopback(server);
  state.port = bound.port;
  state.url = `http://127.0.0.1:${bound.port}/v2`;
  state.close = bound.close;
  return state;
}
