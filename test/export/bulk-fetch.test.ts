import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/client/errors.js';
import { bulkFetch, recoveredLimit, sortFailure } from '../../src/export/bulk-fetch.js';
import { IdFeed, parseIdLines } from '../../src/export/id-feed.js';
import { GroupReport, median } from '../../src/export/group-report.js';
import { hasResults, scorecardColumns, scorecardCsvRow } from '../../src/export/scorecard-rows.js';

describe('bulkFetch', () => {
  it('keeps input order, bounds concurrency, reports failures and skips without stopping', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: Array<[number, string]> = [];
    const r = await bulkFetch(
      IdFeed.of(Array.from({ length: 60 }, (_, i) => i + 1)),
      async (id) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((res) => setTimeout(res, (id * 7) % 5));
        inFlight--;
        if (id % 10 === 0) throw Object.assign(new Error(`boom ${id}`), { status: 500 });
        if (id % 7 === 0) throw Object.assign(new Error('not ready'), { status: 400 });
        return id * 2;
      },
      {
        concurrency: 4,
        skipWhen: (e) => ((e as { status?: number }).status === 400 ? 'not ready' : undefined),
        onResult: (id, out) => {
          seen.push([id, out.kind]);
        },
      },
    );
    expect(peak).toBeLessThanOrEqual(4);
    expect(seen.map(([id]) => id)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(r.failed).toBe(6);
    expect(r.skipped).toBe(8); // 7,14,21,28,35,42,49,56 (70 is out of range)
    expect(r.ok).toBe(60 - 6 - 8);
  });

  it('a writer that is slow now and then still gets every outcome once, in order, with outcomes settling while it waits (one hand-over loop at a time)', async () => {
    const n = 3000;
    const got: number[] = [];
    const r = await bulkFetch(
      IdFeed.of(Array.from({ length: n }, (_, i) => i + 1)),
      async (id) => {
        if (id % 3 === 0) await new Promise((res) => setImmediate(res));
        return id;
      },
      {
        concurrency: 16,
        onResult: async (id) => {
          got.push(id);
          // Every 97th outcome the writer waits (a pipe that is full): the fetches go on meanwhile.
          if (id % 97 === 0) await new Promise((res) => setTimeout(res, 2));
          else if (id % 5 === 0) await Promise.resolve();
        },
      },
    );
    expect(r.ok).toBe(n);
    expect(got).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it('drains ids pushed while it runs', async () => {
    const feed = new IdFeed<number>();
    const got: number[] = [];
    const run = bulkFetch(feed, async (id) => id, { onResult: (id) => void got.push(id) });
    for (let i = 1; i <= 5; i++) {
      feed.push(i);
      await new Promise((r) => setTimeout(r, 1));
    }
    feed.close();
    await run;
    expect(got).toEqual([1, 2, 3, 4, 5]);
  });

  it('a writer that waits (back-pressure) holds the fetches back: at most 1024 outcomes ahead of it, all delivered in order', async () => {
    let fetched = 0;
    let delivered = 0;
    let mostAhead = 0;
    const order: number[] = [];
    const r = await bulkFetch(
      IdFeed.of(Array.from({ length: 5000 }, (_, i) => i + 1)),
      async (id) => {
        fetched++;
        return id;
      },
      {
        concurrency: 16,
        onResult: async (id) => {
          mostAhead = Math.max(mostAhead, fetched - delivered);
          // A full output: the writer waits for it to drain before the next outcome.
          if (id % 100 === 0) await new Promise((res) => setTimeout(res, 5));
          delivered++;
          order.push(id);
        },
      },
    );
    expect(r.ok).toBe(5000);
    expect(order).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(mostAhead).toBeGreaterThan(100);
    expect(mostAhead).toBeLessThanOrEqual(1024 + 16);
  });

  it('parses id lists and refuses junk with the line number', () => {
    expect(parseIdLines('1\n# c\n\n 22 \r\n3')).toEqual([1, 22, 3]);
    expect(() => parseIdLines('1\nabc')).toThrow(/Line 2/);
  });
});

describe('scorecard rows and group report', () => {
  const card = {
    test_taker_id: 5,
    invitation_id: 9,
    first_name: 'A',
    last_name: 'B',
    email: 'a@b.c',
    custom_id: null,
    person_id: 'P1',
    fitscore_raw: 0.5,
    five_star_score: 4,
    job_fit_percentage: 71.2,
    riasec_profile: 'RIA',
    scores: {
      thinking_skills: null,
      personality_traits: [{ short_name: 'agree', test_taker_score: 7, facets: [{ short_name: 'agree-comp', test_taker_score: 6 }] }],
      career_interests: null,
      skill_survey_reference: null,
      structured_interview: [{ short_name: 'si-new', test_taker_score: 3 }],
    },
  };
  it('wide row: fixed catalog header, empty where no score, new short names appended from a sample', () => {
    const cols = scorecardColumns();
    expect(cols.slice(0, 11)).toEqual(['test_taker_id', 'invitation_id', 'first_name', 'last_name', 'email', 'custom_id', 'person_id', 'fitscore_raw', 'five_star_score', 'job_fit_percentage', 'riasec_profile']);
    expect(cols[11]).toBe('think');
    expect(cols.at(-1)).toBe('ci-2lm');
    expect(scorecardColumns(card).at(-1)).toBe('si-new');
    const row = scorecardCsvRow(card);
    expect(row.agree).toBe(7);
    expect(row['agree-comp']).toBe(6);
    expect(row.think).toBeUndefined();
    expect(hasResults(card)).toBe(true);
    expect(hasResults({ ...card, five_star_score: null, fitscore_raw: null, job_fit_percentage: null, scores: {} })).toBe(false);
  });

  it('group report: counts, stars sum to completed, median, top RIASEC', () => {
    const r = new GroupReport('team');
    const team = { id: 3, display_name: 'Sales' };
    for (let i = 1; i <= 6; i++) r.addInvitation({ id: i, test_taker_id: i <= 4 ? 100 + i : null, team });
    r.addScorecard(101, { five_star_score: 5, job_fit_percentage: 80, riasec_profile: 'RIA' });
    r.addScorecard(102, { five_star_score: 3, job_fit_percentage: 60, riasec_profile: 'RIA' });
    r.addScorecard(103, { five_star_score: null, job_fit_percentage: null, riasec_profile: 'SEC' });
    const [g] = r.result();
    expect(g).toMatchObject({ key: 3, name: 'Sales', invited: 6, accepted: 4, completed: 2, median_job_fit_percentage: 70 });
    expect(g.stars).toEqual({ '1': 0, '2': 0, '3': 1, '4': 0, '5': 1 });
    expect(g.top_riasec).toEqual([{ code: 'RIA', count: 2 }, { code: 'SEC', count: 1 }]);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBeNull();
  });
});

describe('the rules of bulkFetch', () => {
  const longWait = new RateLimitError({ status: 429, method: 'GET', path: '/scorecards/1' }, 3600);
  const shortWait = new RateLimitError({ status: 429, method: 'GET', path: '/scorecards/1' }, 2);
  const base = { mayPark: true, stopping: false };

  it('sortFailure: Ctrl-C first, then a long Retry-After parks (while parking is allowed and the run goes on)', () => {
    const ac = new AbortController();
    ac.abort();
    expect(sortFailure(longWait, { ...base, signal: ac.signal })).toBe('abort');
    expect(sortFailure(Object.assign(new Error('x'), { name: 'AbortError' }), base)).toBe('abort');
    expect(sortFailure(longWait, base)).toBe('park');
    expect(sortFailure(longWait, { ...base, mayPark: false })).toEqual({ kind: 'failed', error: longWait });
    expect(sortFailure(shortWait, base)).toEqual({ kind: 'failed', error: shortWait });
  });

  it('sortFailure: a run already stopping stops every id; stopWhen stops the run; skipWhen skips', () => {
    const gone = new Error('gone');
    expect(sortFailure(longWait, { ...base, stopping: true })).toBe('stopping');
    expect(sortFailure(gone, { ...base, stopping: true })).toBe('stopping');
    expect(sortFailure(gone, { ...base, stopWhen: (e) => e === gone })).toBe('stop');
    expect(sortFailure(new Error('not ready'), { ...base, skipWhen: () => 'not ready yet' })).toEqual({ kind: 'skipped', reason: 'not ready yet' });
    expect(sortFailure(new Error('boom'), { ...base, skipWhen: () => undefined })).toMatchObject({ kind: 'failed' });
  });

  it('recoveredLimit: doubles back to the bound once the cool-down is over, not before', () => {
    expect(recoveredLimit(4, 16, 1000, 2000)).toBe(4);
    expect(recoveredLimit(4, 16, 3000, 2000)).toBe(8);
    expect(recoveredLimit(12, 16, 3000, 2000)).toBe(16);
    expect(recoveredLimit(16, 16, 3000, 2000)).toBe(16);
  });
});
