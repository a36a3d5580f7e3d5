/**
 * The stub's request handling: routing, authentication, every v2 route, v1.
 * No framework: a switch on path segments and cached prepared statements keep
 * a request to a few microseconds of our own code. zod and libphonenumber are
 * loaded on the first POST/PUT only, so start-up stays light.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MSG } from '../api/messages.js';
import type { Account, Assessment, EmailTemplate, Invitation, Mode, ScoreProfile, TeamListItem, User } from '../api/schemas.js';
import { ASSESSMENTS, SCORE_PROFILES, type ScoreProfileDef } from './catalog.js';
import * as F from './fakes.js';
import type { FaultInjector } from './faults.js';
import { groupCommitOf } from './group-commit.js';
import { recordOutbox } from './lifecycle.js';
import { type ResultSubject, jobFitReportObject, scorecardObject } from './results.js';
import { type Store, newToken, nowIso } from './store.js';
import {
  type InvitationListRow,
  type InvitationRow,
  type ProfileListRow,
  type ProfileRow,
  type TestTakerListRow,
  type TestTakerRow,
  type UserRow,
  accountRef,
  assessmentRef,
  assessmentUrl,
  completedTests,
  invitationListItem,
  invitationObject,
  profileListItem,
  profileObject,
  resultUrls,
  scoreSeed,
  teamRef,
  templateRef,
  testTakerListItem,
  minimalTestTakerListItem,
  minimalProfileListItem,
  testTakerObject,
} from './views.js';
import { handleV1 } from './v1.js';

// ------------------------------------------------------------------ replies

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; headers?: Record<string, string> }
  /** Already serialised JSON (from the response cache): bytes, so that a hit is not encoded again. */
  | { status: number; raw: Buffer; headers?: Record<string, string> };

const json = (status: number, body: unknown): Reply => ({ status, json: body });
export const error = (status: number, message: string | string[]): Reply => json(status, { error: message });

class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super('http error');
  }
}
/** Ends the handler with an error reply. */
function fail(message: string | string[], status = 400): never {
  throw new HttpError(error(status, message));
}

function replyParts(reply: Reply): { headers: Record<string, string | number>; body: string | Buffer } {
  const isJson = !('text' in reply);
  const body = 'json' in reply ? JSON.stringify(reply.json) : 'raw' in reply ? reply.raw : reply.text;
  const headers: Record<string, string | number> = {
    'content-type': isJson ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    ...reply.headers,
  };
  return { headers, body };
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const { headers, body } = replyParts(reply);
  res.writeHead(reply.status, headers);
  res.end(body);
}

// ------------------------------------------------------------------ bodies

/** The largest request body the stub reads (docs/stub.md). */
export const MAX_BODY = 1_048_576;
/** After a 413, the rest of the body is read and dropped up to this much more, for this long; then the connection is cut. */
const DRAIN_MAX_BYTES = 64 * MAX_BODY;
const DRAIN_MAX_MS = 10_000;

export const tooLarge = (): Reply => ({ ...error(413, MSG.bodyTooLarge), headers: { connection: 'close' } });

/** Requests whose body went over MAX_BODY: answered with 413 while the client may still be sending. */
const oversized = new WeakSet<IncomingMessage>();

/**
 * Writes the answer to a request whose body was refused as too large. The
 * client may still be sending: the answer goes out at once, the rest of the
 * body is read and dropped, and the connection closes when the body ends
 * (`Connection: close`). Closing with unread bytes would reset the
 * connection, and the client would never see the 413.
 */
function writeReplyDraining(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const { headers, body } = replyParts(reply);
  res.writeHead(reply.status, { ...headers, connection: 'close' });
  if (req.readableEnded || req.destroyed) {
    res.end(body);
    return;
  }
  res.write(body);
  let dropped = 0;
  let done = false;
  const finish = (cut: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.removeListener('data', onData);
    res.end();
    // A client that sends on and on is cut off once its answer is out.
    if (cut) res.once('finish', () => req.socket.destroy());
  };
  const onData = (c: Buffer) => {
    dropped += c.length;
    if (dropped > DRAIN_MAX_BYTES) finish(true);
  };
  const timer = setTimeout(() => finish(true), DRAIN_MAX_MS);
  timer.unref();
  req.on('data', onData);
  req.once('end', () => finish(false));
  req.once('close', () => finish(false));
  req.resume();
}

/** Writes a reply; a request refused as too large has the rest of its body drained first. */
function respond(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (oversized.has(req)) writeReplyDraining(req, res, reply);
  else writeReply(res, reply);
}

// ------------------------------------------------------------------ context

export interface Auth {
  accountId: number;
  mode: Mode;
}

export interface Call {
  store: Store;
  origin: string;
  method: string;
  params: string[];
  query: URLSearchParams;
  auth: Auth;
  body: () => Promise<unknown>;
  /** Configuration reads remembered while the configuration is unchanged (createApp). */
  refs: Map<string, unknown>;
  /** Answer the reference's "not shown" list items with only the stated fields (AppOptions.minimalFields). */
  minimal?: boolean;
}

/** The form of the keys the stub issues: sk_live_ or sk_test_ then 32 lowercase hex digits. */
export const KEY_FORMAT = /^sk_(live|test)_[0-9a-f]{32}$/;

/**
 * Reference, Authentication 4: a missing or invalid key (any key the service
 * does not know, whatever its form) → "API key is required"; a known key
 * whose account is gone → "Account not found for API key".
 */
export function authenticate(store: Store, header: string | undefined): Auth | Reply {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) return error(404, MSG.apiKeyRequired);
  const key = m[1];
  const row = store.get<{ account_id: number; mode: Mode; exists: number | null }>(
    'SELECT k.account_id, k.mode, a.id AS "exists" FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE k.key = ?',
    key,
  );
  if (!row) return error(404, MSG.apiKeyRequired);
  if (row.exists === null) return error(404, MSG.accountNotFound);
  return { accountId: row.account_id, mode: row.mode };
}

// ------------------------------------------------------------------ routing

type Handler = (c: Call) => Reply | Promise<Reply>;
interface RouteMatch {
  handlers: Partial<Record<'GET' | 'POST' | 'PUT', Handler>>;
  params: string[];
}

/** Path segments after /v2 → the handlers of that path (null: no such path). */
function matchV2(seg: string[]): RouteMatch | null {
  const [a, b, c, ...rest] = seg;
  if (rest.length > 0) return null;
  switch (a) {
    case 'accounts':
      return b === undefined ? { handlers: { GET: getAccount }, params: [] } : null;
    case 'users':
      return b === undefined ? { handlers: { GET: listUsers }, params: [] } : null;
    case 'teams':
      return b === undefined ? { handlers: { GET: listTeams }, params: [] } : null;
    case 'email-templates':
      return b === undefined ? { handlers: { GET: listEmailTemplates }, params: [] } : null;
    case 'assessments':
      return b === undefined ? { handlers: { GET: listAssessments }, params: [] } : null;
    case 'score-profiles':
      return b === undefined ? { handlers: { GET: listScoreProfiles }, params: [] } : null;
    case 'invitations':
      if (b === undefined) return { handlers: { GET: listInvitations, POST: createInvitation }, params: [] };
      return c === undefined ? { handlers: { GET: getInvitation, PUT: updateInvitation }, params: [b] } : null;
    case 'test-takers':
      if (b === undefined) return { handlers: { GET: listTestTakers }, params: [] };
      if (c === undefined) return { handlers: { GET: getTestTaker }, params: [b] };
      if (c === 'scorecard') return { handlers: { GET: getScorecard }, params: [b] };
      if (c === 'job-fit-report') return { handlers: { GET: getJobFitReport }, params: [b] };
      return null;
    case 'career-navigation-profiles':
      if (b === undefined) return { handlers: { GET: listProfiles }, params: [] };
      return c === undefined ? { handlers: { GET: getProfile }, params: [b] } : null;
    default:
      return null;
  }
}

export interface AppOptions {
  store: Store;
  origin: () => string;
  faults?: FaultInjector;
  /** Pages outside /v1 and /v2 (the participant page at /take/<token>): return true when handled. */
  pages?: (req: IncomingMessage, res: ServerResponse, store: Store) => boolean | Promise<boolean>;
  /** Play a strict server: "not shown" list items carry only the reference's fields (views.ts). */
  minimalFields?: boolean;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    // A declared length over the limit is refused before reading any of it.
    if (Number(req.headers['content-length']) > MAX_BODY) {
      oversized.add(req);
      reject(new HttpError(tooLarge()));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        // Not destroyed here: the 413 is written first (respond), then the rest is drained.
        oversized.add(req);
        req.removeListener('data', onData);
        req.pause();
        chunks.length = 0;
        reject(new HttpError(tooLarge()));
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function parseJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    fail(MSG.invalidJson);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(MSG.bodyNotObject);
  return value as Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CACHE_MAX = 2000;

export function createApp(opts: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { store } = opts;
  const cache = new Map<string, { version: string; status: number; body: Buffer }>();
  const commits = groupCommitOf(store);
  // data_version moves when another connection commits; total_changes() when this one writes.
  // `config` leaves out the rows the group commit wrote (new invitations and
  // their assessments and outbox lines), which touch neither keys nor configuration.
  let config = '';
  // Asked once per turn of the event loop, not per request: the requests that
  // arrive together share the answer unless this process writes in between
  // (store.writes moves). Another process's write is seen on the next turn.
  let turnVersion = '';
  let versionWrites = -1;
  const dataVersion = () => {
    if (versionWrites === store.writes) return turnVersion;
    const r = store.get<{ v: number; c: number }>('SELECT data_version AS v, total_changes() AS c FROM pragma_data_version')!;
    config = `${r.v}:${r.c - commits.ownChanges}`;
    turnVersion = `${r.v}:${r.c}`;
    versionWrites = store.writes;
    setImmediate(() => {
      versionWrites = -1;
    });
    return turnVersion;
  };
  // Key lookups and the configuration reads of the write path (inviter by
  // email, team, template), remembered while neither another process nor any
  // write here other than a new invitation has changed the database (a reset
  // anywhere rewrites api_keys and moves the version). A POST load therefore
  // does not look its key and inviter up again after every commit.
  const auths = new Map<string, Auth | Reply>();
  const refs = new Map<string, unknown>();
  const loggedFaults = new Set<string>();
  let authsVersion = '';
  const authOf = (header: string | undefined): Auth | Reply => {
    if (authsVersion !== config || auths.size >= CACHE_MAX || refs.size >= CACHE_MAX) {
      auths.clear();
      refs.clear();
      authsVersion = config;
    }
    const k = header ?? '';
    let a = auths.get(k);
    if (a === undefined) {
      a = authenticate(store, header);
      auths.set(k, a);
    }
    return a;
  };
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      const reply = err instanceof HttpError ? err.reply : faultReply(err);
      if (!res.headersSent) respond(req, res, reply);
      else res.destroy();
    });
  };

  /**
   * The answer to an unexpected error. A disk that is full (507) or read-only
   * (503) is named in the answer and logged once per condition, not per write;
   * anything else is a 500 and its stack is logged once per distinct message.
   */
  function faultReply(err: unknown): Reply {
    const disk = store.diskError(err);
    if (disk) {
      store.noteDiskCondition(disk.condition);
      return error(disk.condition === 'full' ? 507 : 503, MSG.notStored(disk.reason));
    }
    const message = err instanceof Error ? err.message : String(err);
    if (!loggedFaults.has(message) && loggedFaults.size < 100) {
      loggedFaults.add(message);
      store.warn(err instanceof Error && err.stack ? err.stack : message);
    }
    return error(500, 'Internal server error');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');

    let drop = false;
    if (opts.faults?.enabled && (path.startsWith('/v2/') || path.startsWith('/v1/'))) {
      const decision = opts.faults.decide(method, path);
      const latency = opts.faults.latencyMs();
      if (latency > 0) await sleep(latency);
      if (decision.kind === '429') {
        return writeReply(res, { status: 429, json: { error: 'Too many requests' }, headers: { 'retry-after': decision.retryAfter } });
      }
      if (decision.kind === '5xx') return writeReply(res, error(decision.status, 'Internal server error'));
      drop = decision.kind === 'drop';
    }

    const reply = await route(req, method, path, q < 0 ? '' : url.slice(q + 1));
    if (reply === null) {
      if (opts.pages && (await opts.pages(req, res, store))) return;
      return writeReply(res, error(404, MSG.notFound));
    }
    if (drop) {
      // The write is committed; the client never hears back (bulk invite must reconcile).
      req.socket.destroy();
      return;
    }
    respond(req, res, reply);
  }

  async function route(req: IncomingMessage, method: string, path: string, search: string): Promise<Reply | null> {
    const seg = path.split('/');
    // seg[0] is '' (leading slash); a trailing slash is tolerated.
    if (seg[seg.length - 1] === '' && seg.length > 2) seg.pop();
    if (seg[1] === 'v1') return handleV1(store, opts.origin(), method, seg.slice(2), new URLSearchParams(search), () => parseJsonBody(req));
    if (seg[1] !== 'v2') return null;
    const rest = seg.slice(2).map(safeDecode);
    if (rest.length === 1 && rest[0] === 'healthcheck') {
      if (method !== 'GET') return methodNotAllowed(['GET']);
      return json(200, { status: 'ok', timestamp: nowIso(), version: 'v2' });
    }
    const m = matchV2(rest);
    if (!m) return error(404, MSG.notFound);
    const handler = m.handlers[method as 'GET'];
    if (!handler) return methodNotAllowed(Object.keys(m.handlers));
    const version = dataVersion();
    const auth = authOf(req.headers.authorization);
    if ('status' in auth) return auth;
    // Live GETs are answered from a cache of serialised bodies while the
    // database is unchanged (by this or any other process): lists and results
    // are read far more often than they change.
    const cacheable = method === 'GET' && auth.mode === 'live';
    let cacheKey = '';
    if (cacheable) {
      cacheKey = `${auth.accountId} ${path}?${search}`;
      const hit = cache.get(cacheKey);
      if (hit && hit.version === version) return { status: hit.status, raw: hit.body };
    }
    try {
      const reply = await handleRoute(handler, m.params, method, search, auth, req);
      if (cacheable && 'json' in reply) {
        const body = Buffer.from(JSON.stringify(reply.json));
        if (cache.size >= CACHE_MAX) cache.clear();
        cache.set(cacheKey, { version, status: reply.status, body });
        return { status: reply.status, raw: body, headers: reply.headers };
      }
      return reply;
    } catch (err) {
      if (err instanceof HttpError) return err.reply;
      throw err;
    }
  }

  async function handleRoute(handler: Handler, params: string[], method: string, search: string, auth: Auth, req: IncomingMessage): Promise<Reply> {
    try {
      return await handler({
        store,
        origin: opts.origin(),
        method,
        params,
        query: new URLSearchParams(search),
        auth,
        body: () => parseJsonBody(req),
        refs,
        minimal: opts.minimalFields,
      });
    } catch (err) {
      if (err instanceof HttpError) return err.reply;
      throw err;
    }
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function methodNotAllowed(allowed: string[]): Reply {
  const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
  return { status: 405, text: MSG.methodNotAllowed, headers: { allow: allow.join(', ') } };
}

// ------------------------------------------------------------------ helpers

const accountName = (c: Call) => accountRef(c.store, c.auth.accountId);

function list<T>(c: Call, data: T[], total = data.length): Reply {
  return json(200, { mode: c.auth.mode, object: 'list', total_count: total, has_more: total > data.length, data });
}

/** A positive integer path id, or null (an id that cannot exist). */
function intId(s: string): number | null {
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

/** A configuration read through c.refs; misses are not remembered (rows may appear). */
function ref<T>(c: Call, key: string, load: () => T | undefined): T | undefined {
  let v = c.refs.get(key) as T | undefined;
  if (v === undefined) {
    v = load();
    if (v !== undefined) c.refs.set(key, v);
  }
  return v;
}

function teamOfAccount(c: Call, teamId: number): { id: number; display_name: string } | undefined {
  return ref(c, `team:${c.auth.accountId}:${teamId}`, () =>
    c.store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE id = ? AND account_id = ?', teamId, c.auth.accountId),
  );
}

/** Some team of the account, for fakes. */
function anyTeam(c: Call): { id: number; display_name: string } {
  return c.store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE account_id = ? ORDER BY id LIMIT 1', c.auth.accountId) ?? { id: 0, display_name: 'Test Team' };
}

function fakeCtx(c: Call, team?: { id: number; display_name: string }): F.FakeContext {
  return { origin: c.origin, account: accountName(c), team: team ?? anyTeam(c), now: nowIso() };
}

function enabledProfiles(c: Call): ScoreProfileDef[] {
  const ids = new Set(c.store.all<{ score_profile_id: number }>('SELECT score_profile_id FROM account_score_profiles WHERE account_id = ?', c.auth.accountId).map((r) => r.score_profile_id));
  return SCORE_PROFILES.filter((p) => ids.has(p.id));
}

// ------------------------------------------------------------------ account, users, teams, templates, catalog

function getAccount(c: Call): Reply {
  const a = c.store.get<{ id: number; display_name: string; webhook_endpoint: string | null; webhook_test_endpoint: string | null; webhooks_enabled: number }>(
    'SELECT * FROM accounts WHERE id = ?',
    c.auth.accountId,
  )!;
  const live = c.auth.mode === 'live';
  const body: Account = {
    mode: c.auth.mode,
    object: 'account',
    id: a.id,
    display_name: a.display_name,
    // Test mode shows the test endpoint; test keys never produce events.
    webhook_endpoint: live ? a.webhook_endpoint : a.webhook_test_endpoint,
    webhooks_enabled: live ? a.webhooks_enabled === 1 : false,
  };
  return json(200, body);
}

function userObject(c: Call, u: UserRow): User {
  const tests = JSON.parse(u.default_test_ids) as number[];
  return {
    object: 'user',
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    default_team: u.default_team_id === null ? null : teamRef(c.store, u.default_team_id),
    default_assessments: tests.map(assessmentRef),
    default_invitation_email_template: templateRef(c.store, u.default_invitation_template_id),
    default_congrats_email_template: templateRef(c.store, u.default_congrats_template_id),
    default_scheduling_link: u.default_scheduling_link,
  };
}

function listUsers(c: Call): Reply {
  const users = c.store.all<UserRow>('SELECT * FROM users WHERE account_id = ? ORDER BY id', c.auth.accountId);
  return list(c, users.map((u) => userObject(c, u)));
}

function listTeams(c: Call): Reply {
  const live = c.auth.mode === 'live';
  const rows = c.store.all<{ id: number; display_name: string; users_count: number; invitations_count: number; test_takers_count: number }>(
    `SELECT t.id, t.display_name,
       (SELECT COUNT(*) FROM user_teams ut WHERE ut.team_id = t.id) AS users_count,
       (SELECT COUNT(*) FROM invitations i WHERE i.team_id = t.id) AS invitations_count,
       (SELECT COUNT(*) FROM test_takers tt WHERE tt.team_id = t.id) AS test_takers_count
     FROM teams t WHERE t.account_id = ? ORDER BY t.id`,
    c.auth.accountId,
  );
  const data: TeamListItem[] = rows.map((r) => ({
    object: 'team_list_item',
    id: r.id,
    display_name: r.display_name,
    users_count: r.users_count,
    // Test mode stores nothing, so its teams hold no invitations or test takers.
    invitations_count: live ? r.invitations_count : 0,
    test_takers_count: live ? r.test_takers_count : 0,
  }));
  return list(c, data);
}

function listEmailTemplates(c: Call): Reply {
  const rows = c.store.all<{ id: number; display_name: string; template_type: 'invitation' | 'congrats' }>(
    'SELECT id, display_name, template_type FROM templates WHERE account_id = ? ORDER BY id',
    c.auth.accountId,
  );
  const data: EmailTemplate[] = rows.map((t) => ({
    object: 'email_template',
    id: t.id,
    display_name: t.display_name,
    template_type: t.template_type,
    teams: c.store.all<{ id: number; display_name: string }>(
      'SELECT t.id, t.display_name FROM template_teams tt JOIN teams t ON t.id = tt.team_id WHERE tt.template_id = ? ORDER BY t.id',
      t.id,
    ),
  }));
  return list(c, data);
}

function listAssessments(c: Call): Reply {
  const data: Assessment[] = ASSESSMENTS.map((a) => ({ object: 'assessment', id: a.id, display_name: a.display_name, short_name: a.short_name }));
  return list(c, data);
}

function listScoreProfiles(c: Call): Reply {
  const data: ScoreProfile[] = enabledProfiles(c).map((p) => ({
    object: 'score_profile',
    id: p.id,
    display_name: p.display_name,
    short_name: p.short_name,
    riasec_profile: p.riasec_profile,
  }));
  return list(c, data);
}

// ------------------------------------------------------------------ list filters

interface Filters {
  teamId?: number;
  custom_id?: string;
  email?: string;
  cap: number;
}

/** team_id, custom_id, email of GET /invitations and /test-takers, with the reference's rules. */
function listFilters(c: Call): Filters {
  const custom = c.query.get('custom_id') ?? undefined;
  const email = c.query.get('email') ?? undefined;
  const team = c.query.get('team_id');
  if (custom !== undefined && custom.length > 50) fail('custom_id: Custom ID must be at most 50 characters');
  if (email !== undefined && email.length > 255) fail('email: Email must be at most 255 characters');
  const f: Filters = { custom_id: custom || undefined, email: email || undefined, cap: 50 };
  if (team !== null) {
    const id = intId(team.trim());
    if (id === null || !teamOfAccount(c, id)) fail(MSG.teamNotFound);
    f.teamId = id;
  }
  // team_id alone does not raise the cap.
  if (f.custom_id || f.email) f.cap = 150;
  return f;
}

function likeArg(s: string): string {
  return `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function whereOf(alias: string, f: Filters): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (f.teamId !== undefined) {
    parts.push(`${alias}.team_id = ?`);
    args.push(f.teamId);
  }
  if (f.custom_id) {
    parts.push(`${alias}.custom_id LIKE ? ESCAPE '\\'`);
    args.push(likeArg(f.custom_id));
  }
  if (f.email) {
    parts.push(`${alias}.email LIKE ? ESCAPE '\\'`);
    args.push(likeArg(f.email));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), args };
}

function listInvitations(c: Call): Reply {
  const f = listFilters(c);
  if (c.auth.mode === 'test') {
    const team = f.teamId !== undefined ? teamOfAccount(c, f.teamId) : undefined;
    return list(c, [F.fakeInvitationListItem(fakeCtx(c, team), f)]);
  }
  const w = whereOf('i', f);
  return c.store.read(() => {
    const total = c.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM invitations i WHERE i.account_id = ?${w.sql}`, c.auth.accountId, ...w.args)!.n;
    const rows = c.store.all<InvitationListRow>(
      `SELECT i.*, t.display_name AS team_name, a.display_name AS account_name FROM invitations i
       JOIN teams t ON t.id = i.team_id JOIN accounts a ON a.id = i.account_id
       WHERE i.account_id = ?${w.sql} ORDER BY i.created_at DESC, i.id DESC LIMIT ?`,
      c.auth.accountId,
      ...w.args,
      f.cap,
    );
    return list(c, rows.map((r) => invitationListItem(r, c.origin)), total);
  });
}

function listTestTakers(c: Call): Reply {
  const f = listFilters(c);
  if (c.auth.mode === 'test') {
    const team = f.teamId !== undefined ? teamOfAccount(c, f.teamId) : undefined;
    const fake = F.fakeTestTakerListItem(fakeCtx(c, team), f);
    return list(c, [c.minimal ? minimalTestTakerListItem(fake) : fake]);
  }
  const w = whereOf('x', f);
  return c.store.read(() => {
    const total = c.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM test_takers x WHERE x.account_id = ?${w.sql}`, c.auth.accountId, ...w.args)!.n;
    const rows = c.store.all<TestTakerListRow>(
      `SELECT x.*, t.display_name AS team_name, a.display_name AS account_name FROM test_takers x
       JOIN teams t ON t.id = x.team_id JOIN accounts a ON a.id = x.account_id
       WHERE x.account_id = ?${w.sql} ORDER BY x.created_at DESC, x.id DESC LIMIT ?`,
      c.auth.accountId,
      ...w.args,
      f.cap,
    );
    return list(c, rows.map((r) => (c.minimal ? minimalTestTakerListItem(testTakerListItem(r)) : testTakerListItem(r))), total);
  });
}

// ------------------------------------------------------------------ invitations

function findInvitation(c: Call, idText: string): InvitationRow {
  const id = intId(idText);
  const row = id === null ? undefined : c.store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ? AND account_id = ?', id, c.auth.accountId);
  if (!row) fail(MSG.invitationNotFound);
  return row;
}

function getInvitation(c: Call): Reply {
  // Test keys: a fake for any id (reference); an id that is not a number gets a stable made-up one.
  if (c.auth.mode === 'test') return json(200, F.fakeInvitation(fakeCtx(c), intId(c.params[0]) ?? F.fakeId(c.params[0])));
  return json(200, invitationObject(c.store, findInvitation(c, c.params[0]), 'live', c.origin));
}

function insertAssessments(store: Store, invitationId: number, testIds: number[]): void {
  if (testIds.length === 0) return;
  const values = testIds.map(() => '(?, ?, ?)').join(', ');
  store.run(`INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES ${values}`, ...testIds.flatMap((t, pos) => [invitationId, t, pos]));
}

type Requests = typeof import('../api/requests.js');
let requestsModule: Promise<Requests> | undefined;
/** The request schemas (zod, libphonenumber): loaded on the first write. */
function requests(): Promise<Requests> {
  requestsModule ??= import('../api/requests.js');
  return requestsModule;
}

function userByEmail(c: Call, email: string): UserRow | undefined {
  const lc = email.trim().toLowerCase();
  return ref(c, `user:${c.auth.accountId}:${lc}`, () => c.store.get<UserRow>('SELECT * FROM users WHERE account_id = ? AND email_lc = ?', c.auth.accountId, lc));
}

function templateOfAccount(c: Call, id: number, type: 'invitation' | 'congrats'): boolean {
  return ref(c, `template:${c.auth.accountId}:${id}:${type}`, () =>
    c.store.get<{ id: number }>('SELECT id FROM templates WHERE id = ? AND account_id = ? AND template_type = ?', id, c.auth.accountId, type) ? true : undefined,
  ) === true;
}

function checkTestIds(r: Requests, ids: number[]): void {
  for (const id of ids) if (!ASSESSMENTS.some((a) => a.id === id)) fail(MSG.unknownAssessment(id));
  const rule = r.assessmentRule(ids);
  if (rule) fail(rule);
}

/**
 * The duplicate rules: an invitation or test taker with this email on the
 * same team, then an invitation (or test taker) on another team of the
 * account. `except` is the invitation being updated.
 */
function checkDuplicates(c: Call, teamId: number, email: string, except: { invitationId: number; testTakerId: number | null } | null = null): void {
  const lc = email.toLowerCase();
  // One statement: the team of a matching test taker and of a matching invitation, the same team first.
  const d = c.store.get<{ tt: number | null; inv: number | null }>(
    `SELECT
       (SELECT team_id FROM test_takers WHERE account_id = @account AND email_lc = @email AND id <> @tt ORDER BY (team_id = @team) DESC LIMIT 1) AS tt,
       (SELECT team_id FROM invitations WHERE account_id = @account AND email_lc = @email AND id <> @inv ORDER BY (team_id = @team) DESC LIMIT 1) AS inv`,
    { account: c.auth.accountId, email: lc, tt: except?.testTakerId ?? -1, inv: except?.invitationId ?? -1, team: teamId },
  )!;
  if (d.tt === teamId) fail(MSG.duplicateTestTakerSameTeam(email));
  if (d.inv === teamId) fail(MSG.duplicateInvitationSameTeam(email));
  if (d.inv !== null || d.tt !== null) fail(MSG.duplicateOtherTeam(email));
}

interface ResolvedCreate {
  first_name: string;
  last_name: string;
  email: string;
  inviter: UserRow;
  teamId: number;
  testIds: number[];
  sendViaEmail: boolean;
  sendViaSms: boolean;
  phone: string | null;
  templateId: number | null;
  customId: string | null;
  personId: string | null;
  refText: string | null;
}

/** Every rule of POST /invitations, in order (docs/stub.md); live and test keys alike. */
async function resolveCreate(c: Call): Promise<ResolvedCreate> {
  const raw = await c.body();
  const r = await requests();
  const parsed = r.CreateInvitationBody.safeParse(raw);
  if (!parsed.success) fail(r.validationError(parsed.error, raw));
  const b = parsed.data;
  const inviter = userByEmail(c, b.created_by_user_email);
  if (!inviter) fail(MSG.userNotFound(b.created_by_user_email));

  let teamId: number;
  if (b.team_id !== undefined) {
    if (!teamOfAccount(c, b.team_id)) fail(MSG.teamNotFound);
    teamId = b.team_id;
  } else {
    if (inviter.default_team_id === null || !teamOfAccount(c, inviter.default_team_id)) fail(MSG.noDefaultTeam(inviter.email));
    teamId = inviter.default_team_id;
  }
  let testIds: number[];
  if (b.assessments_to_assign !== undefined) testIds = [...new Set(b.assessments_to_assign.map((a) => a.test_id))];
  else {
    testIds = JSON.parse(inviter.default_test_ids) as number[];
    if (testIds.length === 0) fail(MSG.noDefaultAssessments(inviter.email));
  }
  const sendViaEmail = b.send_via_email ?? true;
  const sendViaSms = b.send_via_sms ?? false;
  // Rule 1: an omitted template comes from the inviter, whatever send_via_email;
  // rule 2: only sending by email needs one.
  const templateId: number | null = b.email_template_id ?? inviter.default_invitation_template_id;
  if (sendViaEmail && templateId === null) fail(MSG.noDefaultTemplate(inviter.email));
  checkTestIds(r, testIds);
  const phone = b.phone ?? null;
  const sms = r.smsRule(sendViaSms, phone);
  if (sms) fail(sms);
  if (b.email_template_id !== undefined && !templateOfAccount(c, b.email_template_id, 'invitation')) fail(MSG.templateNotFound);
  // Live: checked inside the write transaction (createInvitation), where it cannot race.
  if (c.auth.mode === 'test') checkDuplicates(c, teamId, b.email);
  return {
    first_name: b.first_name,
    last_name: b.last_name,
    email: b.email,
    inviter,
    teamId,
    testIds,
    sendViaEmail,
    sendViaSms,
    phone,
    templateId,
    customId: b.custom_id ?? null,
    personId: b.person_id ?? null,
    refText: b.ref_text ?? null,
  };
}

async function createInvitation(c: Call): Promise<Reply> {
  const v = await resolveCreate(c);
  const congratsId = v.inviter.default_congrats_template_id;
  const sendCongrats = congratsId !== null && v.inviter.send_congrats_notification === 1;
  if (c.auth.mode === 'test') {
    const team = teamOfAccount(c, v.teamId)!;
    const ctx = fakeCtx(c, team);
    const id = F.fakeId(`post:${v.email}:${ctx.now}`);
    const fake = F.fakeInvitation(ctx, id, {
      invited_by_user: { id: v.inviter.id, first_name: v.inviter.first_name, last_name: v.inviter.last_name, email: v.inviter.email },
      first_name: v.first_name,
      last_name: v.last_name,
      email: v.email,
      send_via_email: v.sendViaEmail,
      phone: v.phone,
      send_via_sms: v.sendViaSms,
      custom_id: v.customId,
      person_id: v.personId,
      invitation_email_template: templateRef(c.store, v.templateId),
      ref_text: v.refText,
      congrats_email_template: templateRef(c.store, congratsId),
      send_congrats_notification: sendCongrats,
      invitation_assessments: v.testIds.map(assessmentRef),
    });
    return json(201, fake);
  }
  // Group commit: the requests of one event-loop turn share a transaction;
  // this one is answered after that commit (src/stub/group-commit.ts).
  const row = await groupCommitOf(c.store).submit<InvitationRow>({
    // Inside the write lock, after the writes of the requests before it: two
    // requests for one email must not both pass.
    check: () => checkDuplicates(c, v.teamId, v.email),
    apply: () => {
      const token = newToken();
      const createdAt = nowIso();
      const r = c.store.run(
        `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
          send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
          send_congrats_notification, target_score_profile_id, token, test_taker_id)
         VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL)`,
        c.auth.accountId, v.teamId, v.inviter.id, createdAt, v.first_name, v.last_name, v.email, v.email.toLowerCase(),
        v.sendViaEmail ? 1 : 0, v.phone, v.sendViaSms ? 1 : 0, v.customId, v.personId, v.templateId, v.refText, congratsId,
        sendCongrats ? 1 : 0, token,
      );
      const id = Number(r.lastInsertRowid);
      insertAssessments(c.store, id, v.testIds);
      // The row as stored, built here rather than read back (one statement less per request).
      const inv: InvitationRow = {
        id,
        account_id: c.auth.accountId,
        team_id: v.teamId,
        invited_by_user_id: v.inviter.id,
        created_at: createdAt,
        accepted_at: null,
        first_name: v.first_name,
        last_name: v.last_name,
        email: v.email,
        send_via_email: v.sendViaEmail ? 1 : 0,
        phone: v.phone,
        send_via_sms: v.sendViaSms ? 1 : 0,
        custom_id: v.customId,
        person_id: v.personId,
        invitation_template_id: v.templateId,
        ref_text: v.refText,
        congrats_template_id: congratsId,
        send_congrats_notification: sendCongrats ? 1 : 0,
        target_score_profile_id: null,
        token,
        test_taker_id: null,
        status_callback_url: null,
      };
      recordDelivery(c, inv);
      return inv;
    },
  });
  return json(201, invitationObject(c.store, row, 'live', c.origin, v.testIds));
}

/** The email and/or SMS the service sends for a new invitation, per its flags. */
function recordDelivery(c: Call, inv: InvitationRow): void {
  const link = assessmentUrl(c.origin, inv.token);
  const template = templateRef(c.store, inv.invitation_template_id);
  if (inv.send_via_email === 1) {
    recordOutbox(c.store, {
      account_id: inv.account_id,
      channel: 'email',
      kind: 'invitation',
      recipient: inv.email,
      subject: `${inv.first_name}, you are invited to take an assessment`,
      body: `Template: ${template?.display_name ?? '(none)'}. Hello ${inv.first_name} ${inv.last_name}, start here: ${link}${inv.ref_text ? ` (ref: ${inv.ref_text})` : ''}`,
      template_id: inv.invitation_template_id,
      invitation_id: inv.id,
      test_taker_id: null,
    });
  }
  if (inv.send_via_sms === 1 && inv.phone) {
    recordOutbox(c.store, {
      account_id: inv.account_id,
      channel: 'sms',
      kind: 'invitation',
      recipient: inv.phone,
      subject: null,
      body: `${inv.first_name}, you are invited to take an assessment: ${link}`,
      template_id: null,
      invitation_id: inv.id,
      test_taker_id: null,
    });
  }
}

async function updateInvitation(c: Call): Promise<Reply> {
  const live = c.auth.mode === 'live';
  let existing: InvitationRow | undefined;
  if (live) existing = findInvitation(c, c.params[0]);
  const raw = await c.body();
  const r = await requests();
  const parsed = r.UpdateInvitationBody.safeParse(raw);
  if (!parsed.success) fail(r.validationError(parsed.error, raw));
  const b = parsed.data;

  if (b.assessments_to_assign !== undefined) {
    if (existing?.accepted_at) fail(MSG.assessmentsLocked);
    checkTestIds(r, [...new Set(b.assessments_to_assign.map((a) => a.test_id))]);
  }
  if (b.send_via_sms !== undefined || b.phone !== undefined) {
    const sms = b.send_via_sms ?? existing?.send_via_sms === 1;
    const phone = b.phone !== undefined ? b.phone : (existing?.phone ?? null);
    const rule = r.smsRule(sms, phone);
    if (rule) fail(rule);
  }
  if (b.email_template_id !== undefined && !templateOfAccount(c, b.email_template_id, 'invitation')) fail(MSG.templateNotFound);
  if (b.congrats_email_template_id !== undefined && !templateOfAccount(c, b.congrats_email_template_id, 'congrats')) fail(MSG.congratsTemplateNotFound);

  if (!existing) {
    const id = intId(c.params[0]) ?? F.fakeId(c.params[0]);
    const ctx = fakeCtx(c);
    const fields: Partial<Invitation> = {};
    for (const k of ['first_name', 'last_name', 'email', 'phone', 'custom_id', 'person_id', 'ref_text', 'send_via_email', 'send_via_sms', 'send_congrats_notification'] as const) {
      if (b[k] !== undefined) (fields as Record<string, unknown>)[k] = b[k];
    }
    if (b.email_template_id !== undefined) fields.invitation_email_template = templateRef(c.store, b.email_template_id);
    if (b.congrats_email_template_id !== undefined) fields.congrats_email_template = templateRef(c.store, b.congrats_email_template_id);
    if (b.assessments_to_assign !== undefined) fields.invitation_assessments = [...new Set(b.assessments_to_assign.map((a) => a.test_id))].map(assessmentRef);
    return json(200, F.fakeInvitation(ctx, id, fields));
  }

  const inv = existing;
  const row = c.store.write(() => {
    if (b.email !== undefined && b.email.toLowerCase() !== inv.email.toLowerCase()) {
      checkDuplicates(c, inv.team_id, b.email, { invitationId: inv.id, testTakerId: inv.test_taker_id });
    }
    const sets: string[] = [];
    const args: unknown[] = [];
    const set = (col: string, value: unknown) => {
      sets.push(`${col} = ?`);
      args.push(value);
    };
    if (b.first_name !== undefined) set('first_name', b.first_name);
    if (b.last_name !== undefined) set('last_name', b.last_name);
    if (b.email !== undefined) {
      set('email', b.email);
      set('email_lc', b.email.toLowerCase());
    }
    if (b.phone !== undefined) set('phone', b.phone);
    if (b.custom_id !== undefined) set('custom_id', b.custom_id);
    if (b.person_id !== undefined) set('person_id', b.person_id);
    if (b.ref_text !== undefined) set('ref_text', b.ref_text);
    if (b.send_via_email !== undefined) set('send_via_email', b.send_via_email ? 1 : 0);
    if (b.send_via_sms !== undefined) set('send_via_sms', b.send_via_sms ? 1 : 0);
    if (b.email_template_id !== undefined) set('invitation_template_id', b.email_template_id);
    if (b.send_congrats_notification !== undefined) set('send_congrats_notification', b.send_congrats_notification ? 1 : 0);
    if (b.congrats_email_template_id !== undefined) set('congrats_template_id', b.congrats_email_template_id);
    if (sets.length > 0) c.store.run(`UPDATE invitations SET ${sets.join(', ')} WHERE id = ?`, ...args, inv.id);
    if (b.assessments_to_assign !== undefined) {
      c.store.run('DELETE FROM invitation_assessments WHERE invitation_id = ?', inv.id);
      for (const [pos, t] of [...new Set(b.assessments_to_assign.map((a) => a.test_id))].entries()) {
        c.store.run('INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)', inv.id, t, pos);
      }
    }
    // The participant's own details follow onto the test taker, who is the same person.
    if (inv.test_taker_id !== null) {
      const tsets: string[] = [];
      const targs: unknown[] = [];
      const tset = (col: string, value: unknown) => {
        tsets.push(`${col} = ?`);
        targs.push(value);
      };
      if (b.first_name !== undefined) tset('first_name', b.first_name);
      if (b.last_name !== undefined) tset('last_name', b.last_name);
      if (b.email !== undefined) {
        tset('email', b.email);
        tset('email_lc', b.email.toLowerCase());
      }
      if (b.phone !== undefined) tset('phone', b.phone);
      if (b.custom_id !== undefined) tset('custom_id', b.custom_id);
      if (b.person_id !== undefined) tset('person_id', b.person_id);
      if (tsets.length > 0) c.store.run(`UPDATE test_takers SET ${tsets.join(', ')} WHERE id = ?`, ...targs, inv.test_taker_id);
    }
    return c.store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', inv.id)!;
  });
  return json(200, invitationObject(c.store, row, 'live', c.origin));
}

// ------------------------------------------------------------------ test takers and results

function findTestTaker(c: Call, idText: string): TestTakerRow {
  const id = intId(idText);
  const row = id === null ? undefined : c.store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ? AND account_id = ?', id, c.auth.accountId);
  if (!row) fail(MSG.testTakerNotFound);
  return row;
}

/** Test keys: the fake test taker's id, for any id in the path. */
function testIdParam(c: Call): number {
  return intId(c.params[0]) ?? F.fakeId(c.params[0]);
}

function getTestTaker(c: Call): Reply {
  if (c.auth.mode === 'test') return json(200, F.fakeTestTaker(fakeCtx(c), testIdParam(c)));
  return json(200, testTakerObject(c.store, findTestTaker(c, c.params[0]), 'live', c.origin));
}

function subjectOf(c: Call, tt: TestTakerRow): ResultSubject {
  const inv = c.store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', tt.invitation_id)!;
  const urls = resultUrls(c.store, c.origin, inv.token, tt.id);
  return {
    test_taker_id: tt.id,
    invitation_id: tt.invitation_id,
    custom_id: tt.custom_id,
    person_id: tt.person_id,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    first_name: tt.first_name,
    last_name: tt.last_name,
    email: tt.email,
    phone: inv.phone,
    assessment_url: assessmentUrl(c.origin, inv.token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: teamRef(c.store, tt.team_id),
    account: accountRef(c.store, tt.account_id),
    seed: scoreSeed(tt.account_id, tt.id),
    completed: completedTests(c.store, tt.id),
  };
}

function getScorecard(c: Call): Reply {
  const subject = c.auth.mode === 'test' ? F.fakeResultSubject(fakeCtx(c), testIdParam(c)) : subjectOf(c, findTestTaker(c, c.params[0]));
  const sp = c.query.get('sp');
  if (sp === null || sp.trim() === '') fail(MSG.spRequired);
  const profile = enabledProfiles(c).find((p) => p.short_name === sp);
  if (!profile) fail(MSG.spInvalid(sp));
  return json(200, scorecardObject(subject, profile, c.auth.mode));
}

function getJobFitReport(c: Call): Reply {
  const subject = c.auth.mode === 'test' ? F.fakeResultSubject(fakeCtx(c), testIdParam(c)) : subjectOf(c, findTestTaker(c, c.params[0]));
  const report = jobFitReportObject(subject, c.auth.mode);
  if (!report) fail(MSG.jobFitNotReady);
  return json(200, report);
}

// ------------------------------------------------------------------ career navigation profiles

function listProfiles(c: Call): Reply {
  if (c.auth.mode === 'test') {
    const fake = F.fakeProfileListItem(fakeCtx(c));
    return list(c, [c.minimal ? minimalProfileListItem(fake) : fake]);
  }
  return c.store.read(() => {
    const total = c.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM career_navigation_profiles WHERE account_id = ?', c.auth.accountId)!.n;
    const rows = c.store.all<ProfileListRow>(
      `SELECT p.*, t.custom_id, t.person_id FROM career_navigation_profiles p JOIN test_takers t ON t.id = p.test_taker_id
       WHERE p.account_id = ? ORDER BY p.created_at DESC, p.seq DESC LIMIT 50`,
      c.auth.accountId,
    );
    return list(c, rows.map((r) => (c.minimal ? minimalProfileListItem(profileListItem(r, c.origin)) : profileListItem(r, c.origin))), total);
  });
}

function getProfile(c: Call): Reply {
  const id = c.params[0];
  if (c.auth.mode === 'test') return json(200, F.fakeProfile(fakeCtx(c), id));
  const p = c.store.get<ProfileRow>('SELECT * FROM career_navigation_profiles WHERE id = ? AND account_id = ?', id, c.auth.accountId);
  // The one "not found" that is a 404, with a literal null body (reference).
  if (!p) return json(404, null);
  return json(200, profileObject(c.store, p, 'live', c.origin));
}

