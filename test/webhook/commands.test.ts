/**
 * `webhook listen`, `stub webhooks` and `stub events`, run in-process like a
 * person would, against a throw-away stub data directory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accept, complete } from '../../src/stub/lifecycle.js';
import { openStore, type Store } from '../../src/stub/index.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { getWebhookSettings, setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { runCli } from '../helpers/cli.js';
import { signDelivery } from '../../src/api/webhook-signature.js';
import { endpoint, listenInProcess, refusedPort, tempDir, until } from './helpers.js';

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let env: Record<string, string>;

beforeEach(() => {
  tmp = tempDir();
  dataDir = join(tmp.dir, 'stub');
  env = { JOBFIT_CONFIG_DIR: join(tmp.dir, 'config') };
});
afterEach(() => tmp.remove());

const startListen = (args: string[]) => listenInProcess(env, args);

/** An accepted and completed participant of seeded invitation `id`, acted out in the store like `stub accept/complete` would. */
async function liveActivity(store: Store, invitationId: number) {
  const { testTakerId } = accept(store, invitationId);
  complete(store, testTakerId, { assessment: 'all' });
  await flushDeliveries();
  return testTakerId;
}

/** An invitation of the seed that is not yet accepted. */
function openInvitation(store: Store, teamId?: number): number {
  return store.get<{ id: number }>(
    `SELECT id FROM invitations WHERE accepted_at IS NULL ${teamId ? 'AND team_id = ?' : ''} ORDER BY id LIMIT 1`,
    ...(teamId ? [teamId] : []),
  )!.id;
}

describe('jobfit webhook listen', () => {
  it('rejects unknown --events with the known types (exit 2)', async () => {
    const r = await runCli(['webhook', 'listen', '--events', 'invitation.accepted,invitation.created', '--no-stub'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown event type: invitation\.created/);
    expect(r.stderr).toMatch(/known types: invitation\.accepted, test_taker\.created, test_taker\.assessment_completed, career_navigation_profile\.created/);
  });

  it('rejects a bad --port and a bad --forward-to (exit 2)', async () => {
    expect((await runCli(['webhook', 'listen', '--port', 'abc', '--no-stub'], { env })).code).toBe(2);
    const r = await runCli(['webhook', 'listen', '--forward-to', 'ftp://x', '--no-stub'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--forward-to must be an http or https URL/);
  });

  it('points the stub at itself while it runs, prints and logs each event once, and restores the settings on Ctrl-C', async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { endpoint: 'https://app.example.com/hooks', enabled: false });
      const log = join(tmp.dir, 'events.ndjson');
      const l = startListen(['--data', dataDir, '--log', log]);
      const url = await l.url();
      await l.ready();
      const during = getWebhookSettings(store, 1)!;
      expect(during.webhook_endpoint).toBe(url);
      expect(during.webhooks_enabled).toBe(true);
      expect(during.teams.every((t) => t.webhooks_enabled)).toBe(true);

      await liveActivity(store, openInvitation(store));
      const expected = store.get<{ n: number }>('SELECT COUNT(*) AS n FROM events')!.n;
      expect(expected).toBeGreaterThanOrEqual(4);
      await until(() => l.stdout().trim().split('\n').length >= expected, 'a line per event');
      // A second delivery of an event already shown (a retry the sender thought failed).
      const first = readFileSync(log, 'utf8').split('\n')[0];
      const signed = signDelivery(during.signing_secret, { id: JSON.parse(first).id, timestamp: Math.floor(Date.now() / 1000), body: first });
      expect((await fetch(url, { method: 'POST', body: first, headers: { 'content-type': 'application/json', ...signed } })).status).toBe(200);
      // The same without a signature is not believed: the stub signs everything it sends.
      expect((await fetch(url, { method: 'POST', body: first, headers: { 'content-type': 'application/json' } })).status).toBe(401);

      expect(await l.stop()).toBe(0);
      const out = l.stdout().trim().split('\n');
      expect(out).toHaveLength(expected);
      expect(out[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}invitation\.accepted +evt_\w+ {2}invitation \d+$/);
      expect(l.stderr()).toMatch(/Duplicate delivery of evt_\w+ \(invitation\.accepted\); already shown/);
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(out.length);

      const after = getWebhookSettings(store, 1)!;
      expect(after.webhook_endpoint).toBe('https://app.example.com/hooks');
      expect(after.webhooks_enabled).toBe(false);
      expect(after.teams.every((t) => !t.webhooks_enabled)).toBe(true);
      expect(l.stderr()).toMatch(/settings are back as they were/);
    } finally {
      store.close();
    }
  });

  it('-o ndjson prints the events themselves; --events filters; --only-enabled-teams respects the team gate', async () => {
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { teams: [{ id: 11, enabled: true }] });
      const l = startListen(['--data', dataDir, '--only-enabled-teams', '--events', 'test_taker.created', '-o', 'ndjson']);
      await l.ready();
      await liveActivity(store, openInvitation(store, 12)); // team 12: delivery off
      await liveActivity(store, openInvitation(store, 11));
      await until(() => l.stdout().includes('test_taker.created'), 'the event');
      await new Promise((r) => setTimeout(r, 200));
      expect(await l.stop()).toBe(0);
      const lines = l.stdout().trim().split('\n').map((x) => JSON.parse(x));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ object: 'event', type: 'test_taker.created', data: { object: { object: 'test_taker' } } });
      expect(getWebhookSettings(store, 1)!.teams.find((t) => t.id === 11)!.webhooks_enabled).toBe(true);
    } finally {
      store.close();
    }
  });

  it('--forward-to re-posts each event to the app and prints its status and time', async () => {
    const app = await endpoint({ status: (n) => (n === 1 ? 200 : 422) });
    const store = await openStore(dataDir);
    try {
      const l = startListen(['--data', dataDir, '--forward-to', app.url, '--events', 'invitation.accepted,test_taker.created']);
      await l.ready();
      accept(store, openInvitation(store));
      await flushDeliveries();
      await until(() => app.received.length >= 2 && (l.stdout().match(/->/g) ?? []).length >= 2, 'two forwards');
      expect(await l.stop()).toBe(0);
      expect(app.received.map((r) => r.json.type)).toEqual(['invitation.accepted', 'test_taker.created']);
      expect(app.received[0].headers['content-type']).toBe('application/json');
      expect(app.received[0].headers['webhook-id']).toBe(app.received[0].json.id);
      const arrows = l.stdout().split('\n').filter((x) => x.includes('->'));
      expect(arrows[0]).toMatch(new RegExp(`-> ${app.url.replace(/[/.]/g, '\\$&')} {2}200 \\(\\d+ ms\\)`));
      expect(arrows[1]).toMatch(/ 422 \(\d+ ms; kept and tried again\)/);
    } finally {
      store.close();
      await app.close();
    }
  });

  it('retries run while it listens: events recorded while the endpoint was down arrive', async () => {
    const store = await openStore(dataDir);
    // Refused until the listener binds it (it can, the port held for it meanwhile).
    const dead = await refusedPort();
    try {
      const { port } = dead;
      setWebhookSettings(store, 1, { endpoint: `http://127.0.0.1:${port}/webhooks`, enabled: true, teams: [{ id: 11, enabled: true }], retrySchedule: '50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms' });
      accept(store, openInvitation(store, 11));
      await flushDeliveries();
      const l = startListen(['--data', dataDir, '--port', String(port), '--only-enabled-teams']);
      await l.ready();
      await until(() => (l.stdout().match(/\n/g) ?? []).length >= 2, 'the retried events');
      expect(await l.stop()).toBe(0);
      expect(l.stdout()).toMatch(/invitation\.accepted/);
      expect(l.stdout()).toMatch(/test_taker\.created/);
    } finally {
      store.close();
      await dead.close();
    }
  });
});

describe('jobfit stub webhooks / stub events', () => {
  it('sets the endpoint, the account flag and team flags, and validates input', async () => {
    const set = await runCli(['stub', 'webhooks', '--data', dataDir, '--endpoint', 'http://127.0.0.1:9/hooks', '--enable', '-o', 'json'], { env });
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ account_id: 1, webhook_endpoint: 'http://127.0.0.1:9/hooks', webhooks_enabled: true });
    expect(set.stderr).toMatch(/No team has delivery switched on yet/);
    const team = await runCli(['stub', 'webhooks', '--data', dataDir, '--team', '11,12', '--enable', '-o', 'json'], { env });
    const teams = JSON.parse(team.stdout).teams as Array<{ id: number; webhooks_enabled: boolean }>;
    expect(teams.filter((t) => t.webhooks_enabled).map((t) => t.id)).toEqual([11, 12]);
    expect(JSON.parse(team.stdout).webhooks_enabled).toBe(true);
    const off = await runCli(['stub', 'webhooks', '--data', dataDir, '--team', '12', '--disable', '--retry-schedule', '500ms,1s', '-o', 'json'], { env });
    expect(JSON.parse(off.stdout)).toMatchObject({ retry_schedule: '500ms,1s' });

    expect((await runCli(['stub', 'webhooks', '--data', dataDir, '--endpoint', 'not a url'], { env })).code).toBe(2);
    expect((await runCli(['stub', 'webhooks', '--data', dataDir, '--team', '21', '--enable'], { env })).stderr).toMatch(/Team 21 is not a team of account 1/);
    expect((await runCli(['stub', 'webhooks', '--data', dataDir, '--team', '11'], { env })).code).toBe(2);
    expect((await runCli(['stub', 'webhooks', '--data', dataDir, '--enable', '--disable'], { env })).code).toBe(2);
  });

  it('stub events lists events with their attempts and outcomes, or the envelopes', async () => {
    const ep = await endpoint({ status: (n) => (n === 1 ? 500 : 200) });
    const store = await openStore(dataDir);
    try {
      setWebhookSettings(store, 1, { endpoint: ep.url, enabled: true, teams: [{ id: 11, enabled: true }] });
      accept(store, openInvitation(store, 11));
      await flushDeliveries();
    } finally {
      store.close();
      await ep.close();
    }
    const r = await runCli(['stub', 'events', '--data', dataDir, '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const views = JSON.parse(r.stdout) as Array<{ type: string; delivery: string; attempts: Array<{ response_status: number; duration_ms: number; error: string | null }> }>;
    expect(views.map((v) => v.type)).toEqual(['invitation.accepted', 'test_taker.created']);
    const failedFirst = views.find((v) => v.attempts[0].response_status === 500)!;
    expect(failedFirst.delivery).toBe('pending');
    expect(failedFirst.attempts[0].error).toBe('HTTP 500');
    expect(views.some((v) => v.delivery === 'delivered' && v.attempts[0].response_status === 200)).toBe(true);

    const table = await runCli(['stub', 'events', '--data', dataDir, '-o', 'table'], { env, columns: 200 });
    expect(table.stdout).toMatch(/DELIVERY/);
    expect(table.stdout).toMatch(/HTTP 500|500 in \d+ ms; retry at/);

    const env2 = await runCli(['stub', 'events', '--data', dataDir, '--envelopes', '--type', 'test_taker.created', '-o', 'ndjson'], { env });
    const envelopes = env2.stdout.trim().split('\n').map((x) => JSON.parse(x));
    expect(envelopes).toHaveLength(1);
    expect(Object.keys(envelopes[0])).toEqual(['id', 'type', 'object', 'created_at', 'api_version', 'data']);
    expect((await runCli(['stub', 'events', '--data', dataDir, '--type', 'nope'], { env })).code).toBe(2);
  });
});
