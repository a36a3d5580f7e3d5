/**
 * The typed client: one method per route of the route table
 * (src/api/routes.ts), each a thin wrapper over callRoute(), which sends any
 * route of that shape: its method, path, key requirement and accept type,
 * and reads the answer as the table says (a JSON list or item, or bytes).
 *
 * Responses are returned as received (unknown fields and nulls pass through:
 * a newer server may add them). They are checked against the shared zod
 * schemas only when the verbose trace is on, because a mismatch is only ever
 * reported there; this keeps zod and the schemas out of a normal run's start-up.
 */
import type { CreateInvitationBody, ListQuery, UpdateInvitationBody } from '../api/requests.js';
import { isKeyless } from '../api/route-match.js';
import { type AnswerOf, fillPath, ROUTES, type RouteDef, type RouteName, type RouteResponse, type RouteTable } from '../api/routes.js';
import type { z } from 'zod';
import { readId } from '../api/ids.js';
import { ApiError, ProtocolError, UnknownOutcomeError } from './errors.js';
import type { HttpClient, HttpResponse, QueryValue } from './http.js';

export type ListFilter = { team_id?: number | string; custom_id?: string; email?: string } & Partial<Record<keyof ListQuery, unknown>>;

/** The values of a route's path params, by the names its line declares. */
export type ParamsOf<R extends RouteDef> = R extends { params: infer P } ? { [K in keyof P]: string | number } : Record<string, string | number>;

export interface CallOptions<P extends Record<string, string | number> = Record<string, string | number>> {
  params?: P;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Send it on a connection of its own, never one kept alive (http.ts). */
  fresh?: boolean;
}

export interface CreateInvitationResult {
  invitation: RouteResponse<'createInvitation'>;
  /** The first POST was lost and the invitation was found by its email instead of being sent twice. */
  recovered: boolean;
  /** POSTs sent (1 or 2). */
  sends: number;
}

export type ValidateMode = 'always' | 'verbose' | 'never';

/**
 * The account of an answer of GET /accounts, in either shape the reference
 * allows: the account object itself, or a list envelope holding it (the key
 * is linked to exactly one account). The envelope's `mode` is kept when the
 * item has none.
 */
export function accountOf<A>(answer: A): A {
  const a = answer as { object?: unknown; data?: unknown; mode?: unknown };
  if (a === null || typeof a !== 'object' || a.object !== 'list' || !Array.isArray(a.data)) return answer;
  const first = a.data[0] as Record<string, unknown> | undefined;
  if (first === null || typeof first !== 'object') {
    throw new ProtocolError('The service answered GET /accounts with a list that holds no account.');
  }
  return (first.mode === undefined && a.mode !== undefined ? { mode: a.mode, ...first } : first) as A;
}

/**
 * A confirmation of a 201's id before it is read back (bulk invite's batches):
 * true only when an answer of the service stated this id with this email;
 * false (or a throw) leaves it to the read-back.
 */
export type CreatedCheck = (id: number, email: string, signal?: AbortSignal) => Promise<boolean>;

/** Two emails the same mailbox: equal but for case and the spaces around (a service may fold more; we never do). */
const sameEmail = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** An id as the reference gives it (readId), or undefined for anything that is none (null, 0, "pending"). */
function idOrUndefined(v: unknown): number | undefined {
  try {
    return readId(v);
  } catch {
    return undefined;
  }
}

/** What an item answer names itself by: its `object` and the field that holds the id asked for. */
interface ItemIdentity {
  object: string;
  field: 'id' | 'test_taker_id';
}

/** A stranger's value for a message: short, and printable. */
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** How `answer` is another item than the one asked for ("test_taker_id 90007", "object \"list\""), or undefined when nothing says so. */
function otherItem(answer: unknown, is: ItemIdentity, wanted: number | string): string | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  const a = answer as Record<string, unknown>;
  if (typeof a.object === 'string' && a.object !== is.object) return `object ${shown(a.object)}`;
  const v = a[is.field];
  if ((typeof v === 'number' || typeof v === 'string') && String(v).trim() !== String(wanted).trim()) return `${is.field} ${shown(String(v))}`;
  return undefined;
}

function describeIssues(issues: z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  const more = issues.length > 3 ? ` and ${issues.length - 3} more` : '';
  return shown.join('; ') + more;
}

export class JobfitClient {
  readonly http: HttpClient;
  private readonly validate: ValidateMode;
  private schemas?: Promise<typeof import('../api/route-schemas.js')>;

  constructor(http: HttpClient, opts: { validate?: ValidateMode; verbose?: boolean } = {}) {
    this.http = http;
    this.validate = opts.validate ?? (opts.verbose ? 'always' : 'never');
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** Calls a route of the table by name; the answer is returned as received. */
  call<N extends RouteName>(name: N, opts: CallOptions<ParamsOf<RouteTable[N]>> = {}): Promise<RouteResponse<N>> {
    return this.callRoute(ROUTES[name], opts, name) as Promise<RouteResponse<N>>;
  }

  /**
   * Sends a route described as in the table (one of ROUTES, or a route the
   * table does not have yet): a JSON answer is returned as received, after
   * its shape is checked (a list envelope or an object); any other content
   * type comes back as its bytes.
   */
  async callRoute<R extends RouteDef>(route: R, opts: CallOptions<ParamsOf<R>> = {}, name = `${route.method} ${route.path}`): Promise<AnswerOf<R>> {
    const res = await this.http.request({
      method: route.method,
      path: fillPath(route.path, opts.params),
      query: opts.query,
      body: opts.body,
      auth: route.auth,
      signal: opts.signal,
      fresh: opts.fresh,
      accept: route.contentType,
      // Anything else (an HTML page, null, an array) fails here as one sentence, not later in a command.
      expect: route.response === undefined ? 'bytes' : route.kind === 'list' ? 'list' : 'object',
    });
    if (this.validate === 'always' && route.response !== undefined) await this.check(name, route, res);
    return res.data as AnswerOf<R>;
  }

  /** A raw request for `jobfit api`: non-2xx answers are returned, not thrown. */
  raw(method: string, path: string, opts: { query?: Record<string, QueryValue>; body?: unknown; signal?: AbortSignal } = {}): Promise<HttpResponse> {
    return this.http.request({ method, path, query: opts.query, body: opts.body, throwOnError: false, signal: opts.signal, auth: !isKeyless(path) });
  }

  /** Notes a schema mismatch in the trace; never throws (lenient by design). */
  private async check(name: string, route: RouteDef, res: HttpResponse): Promise<void> {
    try {
      this.schemas ??= import('../api/route-schemas.js');
      const schema = (await this.schemas).responseSchema(route);
      const result = schema?.safeParse(res.data);
      if (!result || result.success) return;
      // Fields a newer server added are expected, not a mismatch.
      const issues = result.error.issues.filter((i) => i.code !== 'unrecognized_keys');
      if (issues.length === 0) return;
      this.http.trace(`  ! the answer of ${name} differs from the reference (${describeIssues(issues)}); passing it through as received`);
    } catch (err) {
      this.http.trace(`  ! could not check the answer of ${name}: ${(err as Error).message}`);
    }
  }

  /**
   * An item asked for by its id, checked against the question (issue 43): an
   * answer that is another item (a broken proxy's stale answer on a reused
   * connection, another person's object, another route's answer) is asked
   * for once more on a fresh connection, and when that one is not it either,
   * the call fails with one sentence; it is never taken for the item asked
   * for. Another item: its id field names another id, or its `object` is
   * another kind. A field that is null or missing proves nothing either way
   * (a newer server may leave it out) and passes.
   */
  private async item<N extends RouteName>(name: N, opts: CallOptions<ParamsOf<RouteTable[N]>>, is: ItemIdentity, wanted: number | string): Promise<RouteResponse<N>> {
    const first = await this.call(name, opts);
    const wrong = otherItem(first, is, wanted);
    if (wrong === undefined) return first;
    const route = ROUTES[name];
    const what = `${route.method} ${fillPath(route.path, opts.params)}`;
    this.http.trace(`  ! ${what} answered with ${wrong}: asking again on a fresh connection`);
    const again = await this.call(name, { ...opts, fresh: true });
    const still = otherItem(again, is, wanted);
    if (still === undefined) return again;
    throw new ProtocolError(`The service answered ${what} with another item twice (${wrong}, then ${still}, the second time on a fresh connection); it was not taken for ${wanted}.`, {
      hint: 'a proxy or cache between jobfit and the service may be mixing up answers; try again, or without the proxy',
    });
  }

  healthcheck() {
    return this.call('healthcheck');
  }
  /** The key's account, whether the service answers the object or a list envelope holding it (accountOf). */
  async getAccount() {
    return accountOf(await this.call('getAccount'));
  }
  listUsers() {
    return this.call('listUsers');
  }
  listTeams() {
    return this.call('listTeams');
  }
  listEmailTemplates() {
    return this.call('listEmailTemplates');
  }
  listInvitations(filter: ListFilter = {}, signal?: AbortSignal) {
    return this.call('listInvitations', { query: filter as Record<string, QueryValue>, signal });
  }
  getInvitation(id: number | string, signal?: AbortSignal) {
    return this.item('getInvitation', { params: { invitationId: id }, signal }, { object: 'invitation', field: 'id' }, id);
  }
  updateInvitation(id: number | string, body: UpdateInvitationBody, signal?: AbortSignal) {
    return this.call('updateInvitation', { params: { invitationId: id }, body, signal });
  }
  listTestTakers(filter: ListFilter = {}, signal?: AbortSignal) {
    return this.call('listTestTakers', { query: filter as Record<string, QueryValue>, signal });
  }
  getTestTaker(id: number | string, signal?: AbortSignal) {
    return this.item('getTestTaker', { params: { testTakerId: id }, signal }, { object: 'test_taker', field: 'id' }, id);
  }
  getScorecard(id: number | string, sp: string, signal?: AbortSignal) {
    return this.item('getScorecard', { params: { testTakerId: id }, query: { sp }, signal }, { object: 'scorecard', field: 'test_taker_id' }, id);
  }
  getJobFitReport(id: number | string, signal?: AbortSignal) {
    return this.item('getJobFitReport', { params: { testTakerId: id }, signal }, { object: 'job_fit_report', field: 'test_taker_id' }, id);
  }
  listCareerNavigationProfiles() {
    return this.call('listCareerNavigationProfiles');
  }
  getCareerNavigationProfile(id: string, signal?: AbortSignal) {
    return this.item('getCareerNavigationProfile', { params: { careerNavigationProfileId: id }, signal }, { object: 'career_navigation_profile', field: 'id' }, id);
  }
  listAssessments() {
    return this.call('listAssessments');
  }
  listScoreProfiles() {
    return this.call('listScoreProfiles');
  }

  async createInvitation(body: CreateInvitationBody, signal?: AbortSignal): Promise<RouteResponse<'createInvitation'>> {
    return (await this.createInvitationDetailed(body, signal)).invitation;
  }

  /**
   * POST /invitations without ever creating two: when the connection is lost
   * after sending, the invitation is looked up by its email; only when it is
   * not there is the POST sent again, once.
   */
  async createInvitationDetailed(body: CreateInvitationBody, signal?: AbortSignal, confirmed?: CreatedCheck): Promise<CreateInvitationResult> {
    try {
      const invitation = await this.confirmCreated(await this.call('createInvitation', { body, signal }), body.email, signal, confirmed);
      return { invitation, recovered: false, sends: 1 };
    } catch (err) {
      if (!(err instanceof UnknownOutcomeError)) throw err;
      this.http.trace(`  outcome of POST /invitations unknown (${err.code}); looking the email up`);
    }
    const found = await this.findInvitationByEmail(body.email, signal);
    if (found) return { invitation: found, recovered: true, sends: 1 };

    this.http.trace('  no invitation with that email: sending once more');
    try {
      const invitation = await this.confirmCreated(await this.call('createInvitation', { body, signal }), body.email, signal, confirmed);
      return { invitation, recovered: false, sends: 2 };
    } catch (err) {
      if (!(err instanceof UnknownOutcomeError)) throw err;
      const again = await this.findInvitationByEmail(body.email, signal);
      if (again) return { invitation: again, recovered: true, sends: 2 };
      const last = (err.cause instanceof Error ? err.cause.message : err.message).replace(/\.$/, '');
      throw new UnknownOutcomeError(`Creating the invitation for ${body.email} failed twice with the outcome unknown, and no invitation with that email was found (last: ${last}).`, {
        url: err.url,
        code: err.code,
        cause: err,
        requestSent: true,
        hint: `check with \`jobfit invitations list --email ${body.email}\` before trying again`,
      });
    }
  }

  /**
   * The 201 of POST /invitations checked against the invitation it created
   * (issue 43): the invitation its id names must carry the email sent. An id
   * that is no id (null, 0, "pending"), or names another person's invitation,
   * is replaced by the one the email finds; when the email finds none yet,
   * the answer comes back with `id` null, for the caller to settle by email
   * later (bulk invite: "unknown", looked up again by --resume, never sent twice).
   * `confirmed` (bulk invite's batches, src/bulk/confirm-batch.ts) may
   * confirm the id first, from a list answer stating the same id with the
   * same email; when it does not, the id is read back as without it.
   */
  private async confirmCreated(invitation: RouteResponse<'createInvitation'>, email: string, signal?: AbortSignal, confirmed?: CreatedCheck): Promise<RouteResponse<'createInvitation'>> {
    const id = idOrUndefined((invitation as { id?: unknown } | null)?.id);
    if (id !== undefined) {
      if (confirmed && (await confirmed(id, email, signal).catch(() => false))) return invitation;
      const named = await this.getInvitation(id, signal).catch((err: unknown) => {
        // Not found, or an answer for someone else: the email decides below. Anything else (gone, Ctrl-C) ends the call.
        if (err instanceof ApiError || err instanceof ProtocolError) return undefined;
        throw err;
      });
      if (named && sameEmail(named.email, email)) return invitation;
      this.http.trace(`  ! the 201 named invitation ${id}, which is ${named ? 'for another email' : 'not found'}: looking the email up`);
    } else this.http.trace('  ! the 201 named no invitation id: looking the email up');
    const found = await this.findInvitationByEmail(email, signal);
    return found ?? ({ ...invitation, id: null } as unknown as RouteResponse<'createInvitation'>);
  }

  /** The invitation whose email is exactly this one (the filter itself is partial), fetched in full. */
  async findInvitationByEmail(email: string, signal?: AbortSignal): Promise<RouteResponse<'getInvitation'> | undefined> {
    const list = await this.listInvitations({ email: email.trim() }, signal);
    const items = Array.isArray(list?.data) ? list.data : [];
    const hit = items.find((i) => sameEmail(i?.email, email));
    if (!hit) return undefined;
    this.http.trace(`  found invitation ${hit.id} for that email: not sending again`);
    return this.getInvitation(hit.id, signal);
  }
}
