/**
 * Writes docs/openapi.json from src/api, with examples that are answers of
 * the stub on its seed data. Run: npm run openapi
 *
 * CASES is the list of documented answers: every route's success, and every
 * error the reference (or docs/stub.md) gives for it, each with the request
 * that produces it. The contract test (test/api/openapi.test.ts) sends the
 * same requests to a fresh stub, renders the document again and compares it
 * with the committed file, and validates every answer against the document.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ExampleCase, renderOpenApi } from '../src/api/openapi.js';
import type { RouteName } from '../src/api/routes.js';
import { type RunningStub, startStubServer } from '../src/stub/index.js';

export const DOC_URL = new URL('../docs/openapi.json', import.meta.url);

/** Seed users (src/stub/seed.json), by what their defaults are good for. */
const DANA = 'dana.whitfield@northwind-talent.example'; // every default
const MARCO = 'marco.bellini@northwind-talent.example'; // Prescreen, no invitation template
const INGRID = 'ingrid.halvorsen@northwind-talent.example'; // no defaults

export interface Request {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** undefined: account 1's live key; null: no Authorization header. */
  key?: string | null;
  body?: unknown;
  /** A body sent as is (not JSON-encoded). */
  raw?: string;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

export interface Case {
  operationId: RouteName;
  status: number;
  name: string;
  summary: string;
  request: Request;
  /** Shorten a long list for the document (the test validates the whole answer). */
  shorten?: number;
}

/** Ids and values of the seed that the cases need, found through the API itself. */
export interface SeedPicks {
  live: string;
  test: string;
  /** A live key whose account no longer exists (added for the 404 example). */
  orphan: string;
  pending: { id: number; email: string; teamId: number };
  /** A pending invitation without a phone, which the PUT examples change. */
  pendingNoPhone: number;
  accepted: { invitationId: number; email: string; teamId: number };
  /** A test taker who completed Personality and Career Interests. */
  complete: { id: number; email: string; profileId: string };
  /** A test taker whose job fit report is not ready. */
  notReady: number;
  sp: string;
  otherAccountInvitation: number;
  customId: string;
}

export async function send(stub: Pick<RunningStub, 'url' | 'keys'>, r: Request): Promise<Answer> {
  const headers: Record<string, string> = {};
  const key = r.key === undefined ? stub.keys[0].live_key : r.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const body = r.raw ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(stub.url + r.path, { method: r.method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, body: parsed };
}

export async function pickSeed(stub: RunningStub): Promise<SeedPicks> {
  const [a1, a2] = stub.keys;
  const get = async <T>(path: string, key = a1.live_key): Promise<T> => {
    const r = await send(stub, { method: 'GET', path, key });
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
    return r.body as T;
  };
  type Item = { id: number; email: string; accepted_at: string | null; test_taker_id: number | null; custom_id: string | null; team: { id: number } };
  type Inv = { phone: string | null };
  type TT = { id: number; invitation_id: number; career_navigation_profile_id: string | null; assigned_assessments: Array<{ completed_at: string | null; assessment: { id: number } }> };
  const items = (await get<{ data: Item[] }>('/invitations')).data;
  const pendings = items.filter((i) => i.accepted_at === null);
  const pending = pendings[0];
  let pendingNoPhone: number | undefined;
  for (const p of pendings.slice(1)) {
    if ((await get<Inv>(`/invitations/${p.id}`)).phone === null) {
      pendingNoPhone = p.id;
      break;
    }
  }
  const acceptedItems = items.filter((i) => i.test_taker_id !== null);
  const done = (t: TT, testId: number) => t.assigned_assessments.some((a) => a.assessment.id === testId && a.completed_at !== null);
  let complete: SeedPicks['complete'] | undefined;
  let notReady: number | undefined;
  for (const i of acceptedItems) {
    const t = await get<TT>(`/test-takers/${i.test_taker_id}`);
    const ready = done(t, 6) && done(t, 8);
    if (ready && !complete && t.career_navigation_profile_id) complete = { id: t.id, email: i.email, profileId: t.career_navigation_profile_id };
    if (!ready && notReady === undefined) notReady = t.id;
    if (complete && notReady !== undefined) break;
  }
  const accepted = acceptedItems.find((i) => i.test_taker_id !== complete?.id) ?? acceptedItems[0];
  const sp = (await get<{ data: Array<{ short_name: string }> }>('/score-profiles')).data[0].short_name;
  const other = (await get<{ data: Array<{ id: number }> }>('/invitations', a2.live_key)).data[0];
  const customId = items.find((i) => i.custom_id !== null)?.custom_id;
  if (!pending || pendingNoPhone === undefined || !accepted || !complete || notReady === undefined || !other || !customId) {
    throw new Error('the seed lacks a case the OpenAPI examples need (pending, accepted, complete and not-ready invitations)');
  }
  // A key of an account that is gone: the only way to that 404 (reference, Authentication 4).
  const orphan = `sk_live_${'f'.repeat(32)}`;
  stub.store.run("INSERT OR IGNORE INTO api_keys (key, account_id, mode) VALUES (?, 999999, 'live')", orphan);
  return {
    live: a1.live_key,
    test: a1.test_key,
    orphan,
    pending: { id: pending.id, email: pending.email, teamId: pending.team.id },
    pendingNoPhone,
    accepted: { invitationId: accepted.id, email: accepted.email, teamId: accepted.team.id },
    complete,
    notReady,
    sp,
    otherAccountInvitation: other.id,
    customId,
  };
}

const NEW = { first_name: 'Avery', last_name: 'Lindqvist', email: 'avery.lindqvist@example.com', created_by_user_email: DANA };
const otherTeam = (teamId: number) => (teamId === 11 ? 12 : 11);

/** The documented answers, in the order they are sent (the writes last). */
export function cases(s: SeedPicks): Case[] {
  const c: Case[] = [];
  const add = (operationId: RouteName, status: number, name: string, summary: string, request: Request, shorten?: number) =>
    c.push({ operationId, status, name, summary, request, shorten });
  const post = (body: unknown): Request => ({ method: 'POST', path: '/invitations', body });
  const put = (id: number, body: unknown): Request => ({ method: 'PUT', path: `/invitations/${id}`, body });
  const tt = `/test-takers/${s.complete.id}`;

  add('healthcheck', 200, 'ok', 'The service is up (no key needed)', { method: 'GET', path: '/healthcheck', key: null });
  add('getAccount', 200, 'live', 'The account of a live key', { method: 'GET', path: '/accounts' });
  add('getAccount', 200, 'test', 'The same account with its test key (test mode)', { method: 'GET', path: '/accounts', key: s.test });
  add('listUsers', 200, 'users', 'Users of the account with their inviter defaults', { method: 'GET', path: '/users' });
  add('listTeams', 200, 'teams', 'Teams of the account', { method: 'GET', path: '/teams' });
  add('listEmailTemplates', 200, 'templates', 'Email templates and the teams they are assigned to', { method: 'GET', path: '/email-templates' });
  add('listAssessments', 200, 'assessments', 'The assessment catalog', { method: 'GET', path: '/assessments' });
  add('listScoreProfiles', 200, 'profiles', 'Score profiles enabled for the account', { method: 'GET', path: '/score-profiles' });

  add('listInvitations', 200, 'by_custom_id', 'Invitations whose custom_id contains the filter', { method: 'GET', path: `/invitations?custom_id=${encodeURIComponent(s.customId)}` });
  add('listInvitations', 400, 'team_not_found', 'team_id is not a team of the account', { method: 'GET', path: '/invitations?team_id=999' });
  add('listInvitations', 400, 'custom_id_too_long', 'custom_id longer than 50 characters', { method: 'GET', path: `/invitations?custom_id=${'x'.repeat(51)}` });
  add('listInvitations', 400, 'email_too_long', 'email longer than 255 characters', { method: 'GET', path: `/invitations?email=${'x'.repeat(256)}` });
  add('getInvitation', 200, 'accepted', 'An accepted invitation', { method: 'GET', path: `/invitations/${s.accepted.invitationId}` });
  add('getInvitation', 200, 'pending', 'An invitation not accepted yet', { method: 'GET', path: `/invitations/${s.pending.id}` });
  add('getInvitation', 400, 'not_found', 'No such invitation in the account (also an id of another account)', { method: 'GET', path: `/invitations/${s.otherAccountInvitation}` });

  add('listTestTakers', 200, 'by_email', 'Test takers whose email contains the filter', { method: 'GET', path: `/test-takers?email=${encodeURIComponent(s.complete.email)}` });
  add('listTestTakers', 400, 'team_not_found', 'team_id is not a team of the account', { method: 'GET', path: '/test-takers?team_id=999' });
  add('getTestTaker', 200, 'complete', 'A test taker who completed the assigned assessments', { method: 'GET', path: tt });
  add('getTestTaker', 400, 'not_found', 'No such test taker in the account', { method: 'GET', path: '/test-takers/999999999' });
  add('getScorecard', 200, 'scorecard', `Scorecard for sp=${s.sp}`, { method: 'GET', path: `${tt}/scorecard?sp=${s.sp}` });
  add('getScorecard', 400, 'sp_required', 'sp is missing', { method: 'GET', path: `${tt}/scorecard` });
  add('getScorecard', 400, 'sp_invalid', 'sp is not a score profile enabled for the account', { method: 'GET', path: `${tt}/scorecard?sp=nope` });
  add('getScorecard', 400, 'not_found', 'No such test taker in the account', { method: 'GET', path: `/test-takers/999999999/scorecard?sp=${s.sp}` });
  add('getJobFitReport', 200, 'report', 'Job fit report', { method: 'GET', path: `${tt}/job-fit-report` });
  add('getJobFitReport', 400, 'not_ready', 'Personality or Career Interests not complete yet', { method: 'GET', path: `/test-takers/${s.notReady}/job-fit-report` });
  add('getJobFitReport', 400, 'not_found', 'No such test taker in the account', { method: 'GET', path: '/test-takers/999999999/job-fit-report' });
  add('listCareerNavigationProfiles', 200, 'profiles', 'Career navigation profiles (the first 2 items shown here)', { method: 'GET', path: '/career-navigation-profiles' }, 2);
  add('getCareerNavigationProfile', 200, 'profile', 'A career navigation profile', { method: 'GET', path: `/career-navigation-profiles/${s.complete.profileId}` });
  add('getCareerNavigationProfile', 404, 'not_found', 'No such profile in the account: the body is null', { method: 'GET', path: '/career-navigation-profiles/cnp_doesnotexist' });

  add('createInvitation', 400, 'first_name_required', 'first_name missing or empty', post({ ...NEW, first_name: '' }));
  add('createInvitation', 400, 'invalid_email', 'The participant email is missing or not an email address (reported as sent_to_email)', post({ ...NEW, email: 'not-an-email' }));
  add('createInvitation', 400, 'type_errors', 'Values of the wrong JSON type: every problem, as an array', post({ ...NEW, team_id: 'eleven', send_via_email: 'yes' }));
  add('createInvitation', 400, 'custom_id_too_long', 'custom_id longer than 50 characters', post({ ...NEW, custom_id: 'x'.repeat(51) }));
  add('createInvitation', 400, 'ref_text_too_long', 'ref_text longer than 60 characters', post({ ...NEW, ref_text: 'x'.repeat(61) }));
  add('createInvitation', 400, 'no_assessments', 'assessments_to_assign is empty', post({ ...NEW, assessments_to_assign: [] }));
  add('createInvitation', 400, 'user_not_found', 'created_by_user_email is not a user of the account', post({ ...NEW, created_by_user_email: 'nobody@northwind-talent.example' }));
  add('createInvitation', 400, 'no_default_team', 'No team_id and the inviter has no default team', post({ ...NEW, created_by_user_email: INGRID }));
  add('createInvitation', 400, 'no_default_assessments', 'No assessments_to_assign and the inviter has no default assessments', post({ ...NEW, created_by_user_email: INGRID, team_id: 14 }));
  add('createInvitation', 400, 'no_default_template', 'Sending by email, no email_template_id and the inviter has no default template', post({ ...NEW, created_by_user_email: MARCO }));
  add('createInvitation', 400, 'team_not_found', 'team_id is not a team of the account', post({ ...NEW, team_id: 999 }));
  add('createInvitation', 400, 'template_not_found', 'email_template_id is not an invitation template of the account', post({ ...NEW, email_template_id: 999 }));
  add('createInvitation', 400, 'unknown_assessment', 'A test_id that is not in the catalog', post({ ...NEW, assessments_to_assign: [{ test_id: 5 }] }));
  add('createInvitation', 400, 'prescreen_combined', 'Prescreen (1) with Personality, Thinking or Interests (6, 7, 8)', post({ ...NEW, assessments_to_assign: [{ test_id: 1 }, { test_id: 6 }] }));
  add('createInvitation', 400, 'sms_needs_phone', 'send_via_sms without a phone', post({ ...NEW, send_via_sms: true }));
  add('createInvitation', 400, 'duplicate_invitation', 'The team already has an invitation with this email', post({ ...NEW, email: s.pending.email, team_id: s.pending.teamId }));
  add('createInvitation', 400, 'duplicate_test_taker', 'The team already has a test taker with this email', post({ ...NEW, email: s.accepted.email, team_id: s.accepted.teamId }));
  add('createInvitation', 400, 'duplicate_other_team', 'Another team of the account already has this email', post({ ...NEW, email: s.pending.email, team_id: otherTeam(s.pending.teamId) }));
  add('createInvitation', 400, 'invalid_json', 'The body is not JSON', { method: 'POST', path: '/invitations', raw: '{nope' });
  add('createInvitation', 400, 'not_an_object', 'The body is JSON but not an object', { method: 'POST', path: '/invitations', raw: '[1]' });

  add('updateInvitation', 400, 'not_found', 'No such invitation in the account', put(999999999, { first_name: 'X' }));
  add('updateInvitation', 400, 'first_name_required', 'first_name given empty', put(s.pendingNoPhone, { first_name: '' }));
  add('updateInvitation', 400, 'type_errors', 'Values of the wrong JSON type: every problem, as an array', put(s.pendingNoPhone, { send_via_sms: 'yes', email_template_id: 'x' }));
  add('updateInvitation', 400, 'custom_id_too_long', 'custom_id longer than 50 characters', put(s.pendingNoPhone, { custom_id: 'x'.repeat(51) }));
  add('updateInvitation', 400, 'sms_needs_phone', 'send_via_sms on an invitation without a phone', put(s.pendingNoPhone, { send_via_sms: true }));
  add('updateInvitation', 400, 'prescreen_combined', 'Prescreen (1) with other assessments', put(s.pendingNoPhone, { assessments_to_assign: [{ test_id: 1 }, { test_id: 8 }] }));
  add('updateInvitation', 400, 'template_not_found', 'email_template_id is not an invitation template of the account', put(s.pendingNoPhone, { email_template_id: 304 }));
  add('updateInvitation', 400, 'congrats_template_not_found', 'congrats_email_template_id is not a congratulations template of the account', put(s.pendingNoPhone, { congrats_email_template_id: 301 }));
  add('updateInvitation', 400, 'assessments_locked', 'assessments_to_assign once the invitation was accepted', put(s.accepted.invitationId, { assessments_to_assign: [{ test_id: 6 }] }));
  add('updateInvitation', 200, 'updated', 'Only the given fields change', put(s.pendingNoPhone, { custom_id: 'REQ-2026-0999', phone: '+1 202 555 0144', send_via_sms: true }));
  add('createInvitation', 201, 'defaults', "The four required fields; team, assessments and template from the inviter's defaults", post(NEW));

  // The key errors of every keyed route (reference, Authentication 4).
  for (const route of new Set(c.filter((x) => x.operationId !== 'healthcheck').map((x) => x.operationId))) {
    const sample = c.find((x) => x.operationId === route && x.status < 300)!.request;
    add(route, 404, 'no_key', 'No Authorization header, or a key the service does not know', { ...sample, key: null });
    add(route, 404, 'account_gone', 'A key whose account no longer exists', { ...sample, key: s.orphan });
  }
  return c;
}

/**
 * The parts of an answer that differ from one fresh stub to the next (random
 * tokens in URLs and profile ids, the time of a write or of the healthcheck),
 * replaced by stable placeholders so that the document is the same every run.
 */
export function stabilizer(since: number, until = Date.now()) {
  const seen = new Map<string, string>();
  const stable = (kind: 'token' | 'cnp', raw: string) => {
    let v = seen.get(raw);
    if (v === undefined) {
      const n = String(seen.size + 1);
      v = kind === 'token' ? `exampletoken${n.padStart(12, '0')}` : `cnp_example${n.padStart(9, '0')}`;
      seen.set(raw, v);
    }
    return v;
  };
  const fix = (s: string): string => {
    // A time of this run (not of the seed, whatever the machine's clock says).
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(s) && Date.parse(s) >= since - 1000 && Date.parse(s) <= until + 1000) return '2026-11-20T09:30:00.000Z';
    return s.replace(/\/(take|results)\/([A-Za-z0-9_-]{24})(?=\/|$)/g, (_, p: string, t: string) => `/${p}/${stable('token', t)}`).replace(/cnp_[A-Za-z0-9]{20}/g, (m) => stable('cnp', m));
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fix(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk;
}

/** Sends every case to the stub, in order; the answers line up with the cases. */
export async function runCases(stub: RunningStub): Promise<Array<{ case: Case; answer: Answer }>> {
  const picks = await pickSeed(stub);
  const out: Array<{ case: Case; answer: Answer }> = [];
  for (const c of cases(picks)) out.push({ case: c, answer: await send(stub, c.request) });
  return out;
}

export function toExamples(results: Array<{ case: Case; answer: Answer }>, since: number): ExampleCase[] {
  const stabilize = stabilizer(since);
  return results.map(({ case: c, answer }) => {
    if (answer.status !== c.status) {
      throw new Error(`${c.request.method} ${c.request.path} (${c.operationId}/${c.name}): expected ${c.status}, the stub answered ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    let value = answer.body;
    if (c.shorten && value && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data)) {
      value = { ...value, data: (value as { data: unknown[] }).data.slice(0, c.shorten) };
    }
    return { operationId: c.operationId, status: c.status, name: c.name, summary: c.summary, value: stabilize(value) };
  });
}

/** A throw-away stub on the seed, whose URLs use the default origin (http://127.0.0.1:4010). */
export async function withSeededStub<T>(fn: (stub: RunningStub) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'jobfit-openapi-'));
  const stub = await startStubServer({ dataDir, port: 0, host: '127.0.0.1', publishOrigin: false });
  try {
    return await fn(stub);
  } finally {
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The document `npm run openapi` writes today. */
export async function generate(): Promise<string> {
  const since = Date.now();
  return withSeededStub(async (stub) => renderOpenApi(toExamples(await runCases(stub), since)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(DOC_URL, await generate());
  console.log('wrote docs/openapi.json');
}
