/**
 * The hostile behaviours of issue 43 (round four) for the fault server of
 * test/helpers/fault-server.ts: a broken proxy that sends a reused
 * connection's previous answer again, an item answer carrying another
 * person's object, a 201 carrying another invitation's id (or 0, or
 * "pending"), and an email filter that folds case and accents as MySQL 8's
 * default collation does.
 */
import { mulberry32 } from '../../src/stub/random.js';
import { FAULT_KEY as KEY, type FaultServer, type Req, send } from '../helpers/fault-server.js';

/** An item of a test taker (`/test-takers/ID` and below): what exports, reports and sync ask one by one. */
export const isTakerItem = (r: Req) => r.method === 'GET' && /^\/test-takers\/[^/]+(\/|$)/.test(r.path);

/** Every GET: lists, items of invitations and test takers, reference data. */
export const anyGet = (r: Req) => r.method === 'GET';

/** A broken proxy: `rate` of the requests `which` picks (default: test-taker items) on a reused connection get that connection's previous answer (seeded). */
export function staleOnReuse(s: FaultServer, rate: number, seed = 7, which: (r: Req) => boolean = isTakerItem): void {
  const rand = mulberry32(seed);
  s.stale = (r) => which(r) && rand() < rate;
}

/**
 * `rate` of the scorecard and job-fit answers are another accepted person's
 * (seeded), on any connection. `always`: this test taker's answer is always
 * someone else's. `items`: the test taker (`/test-takers/ID`) and invitation
 * (`/invitations/ID`) answers too (what a sync reads), `always` naming the
 * test taker or the invitation. `once`: a path is answered wrong at most once
 * (a stray answer, not a server that always mixes one person up).
 */
export function otherPerson(s: FaultServer, o: { rate?: number; always?: number; seed?: number; items?: boolean; once?: boolean }): void {
  const rand = mulberry32(o.seed ?? 11);
  const wronged = new Set<string>();
  const route = o.items ? /^\/(test-takers|invitations)\/([^/]+)(\/scorecard|\/job-fit-report)?$/ : /^\/(test-takers)\/([^/]+)(\/scorecard|\/job-fit-report)$/;
  let inner = false;
  s.faults.unshift(async (req, res) => {
    const m = route.exec(req.path);
    if (inner || !m || req.method !== 'GET') return false;
    if (!(Number(m[2]) === o.always || rand() < (o.rate ?? 0))) return false;
    if (o.once && wronged.has(`${req.path}?${req.query}`)) return false;
    wronged.add(`${req.path}?${req.query}`);
    const invitation = m[1] === 'invitations';
    const others = s.invitations.filter((i) => (invitation ? String(i.id) !== m[2] : i.completed && String(i.test_taker_id) !== m[2]));
    const other = others[Math.floor(rand() * others.length)];
    // The server's own answer for the other person, through the same routes.
    inner = true;
    try {
      const path = invitation ? `invitations/${other.id}` : `test-takers/${other.test_taker_id}${m[3] ?? ''}`;
      const r = await fetch(`${s.url}/${path}${req.query.size ? `?${req.query}` : ''}`, { headers: { authorization: `Bearer ${KEY}` } });
      return send(res, r.status, await r.json());
    } finally {
      inner = false;
    }
  });
}

/** POST /invitations answers 201 with `id` replaced by `id(inv)` (another invitation's id, 0, "pending") for the emails `which` picks; the invitation is created. */
export function wrongCreatedId(s: FaultServer, which: (email: string) => boolean, id: (created: number, email: string) => unknown): void {
  s.faults.unshift((req, res) => {
    if (req.method !== 'POST' || req.path !== '/invitations') return false;
    const b = JSON.parse(req.body || '{}') as { email?: string; first_name?: string; last_name?: string; team_id?: number };
    const email = String(b.email ?? '');
    if (!which(email)) return false;
    if (s.invitations.some((i) => i.email.toLowerCase() === email.toLowerCase())) return send(res, 400, { error: `Team already has an invitation with email ${email}` });
    const inv = s.create({ email, first: String(b.first_name ?? ''), last: String(b.last_name ?? ''), team: typeof b.team_id === 'number' ? b.team_id : 1 });
    return send(res, 201, { mode: 'live', object: 'invitation', id: id(inv.id, email), first_name: inv.first_name, last_name: inv.last_name, email: inv.email, created_at: inv.created_at, accepted_at: null, test_taker_id: null, custom_id: null, team: { id: inv.team_id, display_name: 'Team' } });
  });
}

/** Case and accents folded (NFD, marks dropped, lower case): what `utf8mb4_0900_ai_ci` compares equal. */
export const fold = (t: string) => t.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The service's email filter folds case and accents (MySQL 8's utf8mb4_0900_ai_ci): `e@` finds `é@` too. */
export function foldingEmailFilter(s: FaultServer): void {
  s.emailMatches = (email, filter) => fold(email).includes(fold(filter));
}
