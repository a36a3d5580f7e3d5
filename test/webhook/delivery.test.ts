import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { accept, complete } from '../../src/stub/lifecycle.js';
import { openStore } from '../../src/stub/index.js';
import { type DeliveryLoop, flushDeliveries, startDeliveryLoop } from '../../src/stub/webhooks/deliver.js';
import { listEventDeliveries } from '../../src/stub/webhooks/events.js';
import { parseSchedule } from '../../src/stub/webhooks/policy.js';
import { getWebhookSettings, setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { api, type Endpoint, endpoint, invite, refusedPort, stubOn, tempDir, until, withoutMode } from './helpers.js';
import { DANA } from '../helpers/seeded.js';

const TEAM = 11;
let tmp: ReturnType<typeof tempDir>;
let stub: RunningStub;
let live: string;
let test: string;
const cleanup: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  tmp = tempDir();
  stub = await stubOn(tmp.dir);
  live = stub.keys[0].live_key;
  test = stub.keys[0].test_key;
});

afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  await stub.close();
  tmp.remove();
});

async function hook(opts: { team?: boolean; account?: boolean; status?: (n: number) => number; retry?: string } = {}): Promise<Endpoint> {
  const ep = await endpoint({ status: opts.status });
  cleanup.push(() => ep.close());
  setWebhookSettings(stub.store, 1, {
    endpoint: ep.url,
    enabled: opts.account ?? true,
    teams: [{ id: TEAM, enabled: opts.team ?? true }],
    retrySchedule: opts.retry,
  });
  return ep;
}

function loop(): DeliveryLoop {
  const l = startDeliveryLoop(stub.store, { intervalMs: 10 });
  cleanup.push(() => l.stop());
  return l;
}

describe('webhook delivery from the stub', () => {
  it('shows the endpoint and flag on GET /accounts, and team flags default to off', async () => {
    const before = getWebhookSettings(stub.store, 1)!;
    expect(before.webhooks_enabled).toBe(false);
    expect(before.teams.every((t) => !t.webhooks_enabled)).toBe(true);
    await hook();
    const accounts = await api<{ data?: unknown[] } & Record<string, unknown>>(stub, live, 'GET', '/accounts');
    const acc = (Array.isArray(accounts.json.data) ? accounts.json.data[0] : accounts.json) as Record<string, unknown>;
    expect(acc.webhooks_enabled).toBe(true);
    expect(acc.webhook_endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
  });

  it('delivers the four events, each once, as a POST with JSON and headers, payloads matching the API', async () => {
    const ep = await hook();
    const inv = await invite(stub, live, { assessments_to_assign: [{ test_id: 6 }, { test_id: 7 }, { test_id: 8 }] });
    const { testTakerId } = accept(stub.store, inv.id);
    await flushDeliveries();
    expect(ep.received.map((r) => r.json.type)).toEqual(['invitation.accepted', 'test_taker.created']);

    const [accepted, created] = ep.received;
    for (const r of ep.received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/^jobfit-stub-webhooks\//);
      expect(r.headers['webhook-id']).toBe(r.json.id);
      expect(r.headers['x-event-type']).toBe(r.json.type);
      expect(r.headers['x-delivery-attempt']).toBe('1');
      expect(r.json.object).toBe('event');
      expect(r.json.id).toMatch(/^evt_/);
      expect(r.json.api_version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(r.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const invNow = await api(stub, live, 'GET', `/invitations/${inv.id}`);
    expect(accepted.json.data.object).toEqual(withoutMode(invNow.json));
    const tt = await api(stub, live, 'GET', `/test-takers/${testTakerId}`);
    expect(created.json.data.object).toEqual({
      object: 'test_taker',
      id: testTakerId,
      person_id: tt.json.person_id,
      invitation_id: inv.id,
      scorecard_url: tt.json.scorecard_url,
      job_fit_summary_url: tt.json.job_fit_summary_url,
      career_navigation_url: tt.json.career_navigation_url,
    });

    complete(stub.store, testTakerId, { assessment: 'all' });
    await flushDeliveries();
    const types = ep.received.map((r) => r.json.type);
    expect(types.filter((t) => t === 'test_taker.assessment_completed')).toHaveLength(3);
    expect(types.filter((t) => t === 'career_navigation_profile.created')).toHaveLength(1);
    expect(new Set(ep.received.map((r) => r.json.id)).size).toBe(ep.received.length);

    const after = await api<{ assigned_assessments: Array<Record<string, unknown>>; career_navigation_profile_id: string }>(stub, live, 'GET', `/test-takers/${testTakerId}`);
    for (const r of ep.received.filter((x) => x.json.type === 'test_taker.assessment_completed')) {
      const o = r.json.data.object;
      const a = after.json.assigned_assessments.find((x) => x.id === o.id)!;
      expect(o).toMatchObject({ object: 'assigned_assessment', test_taker_id: testTakerId, invitation_id: inv.id, completed_at: a.completed_at, language: a.language, assessment: a.assessment });
    }
    const profile = await api(stub, live, 'GET', `/career-navigation-profiles/${after.json.career_navigation_profile_id}`);
    expect(ep.received.find((x) => x.json.type === 'career_navigation_profile.created')!.json.data.object).toEqual(withoutMode(profile.json));

    const views = listEventDeliveries(stub.store);
    expect(views).toHaveLength(6);
    expect(views.every((v) => v.delivery === 'delivered' && v.attempts.length === 1 && v.attempts[0].response_status === 200)).toBe(true);
    expect(typeof views[0].attempts[0].duration_ms).toBe('number');
  });

  it('sends nothing when the account flag is off', async () => {
    const ep = await hook({ account: false });
    const inv = await invite(stub, live);
    accept(stub.store, inv.id);
    await flushDeliveries();
    expect(ep.received).toHaveLength(0);
    const views = listEventDeliveries(stub.store);
    expect(views.map((v) => v.delivery)).toEqual(['skipped', 'skipped']);
    expect(views[0].reason).toMatch(/disabled for the account/);
  });

  it('sends nothing when the team flag is off (new teams default to off)', async () => {
    const ep = await hook({ team: false });
    const inv = await invite(stub, live);
    accept(stub.store, inv.id);
    await flushDeliveries();
    expect(ep.received).toHaveLength(0);
    expect(listEventDeliveries(stub.store)[0].reason).toMatch(/disabled for team 11/);
  });

  it('test keys produce no events: nothing is stored, and the fake link is not a real page', async () => {
    const ep = await hook();
    const fake = await api<{ mode: string; id: number; assessment_url: string | null }>(stub, test, 'POST', '/invitations', {
      first_name: 'Tess',
      last_name: 'Key',
      email: 'tess.key@example.com',
      created_by_user_email: DANA,
    });
    expect(fake.json.mode).toBe('test');
    const before = listEventDeliveries(stub.store).length;
    if (fake.json.assessment_url) {
      const page = await fetch(fake.json.assessment_url.replace(/^https?:\/\/[^/]+/, stub.origin));
      expect(page.status).toBe(404);
    }
    await flushDeliveries();
    expect(listEventDeliveries(stub.store)).toHaveLength(before);
    expect(ep.received).toHaveLength(0);
  });

  it('retries with backoff when the endpoint is down, then delivers when it comes back; every attempt recorded', async () => {
    const dead = await refusedPort();
    cleanup.push(() => dead.close());
    const { port } = dead;
    setWebhookSettings(stub.store, 1, { endpoint: `http://127.0.0.1:${port}/hooks`, enabled: true, teams: [{ id: TEAM, enabled: true }], retrySchedule: '40ms,80ms,80ms,80ms,80ms,80ms' });
    const inv = await invite(stub, live);
    accept(stub.store, inv.id);
    await flushDeliveries();
    const first = listEventDeliveries(stub.store);
    expect(first[0].delivery).toBe('pending');
    expect(first[0].attempts[0]).toMatchObject({ attempt: 1, status: 'failed', response_status: null, error: 'connection refused' });
    expect(first[0].next_attempt_at).not.toBeNull();

    loop();
    await until(() => listEventDeliveries(stub.store)[0].attempts.length >= 2, 'a retry');
    const ep = await endpoint({ port });
    cleanup.push(() => ep.close());
    await until(() => listEventDeliveries(stub.store).every((v) => v.delivery === 'delivered'), 'delivery after the endpoint came back');
    const views = listEventDeliveries(stub.store);
    const attempts = views[0].attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.slice(0, -1).every((a) => a.status === 'failed')).toBe(true);
    expect(attempts.at(-1)).toMatchObject({ status: 'succeeded', response_status: 200 });
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    // Each event arrives once, with the attempt number it succeeded on.
    expect(ep.received.map((r) => r.json.type).sort()).toEqual(['invitation.accepted', 'test_taker.created']);
    // (Matched by type: the two events retry side by side and may succeed on different attempts.)
    for (const v of views) {
      const got = ep.received.find((r) => r.json.type === v.type);
      expect(Number(got?.headers['x-delivery-attempt']), v.type).toBe(v.attempts.length);
    }
  });

  it('retries on 5xx and gives up after the last attempt of the schedule', async () => {
    const ep = await hook({ status: () => 503, retry: '10ms,10ms' });
    const inv = await invite(stub, live);
    accept(stub.store, inv.id);
    loop();
    await until(() => listEventDeliveries(stub.store).every((v) => v.delivery === 'failed'), 'giving up');
    const v = listEventDeliveries(stub.store)[0];
    expect(v.attempts.map((a) => a.response_status)).toEqual([503, 503, 503]);
    expect(v.attempts[0].error).toBe('HTTP 503');
    expect(v.reason).toBe('gave up after 3 attempts');
    expect(ep.received).toHaveLength(6);
  });

  it('two delivery loops on the same data (two processes) never send an attempt twice', async () => {
    const ep = await hook({ status: (n) => (n <= 2 ? 500 : 200), retry: '20ms,20ms,20ms' });
    const other = await openStore(tmp.dir);
    cleanup.push(() => other.close());
    const l2 = startDeliveryLoop(other, { intervalMs: 5 });
    cleanup.push(() => l2.stop());
    loop();
    const inv = await invite(stub, live);
    const { testTakerId } = accept(stub.store, inv.id);
    complete(stub.store, testTakerId, { assessment: 'all' });
    await until(() => listEventDeliveries(stub.store).every((v) => v.delivery === 'delivered'), 'all delivered');
    const views = listEventDeliveries(stub.store);
    const attempts = views.reduce((n, v) => n + v.attempts.length, 0);
    expect(ep.received).toHaveLength(attempts);
    const byId = new Map<string, number[]>();
    for (const r of ep.received) byId.set(r.json.id, [...(byId.get(r.json.id) ?? []), Number(r.headers['x-delivery-attempt'])]);
    for (const list of byId.values()) expect(list).toEqual(list.map((_, i) => i + 1));
  });

  it('parses retry schedules', () => {
    expect(parseSchedule('1s, 2s,500ms,1m,250')).toEqual([1000, 2000, 500, 60000, 250]);
    expect(() => parseSchedule('soon')).toThrow(/Invalid retry delay/);
  });
});
