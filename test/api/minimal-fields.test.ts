/**
 * The contract says only what the reference says: a strict server (`stub
 * serve --minimal-fields`, whose test taker and career navigation profile list
 * items carry only the fields the reference states) must be answered inside
 * docs/openapi.json. Every list route (plain, filtered, with the test key) and
 * one of each item route, validated with Ajv against the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '../../src/api/routes.js';
import type { RunningStub } from '../../src/stub/index.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { type Request, type SeedPicks, cases, pickSeed, send } from '../../scripts/openapi.js';
import { violation } from './contract.js';

let stub: RunningStub;
let started: StartedStub | undefined;
let picks: SeedPicks;

beforeAll(async () => {
  started = await startStub({ server: { publishOrigin: false, minimalFields: true } });
  stub = started.server!;
  picks = await pickSeed(stub);
});
afterAll(async () => {
  await started?.stop();
});

async function expectValid(operationId: RouteName, request: Request): Promise<unknown> {
  const answer = await send(stub, request);
  const what = `${request.method} ${request.path} (${request.key === picks.test ? 'test key' : 'live key'}) → ${answer.status} ${answer.text.slice(0, 160)}`;
  expect(answer.status, what).toBe(ROUTES[operationId].status);
  expect(violation(operationId, answer.status, answer.contentType, answer.text), what).toBeNull();
  return answer.body;
}

describe('stub serve --minimal-fields against docs/openapi.json', () => {
  it('every GET route answers inside the document, with the live key and the test key', async () => {
    const gets = cases(picks).filter((c) => c.status < 300 && c.request.method === 'GET');
    // Every GET route of the table is among them: every list route and one of each item route.
    const covered = new Set(gets.map((c) => c.operationId));
    expect([...covered].sort()).toEqual((Object.keys(ROUTES) as RouteName[]).filter((n) => ROUTES[n].method === 'GET').sort());
    for (const c of gets) {
      await expectValid(c.operationId, c.request);
      await expectValid(c.operationId, { ...c.request, key: picks.test });
    }
  });

  it('the unfiltered and filtered lists, too, and their items are the minimal ones (the check is not vacuous)', async () => {
    const takers = (await expectValid('listTestTakers', { method: 'GET', path: '/test-takers' })) as { data: Array<Record<string, unknown>> };
    expect(takers.data.length).toBeGreaterThan(0);
    for (const t of takers.data) expect(Object.keys(t).sort()).toEqual(['account', 'custom_id', 'id', 'person_id', 'team']);
    const profiles = (await expectValid('listCareerNavigationProfiles', { method: 'GET', path: '/career-navigation-profiles' })) as { data: Array<Record<string, unknown>> };
    expect(profiles.data.length).toBeGreaterThan(0);
    for (const p of profiles.data) expect(Object.keys(p).sort()).toEqual(['custom_id', 'id', 'person_id']);
    await expectValid('listTestTakers', { method: 'GET', path: `/test-takers?team_id=${picks.accepted.teamId}&custom_id=${encodeURIComponent(picks.customId)}` });
    await expectValid('listTestTakers', { method: 'GET', path: '/test-takers?email=%40' });
    await expectValid('listInvitations', { method: 'GET', path: '/invitations' });
    await expectValid('listInvitations', { method: 'GET', path: `/invitations?team_id=${picks.pending.teamId}` });
    // Every item route once more on an item the minimal list gave.
    await expectValid('getTestTaker', { method: 'GET', path: `/test-takers/${takers.data[0].id}` });
    await expectValid('getCareerNavigationProfile', { method: 'GET', path: `/career-navigation-profiles/${profiles.data[0].id}` });
  });
});
