/**
 * A reader that stops holds the listing (issue 48, item 2): the engines
 * (complete-list.ts, guided-list.ts) hand items through a bounded stream
 * (item-stream.ts), and their searches wait for room before the next request
 * (InOrder.room). Memory is measured by a counter, not RSS: the distinct
 * items the service has returned minus those the reader has taken is what
 * the run holds ahead of the reader.
 */
import { describe, expect, it } from 'vitest';
import type { FetchPage } from '../../src/listing/complete-list.js';
import { listComplete } from '../../src/listing/complete-list.js';
import { listTestTakersComplete } from '../../src/listing/guided-list.js';
import { BACKLOG } from '../../src/listing/in-order.js';
import { HELD_AHEAD, streamListing } from '../../src/listing/item-stream.js';
import { generatePeople } from '../../src/stub/people.js';
import { type FakeItem, fakeList } from './fake-list.js';

const N = 12_000;
const CONCURRENCY = 8;
/** Queued deliveries, the stream's items, and the answers of the requests already in flight (at most 150 each). */
const BOUND = BACKLOG + HELD_AHEAD + (CONCURRENCY + 1) * 150;

/** A list route that counts the distinct items it has returned. */
function counted<T extends { id: number }>(route: FetchPage<T>) {
  const returned = new Set<number>();
  let calls = 0;
  const fetchPage: FetchPage<T> = async (q, s) => {
    calls++;
    const env = await route(q, s);
    for (const it of env.data) returned.add(it.id);
    return env;
  };
  return { fetchPage, returned, calls: () => calls };
}

/** Resolves once the route has had no request for a while: the search is waiting (or done). */
async function idle(calls: () => number): Promise<void> {
  let last = -1;
  let still = 0;
  while (still < 5) {
    await new Promise((r) => setTimeout(r, 20));
    still = calls() === last ? still + 1 : 0;
    last = calls();
  }
}

function people(n: number): FakeItem[] {
  return generatePeople(n, { seed: 'stops' }).map((p, i) => ({ id: i + 1, email: p.email, team_id: 1, custom_id: null }));
}

/** Reads `first` items, stops until the route is idle, measures, then reads the rest. */
async function readWithAPause(listing: AsyncIterable<unknown>, returned: Set<number>, calls: () => number, first: number) {
  const ids = new Set<number>();
  let heldWhileStopped = -1;
  for await (const it of listing) {
    ids.add((it as { id: number }).id);
    if (ids.size === first) {
      await idle(calls);
      heldWhileStopped = returned.size - ids.size;
    }
  }
  return { ids, heldWhileStopped };
}

describe('a reader that stops', () => {
  it('complete list: the search waits, holding at most a bound of items ahead of the reader, then finishes exactly', async () => {
    const list = people(N);
    const route = counted(fakeList(list).fetchPage);
    const listing = streamListing((put, signal) => listComplete(route.fetchPage, {}, put, { signal, concurrency: CONCURRENCY, noun: 'invitations' }));
    const { ids, heldWhileStopped } = await readWithAPause(listing, route.returned, route.calls, 100);
    expect(heldWhileStopped).toBeGreaterThan(0);
    expect(heldWhileStopped).toBeLessThanOrEqual(BOUND);
    expect(BOUND).toBeLessThan(N / 3);
    expect(ids.size).toBe(N);
    expect((await listing.result).items).toBe(N);
  });

  it('test takers guided by the invitations (items without an email): the same bound', async () => {
    const list = people(N);
    const invitations = fakeList(list.map((p) => ({ ...p, test_taker_id: 50_000 + p.id })) as FakeItem[]);
    const takers = fakeList(list.map((p) => ({ ...p, id: 50_000 + p.id })));
    const route = counted<{ id: number }>(async (q, s) => {
      const env = await takers.fetchPage(q, s);
      return { ...env, data: env.data.map((it) => ({ id: it.id })) };
    });
    const listing = streamListing((put, signal) => listTestTakersComplete(route.fetchPage, invitations.fetchPage, {}, put, { signal, concurrency: CONCURRENCY }));
    const { ids, heldWhileStopped } = await readWithAPause(listing, route.returned, route.calls, 100);
    expect(heldWhileStopped).toBeGreaterThan(0);
    expect(heldWhileStopped).toBeLessThanOrEqual(BOUND);
    expect(ids.size).toBe(N);
  });

  it('leaving the loop early stops the search: no request after it', async () => {
    const route = counted(fakeList(people(3_000)).fetchPage);
    const listing = streamListing((put, signal) => listComplete(route.fetchPage, {}, put, { signal, noun: 'invitations' }));
    let read = 0;
    for await (const _ of listing) if (++read === 10) break;
    const after = route.calls();
    await idle(route.calls);
    expect(route.calls()).toBe(after);
    await expect(listing.result).rejects.toThrow();
  });
});
