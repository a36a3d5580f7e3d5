/**
 * The stub against the letter of the API reference, over real HTTP: the rules
 * where the stub used to differ, and reference rules no other stub test pins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { DANA, MARCO, type TestStub, TOMAS, freshEmail, startTestStub } from './helpers.js';

let stub: TestStub;
beforeAll(async () => {
  stub = await startTestStub();
});
afterAll(async () => {
  await stub?.stop();
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
