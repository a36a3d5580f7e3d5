/**
 * Nothing is lost by construction: every id fed to bulkFetch gets exactly one
 * outcome, in order, at any size; a run that must stop stops at once; a list
 * whose answers never add up gives up within a bound that grows with the total;
 * test takers without an email on their items are still listed completely.
 */
import { describe, expect, it } from 'vitest';
import { JobfitError } from '../../src/core/errors.js';
import { ServiceGoneError } from '../../src/client/errors.js';
import { bulkFetch } from '../../src/export/bulk-fetch.js';
import { IdFeed } from '../../src/export/id-feed.js';
import { type FetchPage, listComplete, minimumRequests } from '../../src/listing/complete-list.js';
import { listTestTakersComplete, planCells } from '../../src/listing/guided-list.js';
import { isServiceGone } from '../../src/export/finish.js';
import { ExportTally } from '../../src/export/tally.js';
import { generatePeople } from '../../src/stub/people.js';
import { type FakeItem, fakeList } from '../listing/fake-list.js';

describe('bulkFetch accounts for every id', () => {
  it('20,000 ids pushed while they are drained: 20,000 outcomes, in order (the 4,097th id used to vanish)', async () => {
    const feed = new IdFeed<number>();
    const got: number[] = [];
    const run = bulkFetch(feed, async (id) => id, { concurrency: 16, onResult: (id) => void got.push(id) });
    for (let i = 0; i < 20_000; i++) {
      feed.push(i);
      if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
    }
    feed.close();
    const r = await run;
    expect(r.ok).toBe(20_000);
    expect(got).toHaveLength(20_000);
    expect(got.every((id, i) => id === i)).toBe(true);
  });

  it('IdFeed positions stay 0, 1, 2, ... across the dropped prefix', async () => {
    const feed = IdFeed.of(Array.from({ length: 10_000 }, (_, i) => i));
    for (let i = 0; i < 10_000; i++) expect((await feed.next())?.index).toBe(i);
    expect(await feed.next()).toBeUndefined();
  });

  it('stopWhen ends the run at once: no more ids taken, earlier outcomes delivered, the error thrown', async () => {
    const gone = new ServiceGoneError('http://127.0.0.1:9/v2', { cause: 'ECONNREFUSED', seconds: 15, failures: 4 });
    let calls = 0;
    const got: number[] = [];
    const run = bulkFetch(
      IdFeed.of(Array.from({ length: 10_000 }, (_, i) => i)),
      async (id) => {
        calls++;
        await new Promise((r) => setTimeout(r, 1));
        if (id >= 100) throw gone;
        return id;
      },
      { concurrency: 8, stopWhen: isServiceGone, onResult: (id) => void got.push(id) },
    );
    await expect(run).rejects.toBe(gone);
    expect(calls).toBeLessThan(150);
    expect(got).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

describe('Tally', () => {
  it('adds up, or names what is missing', () => {
    const t = new ExportTally('test takers');
    for (let i = 0; i < 5; i++) t.write();
    t.skip('without results yet');
    t.fail();
    expect(t.line({ listed: 7, totalCount: 7 })).toBe('7 test takers (total_count 7): 5 written, 1 without results yet, 1 failed.');
    expect(() => t.check(7, 7)).not.toThrow();
    expect(() => t.check(9)).toThrow(/2 of 9 test takers were neither written nor counted/);
    expect(() => t.check(7, 8)).toThrow(/found 7 test takers but the service reports 8/);
  });

  it('a write to the output failed: the rows were handed to it, not written, and the line says it is incomplete', () => {
    const t = new ExportTally('test takers');
    for (let i = 0; i < 5; i++) t.write();
    t.fail();
    expect(t.line({ listed: 6, totalCount: 6, writeFailed: true })).toBe('6 test takers (total_count 6): 5 handed to the output, 1 failed; a write to the output failed, so it is incomplete.');
    expect(t.line({ listed: 9, notDone: 3, elapsedMs: 2000, writeFailed: true })).toBe('9 test takers: 5 handed to the output, 1 failed, 3 not done, in 2.0s (3/s); a write to the output failed, so it is incomplete.');
    // A count that is not of rows keeps its name.
    const r = new ExportTally('invitations', 'counted with their scorecard');
    r.write();
    expect(r.line({ listed: 1, writeFailed: true })).toBe('1 invitations: 1 counted with their scorecard, 0 failed; a write to the output failed, so it is incomplete.');
  });
});

describe('give up early when the answers cannot add up', () => {
  it('has_more for ever (the same 50 items whatever the filter): stops within 8x the minimum (+128) and says what is open', async () => {
    let requests = 0;
    const items = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, email: `p${i}@x.org` }));
    const liar: FetchPage<{ id: number; email: string }> = async () => {
      requests++;
      return { total_count: 10_000, has_more: true, data: items };
    };
    const err = await listComplete(liar, {}, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobfitError);
    expect((err as Error).message).toMatch(/Gave up on the complete list of items after \d+ requests \(50 of 10000 found\)/);
    expect((err as Error).message).toMatch(/Not completed: \d+ groups?, the narrowest emails matching "[^"]+" \(\d+ of \d+ found\)/);
    expect(requests).toBeLessThanOrEqual(8 * minimumRequests(10_000) + 128);
  });
});

/** The fake list route with the items' emails hidden, as a strict server sends them. */
function strict(list: FakeItem[]) {
  const { fetchPage, calls } = fakeList(list);
  const hidden: FetchPage<{ id: number }> = async (q, s) => {
    const env = await fetchPage(q, s);
    return { ...env, data: env.data.map((it) => ({ id: it.id, custom_id: it.custom_id })) };
  };
  return { hidden, calls };
}

describe('test takers without an email on their items', () => {
  const people = generatePeople(10_000, { seed: 'strict' });
  // Invitation ids 1..10,130; the first 10,000 were accepted (test taker id = 50,000 + n).
  const invitations = [...people, ...generatePeople(130, { seed: 'pending' }).map((p) => ({ ...p, email: `pending.${p.email}` }))].map((p, i) => ({
    id: i + 1,
    email: p.email,
    team_id: 1 + (i % 3),
    custom_id: null,
    test_taker_id: i < 10_000 ? 50_000 + i : null,
  }));
  const takers: FakeItem[] = people.map((p, i) => ({ id: 50_000 + i, email: p.email, team_id: 1 + (i % 3), custom_id: null }));

  it('planCells covers every email with patterns of at most 150, near the minimum', () => {
    const emails = takers.map((t) => t.email.toLowerCase());
    const cells = planCells(emails);
    const covered = new Set<string>();
    for (const c of cells) {
      const m = emails.filter((e) => e.includes(c));
      expect(m.length).toBeLessThanOrEqual(150);
      for (const e of m) covered.add(e);
    }
    expect(covered.size).toBe(new Set(emails).size);
    expect(cells.length).toBeLessThanOrEqual(3 * minimumRequests(emails.length));
  });

  it('10,000 test takers, per team too: exact, within 5 x ceil(N/150) requests', async () => {
    const inv = fakeList(invitations as FakeItem[]);
    for (const team of [undefined, 2]) {
      const { hidden, calls } = strict(takers);
      const got: number[] = [];
      const before = inv.calls.length;
      const r = await listTestTakersComplete(hidden, inv.fetchPage, team === undefined ? {} : { team_id: team }, (t) => void got.push(Number(t.id)));
      const expected = takers.filter((t) => team === undefined || t.team_id === team).map((t) => t.id);
      expect(new Set(got).size).toBe(got.length);
      expect(got.sort((a, b) => a - b)).toEqual(expected);
      expect(r.requests).toBe(calls.length + inv.calls.length - before);
      // The bound holds for the whole list; one team of 3,333 needs up to ~8x (its invitations, then the test takers).
      expect(r.requests).toBeLessThanOrEqual((team === undefined ? 5 : 8) * minimumRequests(expected.length));
    }
  });

  it('ids only (scorecard --all): the invitations suffice when their test_taker_ids add up', async () => {
    const inv = fakeList(invitations as FakeItem[]);
    const { hidden, calls } = strict(takers);
    const got: number[] = [];
    const r = await listTestTakersComplete(hidden, inv.fetchPage, {}, (t) => void got.push(Number(t.id)), { idsOnly: true });
    expect(got.sort((a, b) => a - b)).toEqual(takers.map((t) => t.id));
    expect(calls).toHaveLength(1);
    expect(r.requests).toBe(1 + inv.calls.length);
  });
});
