import { describe, expect, it } from 'vitest';
import { JobfitError } from '../../src/core/errors.js';
import { cleanFilter, listComplete, minimumRequests, readAnswer } from '../../src/listing/complete-list.js';
import { itemId } from '../../src/listing/list-item.js';
import { generatePeople } from '../../src/stub/people.js';
import { type FakeItem, fakeList } from './fake-list.js';

function items(emails: string[], teams = 3): FakeItem[] {
  return emails.map((email, i) => ({ id: i + 1, email, team_id: 1 + (i % teams), custom_id: i % 4 === 0 ? `REQ-${i % 7}` : null }));
}

async function collect(list: FakeItem[], base: { team_id?: number; custom_id?: string } = {}) {
  const { fetchPage, calls } = fakeList(list);
  const got: FakeItem[] = [];
  const result = await listComplete(fetchPage, base, (it) => {
    got.push(it);
  });
  return { got, result, calls };
}

function expectExactlyOnce(got: FakeItem[], expected: FakeItem[]) {
  const ids = got.map((g) => g.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.sort((a, b) => a - b)).toEqual(expected.map((e) => e.id).sort((a, b) => a - b));
}

describe('listComplete (partition search on an in-memory list with the service rules)', () => {
  it('one request when everything fits in the first answer', async () => {
    const list = items(Array.from({ length: 30 }, (_, i) => `p${i}@x.org`));
    const { got, result } = await collect(list);
    expectExactlyOnce(got, list);
    expect(result).toEqual({ items: 30, requests: 1, total: 30, minimum: 1, created: 0 });
  });

  it('onTotal hears the base total_count once, before the search goes on', async () => {
    const list = items(Array.from({ length: 2000 }, (_, i) => `p${i}@x${i % 13}.org`));
    const { fetchPage, calls } = fakeList(list);
    const heard: Array<[number, number]> = [];
    const result = await listComplete(fetchPage, {}, () => {}, { onTotal: (n) => heard.push([n, calls.length]) });
    expect(heard).toEqual([[2000, 1]]);
    expect(result.items).toBe(2000);
  });

  it('two requests between 51 and 150 (the "@" filter raises the cap)', async () => {
    const list = items(Array.from({ length: 140 }, (_, i) => `p${i}@x.org`));
    const { got, result, calls } = await collect(list);
    expectExactlyOnce(got, list);
    expect(result.requests).toBe(2);
    expect(calls[1].email).toBe('@');
  });

  it('realistic generated people: exact, and within 5x of the minimum', async () => {
    for (const n of [1000, 3000, 10_000]) {
      const list = items(generatePeople(n, { seed: `t${n}` }).map((p) => p.email));
      const { got, result } = await collect(list);
      expectExactlyOnce(got, list);
      expect(result.total).toBe(n);
      expect(result.minimum).toBe(minimumRequests(n));
      expect(result.requests).toBeLessThanOrEqual(5 * result.minimum);
    }
  });

  it('one huge domain (2,000 at gmail.com) with names that do not end in a number', async () => {
    const first = ['anna', 'bob', 'carl', 'dora', 'eve', 'fritz', 'gina', 'hugo', 'ida', 'jon', 'kim', 'lea', 'max', 'nia', 'otto'];
    const last = ['smith', 'jones', 'brown', 'lee', 'garcia', 'kaur', 'ng', 'otieno', 'silva', 'weiss', 'novak', 'ivanova', 'sato', 'khan'];
    const emails: string[] = [];
    for (let i = 0; emails.length < 2000; i++) {
      const f = first[i % first.length];
      const l = last[Math.floor(i / first.length) % last.length];
      const sep = ['.', '_', '-', ''][Math.floor(i / (first.length * last.length)) % 4];
      const tail = Math.floor(i / (first.length * last.length * 4));
      emails.push(`${f}${sep}${l}${tail ? String.fromCharCode(97 + (tail % 26)) : ''}@gmail.com`);
    }
    for (let i = 0; i < 400; i++) emails.push(`user${i}@company${i % 40}.example`);
    const list = items(emails);
    const { got, result } = await collect(list);
    expectExactlyOnce(got, list);
    expect(result.requests).toBeLessThanOrEqual(10 * result.minimum);
  });

  it('pathological local parts: +tags, quotes, dots, one-letter locals, a local part that is a suffix of others', async () => {
    const emails = [
      ...Array.from({ length: 200 }, (_, i) => `a+tag${i}@same.io`),
      ...Array.from({ length: 60 }, (_, i) => `x${'.'.repeat(1 + (i % 3))}${i}@same.io`),
      'a@same.io',
      'ba@same.io',
      'cba@same.io',
      "o'neil@same.io",
      'q@same.io',
      '_@same.io',
      '-@same.io',
      ...Array.from({ length: 120 }, (_, i) => `z${i}@same.io.example`),
      'UPPER.Case@Same.IO',
    ];
    const list = items(emails);
    const { got, result } = await collect(list);
    expectExactlyOnce(got, list);
    expect(result.items).toBe(emails.length);
  });

  it('combines with team_id and custom_id base filters', async () => {
    const list = items(generatePeople(2500, { seed: 'teams' }).map((p) => p.email), 4);
    for (const team of [1, 2, 3, 4]) {
      const { got, result } = await collect(list, { team_id: team });
      const expected = list.filter((i) => i.team_id === team);
      expectExactlyOnce(got, expected);
      expect(result.total).toBe(expected.length);
    }
    const { got } = await collect(list, { custom_id: 'req-3' });
    expectExactlyOnce(
      got,
      list.filter((i) => i.custom_id?.toLowerCase().includes('req-3')),
    );
  });

  it('fails with a clear message when items cannot be reached (items without an email)', async () => {
    const list: FakeItem[] = [
      ...items(Array.from({ length: 300 }, (_, i) => `p${i}@x.org`)),
      ...Array.from({ length: 5 }, (_, i) => ({ id: 10_000 + i, email: 'no-at-sign', team_id: 1, custom_id: null })),
    ];
    // The five newest lack an @ and come first in the unfiltered answer; make them the oldest instead.
    for (const it of list.slice(-5)) it.id = -it.id;
    const { fetchPage } = fakeList(list);
    const err = await listComplete(fetchPage, {}, () => {}).catch((e) => e);
    expect(err).toBeInstanceOf(JobfitError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(/5 of 305 items could not be reached/);
  });

  it('streams items as they are found and stops on an error of onItem', async () => {
    const list = items(Array.from({ length: 500 }, (_, i) => `p${i}@x${i % 9}.org`));
    const { fetchPage } = fakeList(list);
    let n = 0;
    const err = await listComplete(fetchPage, {}, () => {
      n++;
      if (n === 10) throw new Error('disk full');
    }).catch((e) => e);
    expect(err.message).toBe('disk full');
  });
});

describe('the steps of listComplete', () => {
  it('cleanFilter: an empty team or custom id is no filter', () => {
    expect(cleanFilter({ team_id: '', custom_id: '' })).toEqual({});
    expect(cleanFilter({ team_id: 0, custom_id: 'REQ-1' })).toEqual({ team_id: 0, custom_id: 'REQ-1' });
  });

  it('readAnswer: the count and whether the answer was cut; no data array or count is an error', () => {
    expect(readAnswer({ total_count: 3, data: [1, 2, 3] }, 'items')).toEqual({ total: 3, hasMore: false });
    expect(readAnswer({ total_count: 3, data: [1] }, 'items')).toEqual({ total: 3, hasMore: true });
    expect(readAnswer({ total_count: 1, has_more: true, data: [1] }, 'items')).toEqual({ total: 1, hasMore: true });
    expect(() => readAnswer({ data: [] }, 'invitations')).toThrow('The service answered the list of invitations without a total_count; a complete list cannot be checked.');
    expect(() => readAnswer({ total_count: 1 } as never, 'invitations')).toThrow('without a data array');
  });

  it('itemId: numbers and numeric strings alike; anything else is an error', () => {
    expect(itemId({ id: 50001 }, 'items')).toBe('50001');
    expect(itemId({ id: '50001' }, 'items')).toBe('50001');
    expect(() => itemId({ id: 'x1' }, 'invitations')).toThrow(JobfitError);
  });
});
