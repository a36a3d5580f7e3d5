import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { accept } from '../../src/stub/lifecycle.js';
import { type TestStub, freshEmail, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

const creds = () => `auth=${stub.live}&sid=1`;
const body = (extra: Record<string, unknown> = {}) => ({ teamId: 12, firstName: 'Vee', lastName: 'One', sentToEmail: freshEmail('v1'), sendViaEmail: true, assignPersonality: true, assignInterests: true, ...extra });

describe('v1', () => {
  it('creates an invitation with the camelCase body and answers 200 with snake_case fields', async () => {
    const b = body({ customId: 'legacy-1', sentToPhone: '(202) 555-0123', sendViaSms: true, statusCallbackUrl: 'https://example.com/cb' });
    const r = await stub.call('POST', `/v1/invitations/create?${creds()}`, { body: b });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(
      ['id', 'invite_key', 'first_name', 'last_name', 'created_at', 'team_id', 'custom_id', 'ref_text', 'send_via_email', 'send_via_sms', 'sent_to_email', 'sent_to_phone', 'status_callback_url', 'assessment_link'].sort(),
    );
    expect(r.body).toMatchObject({ team_id: 12, custom_id: 'legacy-1', sent_to_email: b.sentToEmail, sent_to_phone: '+12025550123', send_via_sms: true, status_callback_url: 'https://example.com/cb' });
    expect(r.body.assessment_link).toBe(`${stub.origin}/take/${r.body.invite_key}`);
    // Same store: v2 sees it.
    const v2 = await stub.call('GET', `/invitations/${r.body.id}`);
    expect(v2.body.invitation_assessments.map((a: any) => a.id)).toEqual([6, 8]);
    expect(v2.body.assessment_url).toBe(r.body.assessment_link);

    const g = await stub.call('GET', `/v1/invitations/${r.body.id}?${creds()}`);
    expect(g.status).toBe(200);
    expect(g.body.accepted_at).toBeNull();
    expect(g.body.test_taker_seats).toEqual([]);
    expect(g.body.team).toEqual({ id: 12, display_name: 'Retail Stores', account: { id: 1, display_name: 'Northwind Talent Group' } });
    expect(g.body.test_taker_magic_links[0]).toMatchObject({ is_revoked: false, magic_link: r.body.assessment_link });
    const { testTakerId } = accept(stub.store, r.body.id);
    const g2 = await stub.call('GET', `/v1/invitations/${r.body.id}?${creds()}`);
    expect(g2.body.test_taker_seats).toHaveLength(1);
    expect(g2.body.test_taker_seats[0].id).toBe(testTakerId);
  });

  it('checks credentials: auth is the live key, sid the account id', async () => {
    for (const q of ['', `auth=${stub.live}`, `auth=${stub.live}&sid=2`, `auth=${stub.test}&sid=1`, 'auth=nope&sid=1']) {
      const r = await stub.call('POST', `/v1/invitations/create?${q}`, { body: body(), key: null });
      expect(r.status, q).toBe(401);
      expect(typeof r.body.error).toBe('string');
    }
  });

  it('validates the body', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ teamId: undefined }, 'teamId: teamId is required'],
      [{ firstName: '' }, 'firstName: firstName is required'],
      [{ sentToEmail: 'bad' }, 'sentToEmail: Invalid email address'],
      [{ sendViaEmail: undefined }, 'sendViaEmail: sendViaEmail is required'],
      [{ assignPersonality: false, assignInterests: false }, 'At least one of assignPrescreen, assignPersonality, assignInterests, assignThinking must be true'],
      [{ teamId: 21 }, 'teamId not found'],
      [{ assignPrescreen: true }, MSG.prescreenCombined],
      [{ sendViaSms: true }, MSG.smsNeedsPhone],
    ];
    for (const [extra, message] of cases) {
      const r = await stub.call('POST', `/v1/invitations/create?${creds()}`, { body: body(extra) });
      expect(r.status, message).toBe(400);
      expect(r.body).toEqual({ error: message });
    }
  });

  it('404 for unknown or foreign ids, 405 for other methods', async () => {
    const other = stub.store.get<{ id: number }>('SELECT id FROM invitations WHERE account_id = 2 LIMIT 1')!.id;
    expect((await stub.call('GET', `/v1/invitations/${other}?${creds()}`)).status).toBe(404);
    const m = await stub.call('GET', `/v1/invitations/create?${creds()}`);
    expect(m.status).toBe(405);
    expect(m.text).toBe(MSG.methodNotAllowed);
  });
});
