/**
 * The sync plan's rules, one by one, on hand-made list items and database
 * state (src/sync/plan.ts): what a run fetches and why it skips the rest,
 * the incremental cursor (list hash and `basis`), `--full`, the gone marks
 * and the count checks (the tables, each list against its total_count, and
 * who can have accepted since the invitation list was read).
 * The end-to-end behaviour is test/sync/sync-suite.ts (the lists that lie:
 * faults-suite.ts).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TEST_ID } from '../../src/api/catalog.js';
import {
  SKIP,
  completedOf,
  CLOCK_ALLOWANCE_MS,
  countCheck,
  droppedError,
  goneMarks,
  invitationNeedsFetch,
  jobFitReady,
  planItem,
  planWork,
  resultsToFetch,
  statedTotal,
  storedState,
  sinceVerdict,
  takerListCheck,
  takerNeedsFetch,
  unnamedTakers,
  wholeListCheck,
} from '../../src/sync/plan.js';
import { type Listed, IdSet, ListedItems, listed, present } from '../../src/sync/listed.js';
import { type Stored, type StoredTestTaker, storedFor } from '../../src/sync/stored.js';
import { listHash } from '../../src/sync/rows.js';
import type { SyncStore } from '../../src/sync/store.js';

const SPS = ['sales-rep', 'software-engineer'];
const incremental = { sps: SPS, full: false };
const full = { sps: SPS, full: true };
const DONE = `${TEST_ID.personality},${TEST_ID.interests}`;

function empty(): Stored {
  return { invitations: new Map(), takers: new Map(), cards: new Map(), reports: new Map(), profiles: new Set() };
}

function taker(id: number, over: Partial<StoredTestTaker> = {}): StoredTestTaker {
  return { id, gone_at: null, list_hash: 'h', basis: 'h.b', completed_tests: DONE, assessments_open: 0, career_navigation_profile_id: null, ...over };
}

/** A person stored complete and up to date: invitation 1, test taker 10, every result at basis "h.b". */
function upToDate(): Stored {
  const s = empty();
  s.invitations.set(1, { id: 1, list_hash: 'h', basis: 'h.b', gone_at: null });
  s.takers.set(10, taker(10));
  for (const sp of SPS) s.cards.set(`10/${sp}`, 'h.b');
  s.reports.set(10, 'h.b');
  return s;
}

const accepted: Listed = { id: 1, listHash: 'h', takerId: 10, teamId: 3 };
const P = 'fedcba9876543210';
const pending: Listed = { id: 2, listHash: P, takerId: null, teamId: 3 };

describe('listed: what the plan keeps of a list item', () => {
  it('reads ids sent as numbers or numeric strings alike, and hashes what the list promises', () => {
    const item = { id: '7', test_taker_id: '70', team: { id: '3', display_name: 'Sales' }, email: 'a@b.c', accepted_at: '2026-01-01T00:00:00Z' };
    const l = listed(item);
    expect(l).toEqual({ id: 7, listHash: listHash(item), takerId: 70, teamId: 3 });
    expect(listed({ ...item, id: 7, test_taker_id: 70 }).takerId).toBe(70);
  });

  it('an invitation not accepted has no test taker; an id that is not one throws', () => {
    expect(listed({ id: 8, test_taker_id: null }).takerId).toBeNull();
    expect(() => listed({ id: 'x' })).toThrow(/not an id/);
  });

  it('the hash is the one databases already store: 16 hex digits of the SHA-1 of the promised fields', () => {
    const item = { id: 7, first_name: 'Ada', email: 'a@b.c', team: { id: 3, display_name: 'Sales' } };
    const fields = [7, 'Ada', null, 'a@b.c', null, null, null, null, null, null, 3, 'Sales', null, null];
    expect(listHash(item)).toBe(createHash('sha1').update(JSON.stringify(fields)).digest('hex').slice(0, 16));
  });

  it('the hash moves when the list item changes, not when fields outside the list do', () => {
    const a = { id: 1, email: 'a@b.c', accepted_at: null };
    expect(listHash({ ...a, scorecard_url: 'u' })).toBe(listHash(a));
    expect(listHash({ ...a, accepted_at: '2026-01-01T00:00:00Z' })).not.toBe(listHash(a));
  });
});

describe('ListedItems: the list items a run holds', () => {
  it('gives back what it was given, past its first capacity, ids above 2^31 and no test taker or team included', () => {
    const given: Listed[] = Array.from({ length: 2500 }, (_, i) => ({
      id: 3_000_000_000 + i,
      listHash: listHash({ id: i }),
      takerId: i % 3 === 0 ? null : 4_000_000_000 + i,
      teamId: i % 5 === 0 ? null : i % 7,
    }));
    const items = ListedItems.of(given);
    expect(items.length).toBe(2500);
    expect([...items]).toEqual(given);
    expect(items.at(1)).toEqual(given[1]);
  });

  it('sortById puts the items in id order, each with its own fields, equal ids in the order given, past its first capacity', () => {
    const given: Listed[] = Array.from({ length: 2100 }, (_, i) => ({
      id: 3_000_000_000 + ((i * 7919) % 2000),
      listHash: listHash({ id: i }),
      takerId: i % 3 === 0 ? null : 4_000_000_000 + i,
      teamId: i % 5 === 0 ? null : i % 7,
    }));
    const items = ListedItems.of(given);
    items.sortById();
    const expected = given.map((g, i) => ({ g, i })).sort((a, b) => a.g.id - b.g.id || a.i - b.i).map((x) => x.g);
    expect(items.length).toBe(2100);
    expect([...items]).toEqual(expected);
    items.push(given[0]);
    expect(items.at(2100)).toEqual(given[0]);
  });

  it('sortById in place after a reserve: every item once, in id order, with its own fields', () => {
    const given: Listed[] = Array.from({ length: 5000 }, (_, i) => ({
      id: (i * 7919) % 5003,
      listHash: listHash({ id: i }),
      takerId: i % 4 === 0 ? null : i,
      teamId: i % 6 === 0 ? null : i % 11,
    }));
    const items = new ListedItems();
    items.push(given[0]);
    items.reserve(given.length);
    for (const g of given.slice(1)) items.push(g);
    items.sortById();
    expect([...items]).toEqual([...given].sort((a, b) => a.id - b.id));
  });

  it('keeps hashes with leading zeros, and refuses what is not a list hash', () => {
    const items = ListedItems.of([{ id: 1, listHash: '00000000000000ff', takerId: null, teamId: null }]);
    expect(items.at(0).listHash).toBe('00000000000000ff');
    expect(() => items.push({ id: 2, listHash: 'nope', takerId: null, teamId: null })).toThrow(/not a list hash/);
  });
});

describe('storedFor: what the plan compares, read for a slice of the list by key', () => {
  it('keys each table as the plan looks it up, and reads only the rows of the slice', async () => {
    const rows: Record<string, unknown[]> = {
      test_takers: [taker(10, { career_navigation_profile_id: 'cnp-1' }), taker(11, { basis: 'k.c', completed_tests: '', career_navigation_profile_id: "o'neil" }), taker(12)],
      invitations: [
        { id: 1, list_hash: 'h', basis: 'h.b', gone_at: null },
        { id: 2, list_hash: P, basis: '', gone_at: '2026-01-01T00:00:00Z' },
        { id: 3, list_hash: 'x', basis: '', gone_at: null },
      ],
      scorecards: [{ id: 10, sp: 'sales-rep', basis: 'h.b' }, { id: 11, sp: 'sales-rep', basis: 'old' }, { id: 12, sp: 'sales-rep', basis: 'x' }],
      job_fit_reports: [{ id: 10, basis: 'h.b' }, { id: 12, basis: 'x' }],
      career_navigation_profiles: [{ id: 'cnp-1' }, { id: "o'neil" }, { id: 'cnp-12' }],
    };
    const asked: string[] = [];
    // A database that answers allIn as SQL would: only the rows whose key is one of those named.
    const db = {
      allIn: async (select: string, column: string, keys: ReadonlyArray<number | string>) => {
        asked.push(`${select} WHERE ${column}`);
        const table = /FROM (\w+)/.exec(select)![1];
        const want = new Set<unknown>(keys);
        return rows[table].filter((r) => want.has((r as { id: never }).id));
      },
    } as unknown as SyncStore;
    const slice: Listed[] = [accepted, { id: 2, listHash: P, takerId: 11, teamId: null }];
    const s = await storedFor(db, slice);
    expect(asked.every((q) => / WHERE (id|test_taker_id)$/.test(q))).toBe(true);
    expect([...s.takers.keys()]).toEqual([10, 11]);
    expect(s.takers.get(11)).toEqual(taker(11, { basis: 'k.c', completed_tests: '', career_navigation_profile_id: "o'neil" }));
    expect([...s.invitations.values()]).toEqual([
      { id: 1, list_hash: 'h', basis: 'h.b', gone_at: null },
      { id: 2, list_hash: P, basis: '', gone_at: '2026-01-01T00:00:00Z' },
    ]);
    expect([...s.cards]).toEqual([['10/sales-rep', 'h.b'], ['11/sales-rep', 'old']]);
    expect([...s.reports]).toEqual([[10, 'h.b']]);
    expect([...s.profiles]).toEqual(['cnp-1', "o'neil"]);
    expect(planItem(accepted, { ...s, cards: new Map([...s.cards, ['10/software-engineer', 'h.b']]) }, incremental)).toBe(SKIP.person);
    asked.length = 0;
    expect(await storedFor(db, [])).toEqual({ invitations: new Map(), takers: new Map(), cards: new Map(), reports: new Map(), profiles: new Set() });
    expect(asked).toEqual([]);
  });
});

describe('planItem: what a run looks at', () => {
  it('everything new is looked at', () => {
    expect(planItem(accepted, empty(), incremental)).toBeUndefined();
    expect(planItem(pending, empty(), incremental)).toBeUndefined();
  });

  it('an invitation not accepted and unchanged in the list is skipped; changed, it is looked at', () => {
    const s = empty();
    s.invitations.set(2, { id: 2, list_hash: P, basis: '', gone_at: null });
    expect(planItem(pending, s, incremental)).toBe(SKIP.pending);
    expect(planItem({ ...pending, listHash: 'p2' }, s, incremental)).toBeUndefined();
  });

  it('a person complete, with results and invitation stored at that state, is skipped', () => {
    expect(planItem(accepted, upToDate(), incremental)).toBe(SKIP.person);
  });

  it('a person is looked at when anything moved: the list item, an open assessment, a result or the invitation behind', () => {
    expect(planItem({ ...accepted, listHash: 'h2' }, upToDate(), incremental)).toBeUndefined();
    const open = upToDate();
    open.takers.set(10, taker(10, { assessments_open: 1 }));
    expect(planItem(accepted, open, incremental)).toBeUndefined();
    const card = upToDate();
    card.cards.set('10/sales-rep', 'old');
    expect(planItem(accepted, card, incremental)).toBeUndefined();
    const report = upToDate();
    report.reports.delete(10);
    expect(planItem(accepted, report, incremental)).toBeUndefined();
    const inv = upToDate();
    inv.invitations.set(1, { id: 1, list_hash: 'h', basis: 'old', gone_at: null });
    expect(planItem(accepted, inv, incremental)).toBeUndefined();
    const profile = upToDate();
    profile.takers.set(10, taker(10, { career_navigation_profile_id: 'cnp-1' }));
    expect(planItem(accepted, profile, incremental)).toBeUndefined();
    profile.profiles.add('cnp-1');
    expect(planItem(accepted, profile, incremental)).toBe(SKIP.person);
  });

  it('a new score profile makes stored people be looked at again', () => {
    expect(planItem(accepted, upToDate(), { sps: [...SPS, 'nurse'], full: false })).toBeUndefined();
  });

  it('results that cannot exist yet are not waited for', () => {
    const s = upToDate();
    s.takers.set(10, taker(10, { completed_tests: '' }));
    s.cards.clear();
    s.reports.clear();
    expect(planItem(accepted, s, incremental)).toBe(SKIP.person);
    s.takers.set(10, taker(10, { completed_tests: String(TEST_ID.personality) }));
    for (const sp of SPS) s.cards.set(`10/${sp}`, 'h.b');
    expect(planItem(accepted, s, incremental)).toBe(SKIP.person);
  });

  it('--full looks at everything', () => {
    expect(planItem(accepted, upToDate(), full)).toBeUndefined();
    const s = empty();
    s.invitations.set(2, { id: 2, list_hash: P, basis: '', gone_at: null });
    expect(planItem(pending, s, full)).toBeUndefined();
  });
});

describe('planWork', () => {
  it('keeps list order, counts test takers and hands each skip reason on', () => {
    const reasons: string[] = [];
    const other: Listed = { id: 3, listHash: '0123456789abcdef', takerId: 30, teamId: null };
    const r = planWork([accepted, pending, other], upToDate(), incremental, (why) => reasons.push(why));
    expect([...r.work]).toEqual([pending, other]);
    expect(r.testTakers).toBe(2);
    expect(reasons).toEqual([SKIP.person]);
  });
});

describe('a person looked at', () => {
  it('the test taker is fetched again only when new, changed in the list, still open, or --full', () => {
    const t = taker(10);
    expect(takerNeedsFetch(undefined, accepted, false)).toBe(true);
    expect(takerNeedsFetch(t, accepted, false)).toBe(false);
    expect(takerNeedsFetch(t, { ...accepted, listHash: 'h2' }, false)).toBe(true);
    expect(takerNeedsFetch(taker(10, { assessments_open: 2 }), accepted, false)).toBe(true);
    expect(takerNeedsFetch(t, accepted, true)).toBe(true);
  });

  it('results are fetched when their basis is behind, in request order: scorecards, job-fit, profile', () => {
    const state = { basis: 'h.c', completed: completedOf(DONE), profileId: 'cnp-1' };
    expect(resultsToFetch(10, state, upToDate(), incremental)).toEqual({
      fetch: [{ kind: 'scorecard', sp: 'sales-rep' }, { kind: 'scorecard', sp: 'software-engineer' }, { kind: 'job_fit_report' }, { kind: 'career_navigation_profile', id: 'cnp-1' }],
      skips: [],
    });
  });

  it('results up to date or not ready are skipped, each with its reason', () => {
    const stored = upToDate();
    stored.profiles.add('cnp-1');
    const ready = storedState(taker(10, { career_navigation_profile_id: 'cnp-1' }));
    expect(resultsToFetch(10, ready, stored, incremental)).toEqual({ fetch: [], skips: [SKIP.scorecard, SKIP.scorecard, SKIP.jobFit, SKIP.profile] });
    const nothing = { basis: 'h.b', completed: completedOf(''), profileId: null };
    expect(resultsToFetch(10, nothing, empty(), incremental)).toEqual({ fetch: [], skips: [SKIP.noScorecard, SKIP.noScorecard, SKIP.noJobFit] });
    expect(resultsToFetch(10, ready, stored, full).fetch).toHaveLength(4);
  });

  it('the invitation is fetched when new, changed in the list, behind its test taker, or --full', () => {
    const inv = { id: 1, list_hash: 'h', basis: 'h.b', gone_at: null };
    expect(invitationNeedsFetch(inv, accepted, 'h.b', false)).toBe(false);
    expect(invitationNeedsFetch(undefined, accepted, 'h.b', false)).toBe(true);
    expect(invitationNeedsFetch(inv, { ...accepted, listHash: 'x' }, 'h.b', false)).toBe(true);
    expect(invitationNeedsFetch(inv, accepted, 'h.c', false)).toBe(true);
    expect(invitationNeedsFetch(inv, accepted, 'h.b', true)).toBe(true);
  });

  it('the job-fit report needs Personality and Career Interests', () => {
    expect(jobFitReady(completedOf(DONE))).toBe(true);
    expect(jobFitReady(completedOf(`${TEST_ID.personality},${TEST_ID.thinking}`))).toBe(false);
    expect(completedOf('')).toEqual(new Set());
  });
});

describe('what the service no longer has', () => {
  it('the listed test takers include those accepted after the list was read', () => {
    const p = present(ListedItems.of([{ ...accepted, listHash: P }, pending]), [20]);
    expect([1, 2, 3, 10, 20].map((id) => p.invitations.has(id))).toEqual([true, true, false, false, false]);
    expect([1, 10, 20, 30].map((id) => p.testTakers.has(id))).toEqual([false, true, true, false]);
    expect([p.invitations.size, p.testTakers.size]).toEqual([2, 2]);
  });

  it('an IdSet counts distinct ids and finds each, ids above 2^32 included', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => 5_000_000_000 - i * 7);
    const set = new IdSet([...ids, ...ids.slice(0, 10)]);
    expect(set.size).toBe(5000);
    expect(ids.every((id) => set.has(id))).toBe(true);
    expect([0, 5_000_000_001, ids[10] + 1].some((id) => set.has(id))).toBe(false);
    expect(new IdSet([]).has(1)).toBe(false);
  });

  it("a list's ids and test takers go to an IdSet in typed arrays of their own (the list stays as it was)", () => {
    const items = ListedItems.of([pending, { ...accepted, listHash: P }, { ...accepted, listHash: P, id: 3, takerId: 5 }]);
    const ids = items.idList();
    expect(ids).toBeInstanceOf(Float64Array);
    expect(new IdSet(ids).size).toBe(3);
    expect([...ids]).toEqual([1, 2, 3]);
    expect([...items.takerList([7])]).toEqual([10, 5, 7]);
    expect([...items].map((x) => x.id)).toEqual([2, 1, 3]);
    expect(present(items, []).testTakers.has(7)).toBe(false);
  });

  it('rows not listed are marked gone once; rows listed again come back', () => {
    const rows = [
      { id: 1, gone_at: null },
      { id: 2, gone_at: null },
      { id: 3, gone_at: '2026-01-01T00:00:00Z' },
      { id: 4, gone_at: '2026-01-01T00:00:00Z' },
    ];
    expect(goneMarks(rows, new Set([1, 4]))).toEqual({ gone: [2], back: [4] });
    expect(goneMarks([], new Set([1]))).toEqual({ gone: [], back: [] });
  });
});

describe('countCheck: the summary is the tables\'', () => {
  it('passes when the tables hold what the service lists', () => {
    expect(countCheck({ invitations: 5, testTakers: 3 }, { invitations: 5, testTakers: 3 }, 'r.sqlite')).toBeUndefined();
  });

  it('fails naming both counts when either differs', () => {
    expect(countCheck({ invitations: 5, testTakers: 3 }, { invitations: 6, testTakers: 3 }, 'r.sqlite')?.message).toBe(
      'The counts do not add up: the service lists 5 invitations and 3 test takers, r.sqlite holds 6 and 3.',
    );
    expect(countCheck({ invitations: 5, testTakers: 3 }, { invitations: 5, testTakers: 2 }, 'r.sqlite')).toBeDefined();
  });
});

describe('lists against their total_count', () => {
  const answer = (total_count: unknown, ids: unknown[]) => ({ mode: 'live', object: 'list', total_count, has_more: false, data: ids.map((id) => ({ id })) });

  it('statedTotal: a count as a number or a string of digits; anything else is none', () => {
    expect(statedTotal(answer(3, []))).toBe(3);
    expect(statedTotal(answer('3', []))).toBe(3);
    expect(statedTotal(answer(0, []))).toBe(0);
    for (const no of [undefined, null, -1, 1.5, 'three']) expect(statedTotal(answer(no, []))).toBeUndefined();
  });

  it('wholeListCheck: a list read whole holds what its count says; a list without one is taken as it is', () => {
    expect(wholeListCheck(answer(2, [1, 2]), 'teams')).toBeUndefined();
    expect(wholeListCheck(answer(undefined, [1, 2]), 'teams')).toBeUndefined();
    const err = wholeListCheck(answer(3, [1, 2]), 'teams');
    expect(err?.message).toBe("The counts do not add up: the service's list of teams says 3 (total_count) and holds 2.");
    expect(err?.exitCode).toBe(1);
    expect(wholeListCheck(answer(1, [1, 2]), 'users')?.message).toMatch(/users says 1 .* holds 2/);
  });

  it('takerListCheck: the test takers the invitations name are as many as the test-taker list counts', () => {
    const named = new IdSet([70001, 70002, 70003]);
    expect(takerListCheck(answer(3, [70003, 70002, 70001]), named)).toEqual({ since: 0 });
    // capped: the answer holds fewer items than its count, all named
    expect(takerListCheck(answer(3, [70003]), named)).toEqual({ since: 0 });
    // without a count: nothing to check
    expect(takerListCheck(answer(undefined, [70003]), named)).toEqual({ since: 0 });
    const over = takerListCheck(answer(4, [70003, 70002, 70001]), named);
    expect(over.error?.message).toBe("The counts do not add up: the service's list of test takers says 4 (total_count), the invitation list names 3.");
    expect(takerListCheck(answer(2, ['70002', '70001']), named).error).toBeDefined();
  });

  it('takerListCheck: test takers the answer names that the invitations do not were accepted since: counted, not missing', () => {
    const named = new IdSet([70001, 70002]);
    expect(takerListCheck(answer(3, ['70009', 70002, 70001]), named)).toEqual({ since: 1 });
    expect(takerListCheck(answer(4, [70009, 70002, 70001]), named).error?.message).toBe(
      "The counts do not add up: the service's list of test takers says 4 (total_count), the invitation list names 2 (and 1 accepted since it was read).",
    );
    expect(() => takerListCheck(answer(3, ['n/a']), named)).toThrow(/"n\/a" as the id of an item of the list of test takers/);
  });

  it('unnamedTakers: the test takers of the answer the invitations do not name, once each, newest first', () => {
    const named = new IdSet([70001, 70002]);
    expect(unnamedTakers(answer(4, ['70009', 70002, 70008, 70009, 70001]), named)).toEqual([70009, 70008]);
    expect(unnamedTakers(answer(2, [70002, 70001]), named)).toEqual([]);
  });

  it('sinceVerdict: read without a test taker, or created after the read began (less the allowance), else dropped; unknown without what decides', () => {
    const clock = Date.parse('2026-11-25T08:00:00Z');
    // its invitation was read without a test taker: accepted after its page was read
    expect(sinceVerdict(null, undefined, undefined)).toBe('since');
    // read with another test taker: the list names someone else for it
    expect(sinceVerdict(70005, undefined, clock)).toBe('dropped');
    // not read: created after the read began, or within the allowance before it
    expect(sinceVerdict(undefined, clock + 1, clock)).toBe('since');
    expect(sinceVerdict(undefined, clock - CLOCK_ALLOWANCE_MS, clock)).toBe('since');
    expect(sinceVerdict(undefined, clock - CLOCK_ALLOWANCE_MS - 1, clock)).toBe('dropped');
    // what decides is not known: the weaker rule
    expect(sinceVerdict(undefined, undefined, clock)).toBe('unknown');
    expect(sinceVerdict(undefined, clock - 86_400_000, undefined)).toBe('unknown');
  });

  it('droppedError: one sentence naming the test takers and their invitations, five at most', () => {
    expect(droppedError([{ taker: 70200, invitation: 50200 }]).message).toBe(
      "The counts do not add up: the service's list of test takers shows 1 test taker the invitation list does not name, and who cannot have accepted after it was read: 70200 (invitation 50200).",
    );
    const many = droppedError(Array.from({ length: 7 }, (_, i) => ({ taker: 70001 + i, invitation: 50001 + i }))).message;
    expect(many).toMatch(/shows 7 test takers .*: 70001 \(invitation 50001\), .*70005 \(invitation 50005\) and 2 more\.$/);
  });
});
