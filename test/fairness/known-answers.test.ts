/**
 * The statistics of `report --fairness` against answers computed
 * independently in exact fractions (test/fairness/known_answers.py, output
 * pinned in test/fixtures/fairness/known-answers.json): the Uniform Guidelines'
 * worked examples, an LL144-style sex × race/ethnicity table, Fisher's exact
 * test (R's fisher.test examples among them), and LL144's median with ties.
 * Ratios and p-values must agree to 4 decimals (p-values also to 1e-6 relative).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fisherExact } from '../../src/fairness/fisher.js';
import { aboveMedian, sampleMedian } from '../../src/fairness/median.js';
import { compareGroups } from '../../src/fairness/rates.js';

interface Row {
  group: string;
  n: number;
  k: number;
  rate: number | null;
  impact_ratio: number;
  below_four_fifths: boolean;
  fisher_p: number | null;
  cautions: string[];
  highest: boolean;
}
const known = JSON.parse(readFileSync(new URL('../fixtures/fairness/known-answers.json', import.meta.url), 'utf8')) as {
  cases: Record<string, Row[]>;
  fisher: Array<{ table: [number, number, number, number]; p: number }>;
  scoring: Record<string, { scores: Record<string, number[]>; median: number; groups: Row[] }>;
};

function expectSame(got: ReturnType<typeof compareGroups>, want: Row[]) {
  expect(got).toHaveLength(want.length);
  want.forEach((w, i) => {
    const g = got[i]!;
    expect(g.rate, w.group).toBeCloseTo(w.rate!, 4);
    expect(g.impact_ratio, w.group).toBeCloseTo(w.impact_ratio, 4);
    expect(g.below_four_fifths, w.group).toBe(w.below_four_fifths);
    expect(g.highest, w.group).toBe(w.highest);
    expect(g.cautions, w.group).toEqual(w.cautions);
    if (w.fisher_p === null) expect(g.fisher_p).toBeNull();
    else {
      expect(g.fisher_p!, w.group).toBeCloseTo(w.fisher_p, 4);
      expect(Math.abs(g.fisher_p! - w.fisher_p) / w.fisher_p, w.group).toBeLessThan(1e-6);
    }
  });
}

describe('known answers (exact fractions in Python)', () => {
  for (const [name, rows] of Object.entries(known.cases)) {
    it(`${name}: rates, impact ratios, four-fifths flags, Fisher p-values, cautions`, () => {
      expectSame(
        compareGroups(rows.map((r) => ({ n: r.n, k: r.k }))),
        rows,
      );
    });
  }

  it('Uniform Guidelines Q&A 12 reads as the Guidelines say: 60% and 30%, ratio 0.5, adverse impact indicated', () => {
    const [white, black] = compareGroups([
      { n: 80, k: 48 },
      { n: 40, k: 12 },
    ]);
    expect(white!.rate).toBe(0.6);
    expect(black!.rate).toBe(0.3);
    expect(black!.impact_ratio).toBeCloseTo(0.5, 10);
    expect(black!.below_four_fifths).toBe(true);
  });

  it('29 CFR 1607.4 D: 45/60 is flagged, 48/60 (exactly four fifths) and 51/60 are not', () => {
    const r = compareGroups([60, 45, 48, 51].map((k) => ({ n: 100, k })));
    expect(r.map((x) => x!.below_four_fifths)).toEqual([false, true, false, false]);
    expect(r.map((x) => Number(x!.impact_ratio!.toFixed(4)))).toEqual([1, 0.75, 0.8, 0.85]);
  });

  for (const t of known.fisher) {
    it(`Fisher's exact test of ${JSON.stringify(t.table)}: p = ${t.p.toPrecision(6)}`, () => {
      const p = fisherExact(...t.table);
      expect(p).toBeCloseTo(t.p, 4);
      expect(Math.abs(p - t.p) / t.p).toBeLessThan(1e-6);
    });
  }

  for (const [name, c] of Object.entries(known.scoring)) {
    it(`LL144 scoring rate (${name}): the median of all scores, strictly above it counts`, () => {
      const all = Object.values(c.scores).flat();
      const med = sampleMedian(all)!;
      expect(med).toBeCloseTo(c.median, 10);
      const counts = Object.values(c.scores).map((xs) => ({ n: xs.length, k: xs.filter((x) => aboveMedian(x, med)).length }));
      expectSame(compareGroups(counts), c.groups);
    });
  }

  it('no scores: no median; a group with no one scored has no rate and no ratio', () => {
    expect(sampleMedian([])).toBeNull();
    const [a, b] = compareGroups([
      { n: 10, k: 4 },
      { n: 0, k: 0 },
    ]);
    expect(a!.highest).toBe(true);
    expect(b).toMatchObject({ rate: null, impact_ratio: null, below_four_fifths: null, fisher_p: null });
  });

  it('nobody selected anywhere: no ratios (0 / 0 is not a ratio)', () => {
    const r = compareGroups([
      { n: 10, k: 0 },
      { n: 12, k: 0 },
    ]);
    expect(r.map((x) => x!.impact_ratio)).toEqual([null, null]);
  });
});
