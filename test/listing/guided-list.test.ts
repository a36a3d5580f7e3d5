/**
 * The steps of listTestTakersComplete (src/listing/guided-list.ts): a first
 * answer that holds everything, items that carry their email (the adaptive
 * search alone), items without one (the invitations guide the patterns), the
 * ids-only shortcut, and invitations that disagree with the test takers.
 */
import { describe, expect, it } from 'vitest';
import type { FetchPage } from '../../src/listing/complete-list.js';
import { listTestTakersComplete } from '../../src/listing/guided-list.js';
import { generatePeople } from '../../src/stub/people.js';
import { type FakeItem, fakeList } from './fake-list.js';

function world(n: number, o: { moved?: (i: number) => boolean } = {}) {
  const people = generatePeople(n, { seed: `guided${n}` });
  const invitations = people.map((p, i) => ({ id: i + 1, email: p.email, team_id: 1, custom_id: null, test_taker_id: 70_000 + i }));
  // A test taker whose email changed since the invitation: no planned pattern matches it.
  const takers: FakeItem[] = people.map((p, i) => ({ id: 70_000 + i, email: o.moved?.(i) ? `moved.${i}~@zz-elsewhere.example` : p.email, team_id: 1, custom_id: null }));
  return { invitations: fakeList(invitations as FakeItem[]), takers };
}

/** The test takers' list route, with or without the email on its items. */
function takersRoute(takers: FakeItem[], withEmail: boolean) {
  const { fetchPage, calls } = fakeList(takers);
  const route: FetchPage<{ id: number; email?: string }> = async (q, s) => {
    const env = await fetchPage(q, s);
    return withEmail ? env : { ...env, data: env.data.map((it) => ({ id: it.id })) };
  };
  return { route, calls };
}

async function run(n: number, withEmail: boolean, o: { idsOnly?: boolean; moved?: (i: number) => boolean } = {}) {
  const w = world(n, o);
  const t = takersRoute(w.takers, withEmail);
  const got = new Map<number, string | undefined>();
  let guided = false;
  const result = await listTestTakersComplete(t.route, w.invitations.fetchPage, {}, (it, email) => void got.set(Number(it.id), email), { idsOnly: o.idsOnly, onGuide: () => (guided = true) }).catch((e: unknown) => e);
  return { w, got, result, guided, takerCalls: t.calls, invitationCalls: w.invitations.calls };
}

describe('listTestTakersComplete', () => {
  it('everything in the first answer: one request, no guide', async () => {
    const r = await run(30, false);
    expect(r.result).toEqual({ items: 30, requests: 1, total: 30, minimum: 1, created: 0 });
    expect(r.guided).toBe(false);
    expect(r.invitationCalls).toHaveLength(0);
  });

  it('items that carry their email: the adaptive search alone, with each item\'s own email', async () => {
    const r = await run(600, true);
    expect(r.guided).toBe(false);
    expect(r.got.size).toBe(600);
    for (const t of r.w.takers) expect(r.got.get(t.id)).toBe(t.email);
  });

  it('items without an email: the invitations give the emails, the planned patterns find every test taker', async () => {
    const r = await run(600, false);
    expect(r.guided).toBe(true);
    expect(r.got.size).toBe(600);
    for (const t of r.w.takers) expect(r.got.get(t.id)).toBe(t.email);
    // Every pattern after the first request is a planned one (an email filter).
    expect(r.takerCalls.slice(1).every((q) => typeof q.email === 'string')).toBe(true);
  });

  it('ids only: the invitations\' test_taker_ids are the list when they add up (one request for test takers)', async () => {
    const r = await run(600, false, { idsOnly: true });
    expect(r.takerCalls).toHaveLength(1);
    expect([...r.got.keys()].sort()).toEqual(r.w.takers.map((t) => t.id).sort());
  });

  it('invitations whose emails differ from the test takers\': what the patterns missed is searched for, and the run is exact', async () => {
    const guided = await run(600, false);
    const r = await run(600, false, { moved: (i) => i % 40 === 0 });
    expect(r.got.size).toBe(600);
    expect((r.result as { items: number }).items).toBe(600);
    // The search for the rest costs requests the planned patterns alone did not need.
    expect((r.result as { requests: number }).requests).toBeGreaterThan((guided.result as { requests: number }).requests);
  });
});
