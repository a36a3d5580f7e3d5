import { describe, expect, it } from 'vitest';
import { LifecycleError, accept, complete, listEvents, listOutbox } from '../../src/stub/lifecycle.js';
import { DANA, MARCO, type TestStub, freshEmail, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

async function newInvitation(body: Record<string, unknown> = {}): Promise<any> {
  const r = await stub.call('POST', '/invitations', { body: { first_name: 'Li', last_name: 'Fe', email: freshEmail('life'), created_by_user_email: DANA, ...body } });
  expect(r.status).toBe(201);
  return r.body;
}

describe('lifecycle', () => {
  it('accept creates the test taker and emits invitation.accepted and test_taker.created', async () => {
    const inv = await newInvitation({ person_id: 'PX', custom_id: 'CX', phone: '+12025550111' });
    const before = listEvents(stub.store).length;
    const r = accept(stub.store, inv.id);
    const after = (await stub.call('GET', `/invitations/${inv.id}`)).body;
    expect(after.accepted_at).toBe(r.acceptedAt);
    expect(after.test_taker_id).toBe(r.testTakerId);
    expect(after.scorecard_url).not.toBeNull();
    const tt = (await stub.call('GET', `/test-takers/${r.testTakerId}`)).body;
    expect(tt).toMatchObject({ person_id: 'PX', custom_id: 'CX', phone: '+12025550111', invitation_id: inv.id });
    const events = listEvents(stub.store).slice(before);
    expect(events.map((e) => e.type)).toEqual(['invitation.accepted', 'test_taker.created']);
    for (const e of events) {
      expect(Object.keys(e.payload)).toEqual(['id', 'type', 'object', 'created_at', 'api_version', 'data']);
      expect(e.payload.object).toBe('event');
      expect(e.payload.api_version).toBe('2.3.0');
      expect(e.payload.created_at).toMatch(/\.\d{3}Z$/);
    }
    expect(events[0].payload.data.object).toMatchObject({ object: 'invitation', id: inv.id, test_taker_id: r.testTakerId });
    expect(Object.keys(events[1].payload.data.object)).toEqual(['object', 'id', 'person_id', 'invitation_id', 'scorecard_url', 'job_fit_summary_url', 'career_navigation_url']);
    expect(() => accept(stub.store, inv.id)).toThrow(LifecycleError);
    expect(() => accept(stub.store, 1)).toThrow(LifecycleError);
  });

  it('complete one by one: profile on Interests, inviter email when all done', async () => {
    const inv = await newInvitation();
    const { testTakerId } = accept(stub.store, inv.id);
    const before = listEvents(stub.store).length;
    const outboxBefore = listOutbox(stub.store).length;
    const p = complete(stub.store, testTakerId, { assessment: 'personality', language: 'fr' });
    expect(p.allComplete).toBe(false);
    expect((await stub.call('GET', `/test-takers/${testTakerId}/job-fit-report`)).status).toBe(400);
    const i = complete(stub.store, testTakerId, { assessment: 'interests' });
    expect(i.careerNavigationProfileId).toMatch(/^cnp_[A-Za-z0-9]{20}$/);
    expect((await stub.call('GET', `/test-takers/${testTakerId}/job-fit-report`)).status).toBe(200);
    expect(() => complete(stub.store, testTakerId, { assessment: 'interests' })).toThrow(/already complete/);
    expect(() => complete(stub.store, testTakerId, { assessment: 'prescreen' })).toThrow(/not assigned/);
    expect(listOutbox(stub.store).length).toBe(outboxBefore);
    const t = complete(stub.store, testTakerId, { assessment: 'thinking' });
    expect(t.allComplete).toBe(true);
    expect(t.notifiedInviter).toBe(DANA);
    const mail = listOutbox(stub.store).slice(outboxBefore);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ channel: 'email', kind: 'completion', recipient: DANA, test_taker_id: testTakerId });
    expect(mail[0].body).toContain('/scorecard');
    const types = listEvents(stub.store).slice(before).map((e) => e.type);
    expect(types).toEqual([
      'test_taker.assessment_completed',
      'test_taker.assessment_completed',
      'career_navigation_profile.created',
      'test_taker.assessment_completed',
    ]);
    const profileEvent = listEvents(stub.store).slice(before).find((e) => e.type === 'career_navigation_profile.created')!;
    expect(profileEvent.payload.data.object).toMatchObject({ object: 'career_navigation_profile', id: i.careerNavigationProfileId });
    expect((profileEvent.payload.data.object as any).career_navigation_url).toContain('/career/');
    const tt = (await stub.call('GET', `/test-takers/${testTakerId}`)).body;
    expect(tt.assigned_assessments[0].language).toBe('fr');
    expect(tt.assigned_assessments[2].language).toBe('en');
  });

  it('no completion email when the inviter did not ask for it', async () => {
    const inv = await newInvitation({ created_by_user_email: MARCO, send_via_email: false });
    const { testTakerId } = accept(stub.store, inv.id);
    const r = complete(stub.store, testTakerId, { assessment: 'all' });
    expect(r.allComplete).toBe(true);
    expect(r.notifiedInviter).toBeNull();
    expect(() => complete(stub.store, testTakerId)).toThrow(/no assessment left/);
  });

  it('test keys emit no events', async () => {
    const before = listEvents(stub.store).length;
    await stub.call('POST', '/invitations', { key: stub.test, body: { first_name: 'A', last_name: 'B', email: freshEmail(), created_by_user_email: DANA } });
    expect(listEvents(stub.store).length).toBe(before);
  });

  it('reset restores the seed', async () => {
    const seeded = stub.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM invitations')!.n;
    await newInvitation();
    await stub.store.reset();
    const after = stub.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM invitations')!.n;
    expect(after).toBeLessThan(seeded + 1);
    expect(listEvents(stub.store)).toHaveLength(0);
    expect(listOutbox(stub.store)).toHaveLength(0);
    expect((await stub.call('GET', '/teams')).status).toBe(200);
  });
});
