import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import * as S from '../../src/api/schemas.js';
import { DANA, INGRID, type TestStub, freshEmail, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

const count = (table: string) => stub.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)!.n;
const snapshot = () => ['invitations', 'test_takers', 'outbox', 'events'].map(count);

describe('test keys', () => {
  it('every fake route answers a well-formed object with mode test', async () => {
    const routes: Array<[string, any]> = [
      ['/accounts', S.Account],
      ['/users', S.UserList],
      ['/teams', S.TeamList],
      ['/email-templates', S.EmailTemplateList],
      ['/invitations', S.InvitationList],
      ['/invitations/12345', S.Invitation],
      ['/test-takers', S.TestTakerList],
      ['/test-takers/777', S.TestTaker],
      ['/test-takers/777/scorecard?sp=sales-rep', S.Scorecard],
      ['/test-takers/777/job-fit-report', S.JobFitReport],
      ['/career-navigation-profiles', S.CareerNavigationProfileList],
      ['/career-navigation-profiles/cnp_anything', S.CareerNavigationProfile],
      ['/score-profiles', S.ScoreProfileList],
      ['/assessments', S.AssessmentList],
    ];
    for (const [path, schema] of routes) {
      const r = await stub.call('GET', path, { key: stub.test });
      expect(r.status, path).toBe(200);
      expect(r.body.mode, path).toBe('test');
      const parsed = schema.strict ? schema.safeParse(r.body) : schema.safeParse(r.body);
      expect(parsed.success, `${path}: ${parsed.error?.message}`).toBe(true);
    }
    expect((await stub.call('GET', '/invitations/12345', { key: stub.test })).body.id).toBe(12345);
    // "A fake invitation is returned for any id."
    const odd = await stub.call('GET', '/invitations/not-a-number', { key: stub.test });
    expect(odd.status).toBe(200);
    expect(Number.isInteger(odd.body.id)).toBe(true);
  });

  it('GET /assessments is the real catalog', async () => {
    const live = (await stub.call('GET', '/assessments')).body;
    const test = (await stub.call('GET', '/assessments', { key: stub.test })).body;
    expect(test.data).toEqual(live.data);
    expect(test.mode).toBe('test');
  });

  it('never shows live participant data', async () => {
    const live = (await stub.call('GET', '/invitations')).body;
    const test = (await stub.call('GET', '/invitations', { key: stub.test })).body;
    const liveIds = new Set(live.data.map((i: any) => i.id));
    expect(test.data.some((i: any) => liveIds.has(i.id))).toBe(false);
    const realTT = stub.store.get<{ id: number }>('SELECT id FROM test_takers WHERE account_id = 1 LIMIT 1')!.id;
    const fake = (await stub.call('GET', `/test-takers/${realTT}`, { key: stub.test })).body;
    expect(fake.first_name).toBeUndefined();
    expect(fake.id).toBe(realTT);
  });

  it('POST validates like live, answers 201 with a fake built from the request, stores nothing', async () => {
    const before = snapshot();
    const email = freshEmail('TestKey');
    const r = await stub.call('POST', '/invitations', { key: stub.test, body: { first_name: 'Tess', last_name: 'Key', email, created_by_user_email: DANA, custom_id: 'tk', phone: '4155552671' } });
    expect(r.status).toBe(201);
    expect(S.Invitation.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({ mode: 'test', first_name: 'Tess', email, custom_id: 'tk', phone: '+14155552671', team: { id: 11 } });
    expect(r.body.invitation_email_template.id).toBe(301);
    // The same email again is fine: the first was not stored.
    expect((await stub.call('POST', '/invitations', { key: stub.test, body: { first_name: 'Tess', last_name: 'Key', email, created_by_user_email: DANA } })).status).toBe(201);
    expect(snapshot()).toEqual(before);
    // Validation and account lookups are live's.
    const bad = [
      [{ first_name: 'T', last_name: 'K', email, created_by_user_email: 'ghost@example.com' }, MSG.userNotFound('ghost@example.com')],
      [{ first_name: 'T', last_name: 'K', email, created_by_user_email: INGRID }, MSG.noDefaultTeam(INGRID)],
      [{ first_name: 'T', last_name: 'K', email, created_by_user_email: DANA, team_id: 21 }, MSG.teamNotFound],
      [{ first_name: 'T', last_name: 'K', email, created_by_user_email: DANA, send_via_sms: true }, MSG.smsNeedsPhone],
    ] as const;
    for (const [body, message] of bad) {
      const x = await stub.call('POST', '/invitations', { key: stub.test, body });
      expect(x.status).toBe(400);
      expect(x.body).toEqual({ error: message });
    }
    expect(snapshot()).toEqual(before);
  });

  it('PUT validates and answers a fake with the given fields, storing nothing', async () => {
    const real = stub.store.get<{ id: number; first_name: string }>('SELECT id, first_name FROM invitations WHERE account_id = 1 LIMIT 1')!;
    const r = await stub.call('PUT', `/invitations/${real.id}`, { key: stub.test, body: { first_name: 'Changed', custom_id: 'x1' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ mode: 'test', id: real.id, first_name: 'Changed', custom_id: 'x1' });
    expect(stub.store.get<{ first_name: string }>('SELECT first_name FROM invitations WHERE id = ?', real.id)!.first_name).toBe(real.first_name);
    expect((await stub.call('PUT', `/invitations/${real.id}`, { key: stub.test, body: { custom_id: 'y'.repeat(51) } })).status).toBe(400);
  });

  it('scorecard still needs a valid sp', async () => {
    expect((await stub.call('GET', '/test-takers/5/scorecard', { key: stub.test })).body).toEqual({ error: MSG.spRequired });
    expect((await stub.call('GET', '/test-takers/5/scorecard?sp=sales-rep', { key: stub.test2 })).body).toEqual({ error: MSG.spInvalid('sales-rep') });
  });
});
