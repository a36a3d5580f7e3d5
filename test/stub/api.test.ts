import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { ROUTES } from '../../src/api/routes.js';
import * as S from '../../src/api/schemas.js';
import { shapeKeys } from '../../src/api/schemas.js';
import { accept, complete } from '../../src/stub/lifecycle.js';
import { DANA, INGRID, MARCO, RUTH, type TestStub, TOMAS, freshEmail, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

const invite = (body: Record<string, unknown>, key?: string) => stub.call('POST', '/invitations', { body, key });
const base = () => ({ first_name: 'Ana', last_name: 'Lopez', email: freshEmail(), created_by_user_email: DANA });

/** Checks that `value` has exactly the keys of the schema, recursively through nested objects and arrays. */
function expectShape(schema: any, value: any, path = '$'): void {
  let s = schema;
  for (;;) {
    const t = s?._zod?.def?.type;
    if (t === 'nullable' || t === 'optional') {
      if (value === null || value === undefined) return;
      s = s._zod.def.innerType;
    } else if (t === 'pipe') s = s._zod.def.in;
    else break;
  }
  const type = s?._zod?.def?.type;
  if (type === 'object') {
    expect(value, path).toBeTypeOf('object');
    const keys = shapeKeys(s);
    const optional = keys.filter((k) => s.shape[k]._zod.def.type === 'optional');
    const present = Object.keys(value);
    for (const k of present) expect(keys, `${path}: unexpected field ${k}`).toContain(k);
    for (const k of keys) if (!optional.includes(k)) expect(present, `${path}: missing field ${k}`).toContain(k);
    for (const k of present) expectShape(s.shape[k], value[k], `${path}.${k}`);
  } else if (type === 'array') {
    expect(Array.isArray(value), path).toBe(true);
    for (const [i, v] of value.entries()) expectShape(s._zod.def.element, v, `${path}[${i}]`);
  }
  const parsed = schema.safeParse(value);
  expect(parsed.success, `${path}: ${parsed.error?.message}`).toBe(true);
}

describe('healthcheck, authentication, routing', () => {
  it('healthcheck needs no key', async () => {
    const r = await stub.call('GET', '/healthcheck', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.version).toBe('v2');
    expect(Object.keys(r.body).sort()).toEqual(['status', 'timestamp', 'version']);
  });

  it('missing, malformed and unknown keys answer 404 with the reference bodies', async () => {
    const missing = await stub.call('GET', '/teams', { key: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: MSG.apiKeyRequired });
    const malformed = await stub.call('GET', '/teams', { key: 'nope' });
    expect(malformed.status).toBe(404);
    expect(malformed.body).toEqual({ error: MSG.apiKeyRequired });
    // A key the service does not know is an invalid key, whatever its form (reference, Authentication 4).
    const unknown = await stub.call('GET', '/teams', { key: `sk_live_${'0'.repeat(32)}` });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: MSG.apiKeyRequired });
    // The key error comes before any route-specific check.
    const beforeValidation = await stub.call('POST', '/invitations', { key: null, body: {} });
    expect(beforeValidation.body).toEqual({ error: MSG.apiKeyRequired });
  });

  it('answers 405 with plain text for methods a route does not support', async () => {
    for (const [method, path] of [['DELETE', '/invitations/1'], ['POST', '/teams'], ['PUT', '/test-takers'], ['PATCH', '/invitations'], ['POST', '/healthcheck']]) {
      const r = await stub.call(method, path, {});
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(r.text).toBe(MSG.methodNotAllowed);
    }
  });

  it('serves every route of the contract', async () => {
    for (const route of Object.values(ROUTES)) {
      const path = route.path.replace(':invitationId', '1').replace(':testTakerId', '1').replace(':careerNavigationProfileId', 'x');
      const r = await stub.call(route.method, path, { body: route.method === 'GET' ? undefined : {} });
      expect([200, 201, 400, 404], `${route.method} ${path}`).toContain(r.status);
      expect(r.status === 404 && r.body?.error === MSG.notFound, `${route.method} ${path} is not routed`).toBe(false);
    }
  });

  it('every keyed JSON response carries mode', async () => {
    for (const path of ['/accounts', '/users', '/teams', '/email-templates', '/assessments', '/score-profiles', '/invitations', '/test-takers', '/career-navigation-profiles']) {
      expect((await stub.call('GET', path)).body.mode, path).toBe('live');
      expect((await stub.call('GET', path, { key: stub.test })).body.mode, path).toBe('test');
    }
  });
});

describe('reads', () => {
  it('GET /accounts, /users, /teams, /email-templates, /assessments, /score-profiles have the contract shapes', async () => {
    expectShape(S.Account, (await stub.call('GET', '/accounts')).body);
    expectShape(S.UserList, (await stub.call('GET', '/users')).body);
    const teams = (await stub.call('GET', '/teams')).body;
    expectShape(S.TeamList, teams);
    expect(teams.total_count).toBe(4);
    expect(teams.data.map((t: any) => t.id)).toEqual([11, 12, 13, 14]);
    expect(teams.data[0].invitations_count).toBeGreaterThan(0);
    expectShape(S.EmailTemplateList, (await stub.call('GET', '/email-templates')).body);
    const assessments = (await stub.call('GET', '/assessments')).body;
    expectShape(S.AssessmentList, assessments);
    expect(assessments.data.map((a: any) => a.id)).toEqual([1, 6, 7, 8]);
    const sp = (await stub.call('GET', '/score-profiles', { key: stub.live2 })).body;
    expectShape(S.ScoreProfileList, sp);
    // Only the profiles enabled for account 2.
    expect(sp.data.map((p: any) => p.short_name).sort()).toEqual(['customer-service', 'registered-nurse', 'teacher', 'warehouse-associate']);
  });

  it('lists invitations newest first with total_count, has_more and the cap of 50', async () => {
    const r = await stub.call('GET', '/invitations');
    expectShape(S.InvitationList, r.body);
    expect(r.body.data).toHaveLength(50);
    expect(r.body.total_count).toBeGreaterThan(50);
    expect(r.body.has_more).toBe(true);
    const keys = r.body.data.map((i: any) => `${i.created_at}|${String(i.id).padStart(10, '0')}`);
    expect([...keys].sort().reverse()).toEqual(keys);
  });

  it('team_id alone keeps the cap at 50; custom_id/email raise it to 150', async () => {
    await stub.store.seedPeople(1, 14, 200, { mix: { pending: 1, accepted: 0, partial: 0, complete: 0 } });
    const team = await stub.call('GET', '/invitations?team_id=14');
    expect(team.body.data).toHaveLength(50);
    expect(team.body.total_count).toBeGreaterThanOrEqual(200);
    expect(team.body.data.every((i: any) => i.team.id === 14)).toBe(true);
    const byEmail = await stub.call('GET', '/invitations?team_id=14&email=.');
    expect(byEmail.body.data).toHaveLength(150);
    expect(byEmail.body.has_more).toBe(true);
    const tt = await stub.call('GET', '/test-takers?email=%40');
    expect(tt.body.data.length).toBe(Math.min(150, tt.body.total_count));
    expect((await stub.call('GET', '/test-takers')).body.data).toHaveLength(50);
  });

  it('filters are partial and case-insensitive, and combine', async () => {
    const email = freshEmail('FilterMe');
    const created = await invite({ ...base(), email, custom_id: 'REQ-Filter-42', team_id: 12 });
    expect(created.status).toBe(201);
    const byCustom = await stub.call('GET', '/invitations?custom_id=req-filter');
    expect(byCustom.body.data.map((i: any) => i.id)).toContain(created.body.id);
    expect(byCustom.body.data.every((i: any) => /req-filter/i.test(i.custom_id))).toBe(true);
    const byEmail = await stub.call('GET', `/invitations?email=${encodeURIComponent(email.slice(0, 12).toLowerCase())}`);
    expect(byEmail.body.total_count).toBe(1);
    const otherTeam = await stub.call('GET', '/invitations?custom_id=req-filter&team_id=11');
    expect(otherTeam.body.data.map((i: any) => i.id)).not.toContain(created.body.id);
    // LIKE wildcards in the filter are literal.
    expect((await stub.call('GET', '/invitations?custom_id=%25')).body.total_count).toBe(0);
  });

  it('rejects bad filters: unknown team, another account\'s team, too-long values', async () => {
    for (const q of ['team_id=999', 'team_id=21', 'team_id=abc']) {
      const r = await stub.call('GET', `/invitations?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body).toEqual({ error: MSG.teamNotFound });
      expect((await stub.call('GET', `/test-takers?${q}`)).body).toEqual({ error: MSG.teamNotFound });
    }
    expect((await stub.call('GET', `/invitations?custom_id=${'x'.repeat(51)}`)).status).toBe(400);
    expect((await stub.call('GET', `/test-takers?email=${'x'.repeat(256)}`)).status).toBe(400);
    expect((await stub.call('GET', `/invitations?custom_id=${'x'.repeat(50)}`)).status).toBe(200);
  });

  it('lists test takers and career navigation profiles with their item shapes', async () => {
    expectShape(S.TestTakerList, (await stub.call('GET', '/test-takers')).body);
    const profiles = (await stub.call('GET', '/career-navigation-profiles')).body;
    expectShape(S.CareerNavigationProfileList, profiles);
    expect(profiles.total_count).toBeGreaterThan(0);
  });
});

describe('POST /invitations', () => {
  it('creates with inviter defaults and answers 201 with exactly the invitation fields', async () => {
    const body = { ...base(), phone: '(415) 555-2671', custom_id: 'C-1', person_id: 'P-1', ref_text: 'ref' };
    const r = await invite(body);
    expect(r.status).toBe(201);
    expectShape(S.Invitation, r.body);
    const inv = r.body;
    expect(inv.mode).toBe('live');
    expect(inv.phone).toBe('+14155552671');
    expect(inv.team).toEqual({ id: 11, display_name: 'Head Office Recruiting' });
    expect(inv.invitation_assessments.map((a: any) => a.id)).toEqual([6, 7, 8]);
    expect(inv.invitation_email_template.id).toBe(301);
    expect(inv.congrats_email_template.id).toBe(304);
    expect(inv.send_congrats_notification).toBe(true);
    expect(inv.invited_by_user.email).toBe(DANA);
    expect(inv.accepted_at).toBeNull();
    expect(inv.test_taker_id).toBeNull();
    expect(inv.career_navigation_profile_id).toBeNull();
    expect(inv.scorecard_url).toBeNull();
    expect(inv.assessment_url).toMatch(new RegExp(`^${stub.origin}/take/[A-Za-z0-9_-]{20,}$`));
    const again = await stub.call('GET', `/invitations/${inv.id}`);
    expect(again.body).toEqual(inv);
  });

  it('applies the rules in order with the reference messages', async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ ...base(), first_name: '' }, 'first_name: First name is required'],
      [{ ...base(), email: 'not-an-email' }, 'sent_to_email: Invalid email address'],
      [{ ...base(), created_by_user_email: 'nobody@example.com' }, MSG.userNotFound('nobody@example.com')],
      [{ ...base(), created_by_user_email: RUTH }, MSG.userNotFound(RUTH)],
      [{ ...base(), team_id: 999 }, MSG.teamNotFound],
      [{ ...base(), team_id: 21 }, MSG.teamNotFound],
      [{ ...base(), created_by_user_email: INGRID }, MSG.noDefaultTeam(INGRID)],
      [{ ...base(), created_by_user_email: INGRID, team_id: 14 }, MSG.noDefaultAssessments(INGRID)],
      [{ ...base(), created_by_user_email: MARCO }, MSG.noDefaultTemplate(MARCO)],
      [{ ...base(), assessments_to_assign: [{ test_id: 1 }, { test_id: 6 }] }, MSG.prescreenCombined],
      [{ ...base(), send_via_sms: true }, MSG.smsNeedsPhone],
      [{ ...base(), email_template_id: 401 }, MSG.templateNotFound],
      [{ ...base(), custom_id: 'x'.repeat(51) }, /^custom_id: /],
      [{ ...base(), ref_text: 'x'.repeat(61) }, /^ref_text: /],
      [{ ...base(), assessments_to_assign: [] }, /^assessments_to_assign: /],
    ];
    for (const [body, message] of cases) {
      const r = await invite(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      if (typeof message === 'string') expect(r.body).toEqual({ error: message });
      else expect(r.body.error).toMatch(message);
    }
  });

  it('uses the array form of error for JSON type errors', async () => {
    const r = await invite({ ...base(), team_id: 'eleven', send_via_email: 'yes' });
    expect(r.status).toBe(400);
    expect(Array.isArray(r.body.error)).toBe(true);
    expect(r.body.error.every((e: unknown) => typeof e === 'string' && /^[a-z_.0-9]+: /.test(e))).toBe(true);
  });

  it('rejects bodies that are not JSON objects', async () => {
    expect((await stub.call('POST', '/invitations', { raw: '{nope' })).body).toEqual({ error: MSG.invalidJson });
    expect((await stub.call('POST', '/invitations', { raw: '[1]' })).body).toEqual({ error: MSG.bodyNotObject });
  });

  it('inviter defaults make the four required fields enough; send_via_email=false needs no template', async () => {
    const r = await invite({ ...base(), created_by_user_email: MARCO, send_via_email: false });
    expect(r.status).toBe(201);
    expect(r.body.team.id).toBe(12);
    expect(r.body.invitation_assessments.map((a: any) => a.id)).toEqual([1]);
    expect(r.body.invitation_email_template).toBeNull();
    const withTemplate = await invite({ ...base(), created_by_user_email: TOMAS, email_template_id: 301, team_id: 14 });
    expect(withTemplate.status).toBe(201);
    expect(withTemplate.body.invitation_email_template.id).toBe(301);
  });

  it('refuses duplicates on the same team and on another team, case-insensitively', async () => {
    const email = freshEmail('Dup');
    expect((await invite({ ...base(), email, team_id: 12 })).status).toBe(201);
    expect((await invite({ ...base(), email: email.toUpperCase(), team_id: 12 })).body).toEqual({ error: MSG.duplicateInvitationSameTeam(email.toUpperCase()) });
    expect((await invite({ ...base(), email, team_id: 13 })).body).toEqual({ error: MSG.duplicateOtherTeam(email) });
    // Account 2 is another account: the same email is fine there.
    expect((await invite({ ...base(), email, created_by_user_email: RUTH }, stub.live2)).status).toBe(201);
  });

  it('says "test taker" once the invitation on the same team was accepted', async () => {
    const email = freshEmail('Taker');
    const r = await invite({ ...base(), email, team_id: 12 });
    accept(stub.store, r.body.id);
    expect((await invite({ ...base(), email, team_id: 12 })).body).toEqual({ error: MSG.duplicateTestTakerSameTeam(email) });
  });

  it('records the invitation email and SMS in the outbox per the flags', async () => {
    const email = freshEmail('Outbox');
    const r = await invite({ ...base(), email, phone: '+44 7400 123456', send_via_sms: true });
    const rows = stub.store.all<{ channel: string; recipient: string }>('SELECT channel, recipient FROM outbox WHERE invitation_id = ? ORDER BY id', r.body.id);
    expect(rows).toEqual([
      { channel: 'email', recipient: email },
      { channel: 'sms', recipient: '+447400123456' },
    ]);
    const none = await invite({ ...base(), send_via_email: false });
    expect(stub.store.all('SELECT id FROM outbox WHERE invitation_id = ?', none.body.id)).toHaveLength(0);
  });
});

describe('GET and PUT /invitations/:id', () => {
  it('400 for unknown ids, malformed ids and ids of another account', async () => {
    const other = stub.store.get<{ id: number }>('SELECT id FROM invitations WHERE account_id = 2 LIMIT 1')!.id;
    for (const id of ['999999999', 'abc', String(other)]) {
      const r = await stub.call('GET', `/invitations/${id}`);
      expect(r.status, id).toBe(400);
      expect(r.body).toEqual({ error: MSG.invitationNotFound });
      expect((await stub.call('PUT', `/invitations/${id}`, { body: { first_name: 'X' } })).body).toEqual({ error: MSG.invitationNotFound });
    }
  });

  it('changes only the given fields', async () => {
    const created = (await invite({ ...base(), custom_id: 'before', phone: '2025550143' })).body;
    const r = await stub.call('PUT', `/invitations/${created.id}`, { body: { custom_id: 'after', phone: '+1 202 555 0144', send_congrats_notification: false } });
    expect(r.status).toBe(200);
    expectShape(S.Invitation, r.body);
    expect(r.body.custom_id).toBe('after');
    expect(r.body.phone).toBe('+12025550144');
    expect(r.body.send_congrats_notification).toBe(false);
    const { custom_id: _a, phone: _b, send_congrats_notification: _c, ...rest } = r.body;
    const { custom_id: _d, phone: _e, send_congrats_notification: _f, ...before } = created;
    expect(rest).toEqual(before);
  });

  it('applies the update rules', async () => {
    const created = (await invite(base())).body;
    const put = (body: unknown) => stub.call('PUT', `/invitations/${created.id}`, { body });
    expect((await put({ send_via_sms: true })).body).toEqual({ error: MSG.smsNeedsPhone });
    expect((await put({ assessments_to_assign: [{ test_id: 1 }, { test_id: 8 }] })).body).toEqual({ error: MSG.prescreenCombined });
    expect((await put({ email_template_id: 304 })).body).toEqual({ error: MSG.templateNotFound });
    expect((await put({ congrats_email_template_id: 301 })).body).toEqual({ error: MSG.congratsTemplateNotFound });
    expect((await put({ custom_id: 'x'.repeat(51) })).status).toBe(400);
    const ok = await put({ assessments_to_assign: [{ test_id: 7 }] });
    expect(ok.body.invitation_assessments.map((a: any) => a.id)).toEqual([7]);
    accept(stub.store, created.id);
    expect((await put({ assessments_to_assign: [{ test_id: 6 }] })).body).toEqual({ error: MSG.assessmentsLocked });
    // Other fields stay updatable after acceptance.
    expect((await put({ first_name: 'Renamed' })).body.first_name).toBe('Renamed');
  });
});

describe('test takers, scorecard, job-fit report, profiles', () => {
  let invitationId: number;
  let testTakerId: number;
  beforeAll(async () => {
    invitationId = (await invite({ ...base(), custom_id: 'results', person_id: 'PR-1', phone: '+12025550199' })).body.id;
    testTakerId = accept(stub.store, invitationId).testTakerId;
  });

  it('test taker object before and after completing', async () => {
    const r = await stub.call('GET', `/test-takers/${testTakerId}`);
    expectShape(S.TestTaker, r.body);
    expect(r.body.invitation_id).toBe(invitationId);
    expect(r.body.person_id).toBe('PR-1');
    expect(r.body.phone).toBe('+12025550199');
    expect(r.body.assigned_assessments.map((a: any) => [a.assessment.id, a.completed_at, a.language])).toEqual([
      [6, null, null],
      [7, null, null],
      [8, null, null],
    ]);
    expect(r.body.scorecard_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/results\//);
    expect(r.body.career_navigation_profile_id).toBeNull();
  });

  it('job-fit report is 400 until Personality and Interests are complete', async () => {
    const r = await stub.call('GET', `/test-takers/${testTakerId}/job-fit-report`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: MSG.jobFitNotReady });
  });

  it('scorecard needs an enabled sp', async () => {
    expect((await stub.call('GET', `/test-takers/${testTakerId}/scorecard`)).body).toEqual({ error: MSG.spRequired });
    expect((await stub.call('GET', `/test-takers/${testTakerId}/scorecard?sp=nope`)).body).toEqual({ error: MSG.spInvalid('nope') });
    const r = await stub.call('GET', `/test-takers/${testTakerId}/scorecard?sp=sales-rep`);
    expect(r.status).toBe(200);
    expectShape(S.Scorecard, r.body);
    expect(r.body.scores.personality_traits).toBeNull();
    expect(r.body.fitscore_raw).toBeNull();
    // An sp that exists but is not enabled for account 2.
    const tt2 = stub.store.get<{ id: number }>('SELECT id FROM test_takers WHERE account_id = 2 LIMIT 1')!.id;
    expect((await stub.call('GET', `/test-takers/${tt2}/scorecard?sp=sales-rep`, { key: stub.live2 })).body).toEqual({ error: MSG.spInvalid('sales-rep') });
  });

  it('after completion: scores, report, profile and URLs', async () => {
    complete(stub.store, testTakerId, { assessment: 'all', language: 'es' });
    const tt = (await stub.call('GET', `/test-takers/${testTakerId}`)).body;
    expect(tt.assigned_assessments.every((a: any) => a.completed_at && a.language === 'es')).toBe(true);
    expect(tt.career_navigation_profile_id).toMatch(/^cnp_/);
    expect(tt.job_fit_summary_url).not.toBeNull();
    const sc = (await stub.call('GET', `/test-takers/${testTakerId}/scorecard?sp=software-engineer`)).body;
    expectShape(S.Scorecard, sc);
    expect(sc.fitscore_raw).toBeTypeOf('number');
    expect(Math.round(sc.fitscore_raw * 1000) / 1000).toBe(sc.fitscore_raw);
    expect(sc.riasec_profile).toMatch(/^[RIASEC]{3}$/);
    expect(sc.phone).toBe('+12025550199');
    const overall = sc.scores.career_interests.find((d: any) => d.short_name === 'ci-overall');
    expect(overall.test_taker_score).toBe(overall.facets[0].test_taker_score + overall.facets[1].test_taker_score);
    const report = await stub.call('GET', `/test-takers/${testTakerId}/job-fit-report`);
    expect(report.status).toBe(200);
    expectShape(S.JobFitReport, report.body);
    expect(report.body.top_fit_occupations).toHaveLength(15);
    expect(report.body.career_interests_profile).toHaveLength(3);
    expect(report.body.personality_traits_profile).toHaveLength(5);
    const inv = (await stub.call('GET', `/invitations/${invitationId}`)).body;
    expect(inv.career_navigation_profile_id).toBe(tt.career_navigation_profile_id);
    expect(inv.career_navigation_url).toBe(tt.career_navigation_url);
    const profile = await stub.call('GET', `/career-navigation-profiles/${tt.career_navigation_profile_id}`);
    expect(profile.status).toBe(200);
    expectShape(S.CareerNavigationProfile, profile.body);
    expect(profile.body.test_taker_id).toBe(testTakerId);
    expect(Object.keys(profile.body.exercises).sort()).toEqual(['strengthsCareerInterests', 'targetJobName']);
  });

  it('profile not found: 404 with a literal null body (also for another account\'s profile)', async () => {
    const r = await stub.call('GET', '/career-navigation-profiles/cnp_doesnotexist');
    expect(r.status).toBe(404);
    expect(r.text).toBe('null');
    const other = stub.store.get<{ id: string }>('SELECT id FROM career_navigation_profiles WHERE account_id = 2 LIMIT 1')!.id;
    const iso = await stub.call('GET', `/career-navigation-profiles/${other}`);
    expect(iso.status).toBe(404);
    expect(iso.text).toBe('null');
  });

  it('isolates accounts: account 2 ids from account 1 key are 400', async () => {
    const tt2 = stub.store.get<{ id: number }>('SELECT id FROM test_takers WHERE account_id = 2 LIMIT 1')!.id;
    for (const p of [`/test-takers/${tt2}`, `/test-takers/${tt2}/scorecard?sp=teacher`, `/test-takers/${tt2}/job-fit-report`]) {
      const r = await stub.call('GET', p);
      expect(r.status, p).toBe(400);
      expect(r.body).toEqual({ error: MSG.testTakerNotFound });
    }
    const list = (await stub.call('GET', '/test-takers?email=%40', { key: stub.live2 })).body;
    expect(list.data.every((t: any) => t.account.id === 2)).toBe(true);
  });
});

describe('the shape checker itself', () => {
  it('fails on an extra or a missing field, also nested', () => {
    const team = { id: 1, display_name: 'x' };
    expect(() => expectShape(S.TeamRef, { ...team, extra: 1 })).toThrow();
    expect(() => expectShape(S.TeamRef, { id: 1 })).toThrow();
    expect(() => expectShape(S.TeamList, { mode: 'live', object: 'list', total_count: 1, has_more: false, data: [{ ...team, object: 'team_list_item', users_count: 0, invitations_count: 0, test_takers_count: 0, more: 1 }] })).toThrow();
  });
});
