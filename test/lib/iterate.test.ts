/**
 * The library's small things, in-process against the stub:
 * - `for await (const t of iterate(client, 'test-takers'))`: the items of
 *   listAll, each once, one by one; leaving the loop early stops the search;
 * - an aborted call keeps the abort's reason as the error's `cause`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelError, createClient, iterate, type JobfitClient, listAll, startStub, type Stub } from '../../src/lib/index.js';

let stub: Stub;
let client: JobfitClient;

beforeAll(async () => {
  stub = await startStub();
  client = createClient({ baseUrl: stub.url, apiKey: stub.keys[0].live_key });
});
afterAll(async () => {
  await client?.close();
  await stub?.close();
});

describe('iterate', () => {
  it('yields every item of listAll once, past the cap, for each resource', async () => {
    for (const resource of ['test-takers', 'invitations', 'profiles'] as const) {
      const all = await listAll(client, resource);
      expect(all.length, resource).toBeGreaterThan(50);
      const seen: Array<number | string> = [];
      for await (const t of iterate(client, resource)) seen.push(t.id);
      expect(seen.length, resource).toBe(all.length);
      expect(new Set(seen), resource).toEqual(new Set(all.map((t) => t.id)));
    }
    const team = (await listAll(client, 'invitations'))[0].team.id;
    const inTeam: number[] = [];
    for await (const i of iterate(client, 'invitations', { team_id: team })) {
      expect(i.team.id).toBe(team);
      inTeam.push(i.id);
    }
    expect(inTeam.length).toBe((await client.listInvitations({ team_id: team })).total_count);
  });

  it('a break stops the search: no request is sent after the loop ends', async () => {
    let requests = 0;
    let first: number | undefined;
    for await (const t of iterate(client, 'test-takers', {}, { concurrency: 1, onRequest: () => requests++ })) {
      first = t.id;
      break;
    }
    expect(first).toBeTypeOf('number');
    const after = requests;
    await new Promise((r) => setTimeout(r, 200));
    expect(requests).toBe(after);
  });

  it('checks its arguments at the call, with a TypeError', () => {
    expect(() => iterate(client, 'teams' as never)).toThrow(/iterate: resource must be one of/);
    expect(() => iterate(client, 'profiles', { email: 'x' })).toThrow(/the profile list takes no filters/);
  });
});

describe('an aborted call', () => {
  it("keeps the abort's reason as the error's cause", async () => {
    const reason = new Error('the program stopped it');
    const ac = new AbortController();
    ac.abort(reason);
    const err = await client.listInvitations({}, ac.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelError);
    expect((err as Error).cause).toBe(reason);
    // A client made with the signal: every request it makes.
    const own = createClient({ baseUrl: stub.url, apiKey: stub.keys[0].live_key, signal: ac.signal });
    try {
      const e2 = await own.listTeams().catch((e: unknown) => e);
      expect(e2).toBeInstanceOf(CancelError);
      expect((e2 as Error).cause).toBe(reason);
    } finally {
      await own.close();
    }
    // Aborted while the search runs: iterate and listAll end with the same cause.
    const later = new AbortController();
    const loop = (async () => {
      for await (const _ of iterate(client, 'test-takers', {}, { signal: later.signal })) later.abort('enough');
    })();
    const e3 = await loop.catch((e: unknown) => e);
    expect(e3).toBeInstanceOf(CancelError);
    expect((e3 as Error).cause).toBe('enough');
  });
});
