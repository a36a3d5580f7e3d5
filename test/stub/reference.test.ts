/**
 * The stub against the letter of the API reference, over real HTTP: the rules
 * where the stub used to differ, and reference rules no other stub test pins.
 */
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { accept, complete } from '../../src/stub/lifecycle.js';
import { DANA, MARCO, type TestStub, TOMAS, freshEmail, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

const invite = (body: Record<string, unknown>, key?: string) => stub.call('POST', '/invitations', { body, key });
const base = () => ({ first_name: 'Rea', last_name: 'Ference', email: freshEmail('ref'), created_by_user_email: DANA });

describe('authentication', () => {
  it('any key the service does not know is invalid: 404 API key is required', async () => {
    for (const key of [`sk_live_${'a'.repeat(32)}`, `sk_test_${'0'.repeat(32)}`, 'sk_live_doesnotexist', 'garbage']) {
      const r = await stub.call('GET', '/accounts', { key });
      expect(r.status, key).toBe(404);
      expect(r.body, key).toEqual({ error: MSG.apiKeyRequired });
    }
  });

  it('a known key whose account is gone: 404 Account not found for API key', async () => {
    const orphan = `sk_live_${'f'.repeat(32)}`;
    stub.store.run("INSERT INTO api_keys (key, account_id, mode) VALUES (?, 999, 'live')", orphan);
    const r = await stub.call('GET', '/invitations', { key: orphan });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: MSG.accountNotFound });
  });
});

describe('POST /invitations: defaults from the inviter', () => {
  it('an omitted email template comes from the inviter even with send_via_email false (rule 1)', async () => {
    const r = await invite({ ...base(), send_via_email: false });
    expect(r.status).toBe(201);
    expect(r.body.send_via_email).toBe(false);
    expect(r.body.invitation_email_template).toEqual({ id: 301, display_name: 'Standard invitation' });
    // No default and no email: no template needed, none set.
    const marco = await invite({ ...base(), created_by_user_email: MARCO, send_via_email: false });
    expect(marco.status).toBe(201);
    expect(marco.body.invitation_email_template).toBeNull();
    // Test keys follow the same rule.
    const fake = await invite({ ...base(), send_via_email: false }, stub.test);
    expect(fake.body.invitation_email_template).toEqual({ id: 301, display_name: 'Standard invitation' });
  });

  it('the congratulations template comes from the inviter and cannot be overridden on create (rule 3)', async () => {
    const r = await invite({ ...base(), congrats_email_template_id: 305, send_congrats_notification: false, default_scheduling_link: 'https://x.example/' });
    expect(r.status).toBe(201);
    expect(r.body.congrats_email_template).toEqual({ id: 304, display_name: 'Thank you for completing' });
    expect(r.body.send_congrats_notification).toBe(true);
    expect(r.body).not.toHaveProperty('default_scheduling_link');
    // An inviter without a default congrats template: none, whatever the body says.
    const t = await invite({ ...base(), created_by_user_email: TOMAS, congrats_email_template_id: 304 });
    expect(t.status).toBe(201);
    expect(t.body.congrats_email_template).toBeNull();
    expect(t.body.send_congrats_notification).toBe(false);
  });
});

describe('POST /invitations: participant field messages', () => {
  it('a missing, empty or malformed email is sent_to_email: Invalid email address, one message', async () => {
    const { email: _omit, ...noEmail } = base();
    for (const body of [noEmail, { ...base(), email: '' }, { ...base(), email: '  ' }, { ...base(), email: null }, { ...base(), email: 'a@b' }]) {
      const r = await invite(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body, JSON.stringify(body)).toEqual({ error: 'sent_to_email: Invalid email address' });
    }
    const { first_name: _f, ...noFirst } = base();
    expect((await invite(noFirst)).body).toEqual({ error: 'first_name: First name is required' });
    // A value of the wrong JSON type still gets the array form.
    const typed = await invite({ ...base(), email: 42 });
    expect(typed.body).toEqual({ error: ['sent_to_email: Invalid email address'] });
  });
});

describe('the invitation object through its life', () => {
  it('defaults on create: send_via_email true, send_via_sms false, optional fields null', async () => {
    const r = await invite(base());
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ send_via_email: true, send_via_sms: false, phone: null, custom_id: null, person_id: null, ref_text: null, target_score_profile: null });
    expect(r.body).toMatchObject({ accepted_at: null, test_taker_id: null, career_navigation_profile_id: null, scorecard_url: null, career_navigation_url: null });
  });

  it('scorecard_url after acceptance; career_navigation_url only once the profile exists', async () => {
    const id = (await invite(base())).body.id;
    const { testTakerId } = accept(stub.store, id);
    const accepted = (await stub.call('GET', `/invitations/${id}`)).body;
    expect(accepted.accepted_at).not.toBeNull();
    expect(accepted.test_taker_id).toBe(testTakerId);
    expect(accepted.scorecard_url).toMatch(/^http:/);
    expect(accepted.career_navigation_url).toBeNull();
    expect(accepted.career_navigation_profile_id).toBeNull();
    complete(stub.store, testTakerId, { assessment: 'personality' });
    expect((await stub.call('GET', `/invitations/${id}`)).body.career_navigation_url).toBeNull();
    complete(stub.store, testTakerId, { assessment: 'interests' });
    const done = (await stub.call('GET', `/invitations/${id}`)).body;
    expect(done.career_navigation_profile_id).toEqual(expect.any(String));
    expect(done.career_navigation_url).toMatch(/^http:/);
  });

  it('PUT: ref_text at most 60, custom_id at most 50, both at the limit accepted', async () => {
    const id = (await invite(base())).body.id;
    const put = (body: unknown) => stub.call('PUT', `/invitations/${id}`, { body });
    expect((await put({ ref_text: 'r'.repeat(61) })).body.error).toMatch(/^ref_text: /);
    expect((await put({ custom_id: 'c'.repeat(51) })).body.error).toMatch(/^custom_id: /);
    const ok = await put({ ref_text: 'r'.repeat(60), custom_id: 'c'.repeat(50) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ mode: 'live', ref_text: 'r'.repeat(60), custom_id: 'c'.repeat(50) });
  });
});

describe('GET /test-takers filters', () => {
  it('custom_id over 50 is 400; at 50 it is a 200 list envelope without mode on the items', async () => {
    const bad = await stub.call('GET', `/test-takers?custom_id=${'x'.repeat(51)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^custom_id: /);
    const ok = await stub.call('GET', `/test-takers?custom_id=${'x'.repeat(50)}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ mode: 'live', object: 'list', total_count: 0, has_more: false, data: [] });
    const some = (await stub.call('GET', '/test-takers')).body;
    expect(some.data.length).toBeGreaterThan(0);
    expect(some.data.some((t: any) => 'mode' in t)).toBe(false);
  });
});
