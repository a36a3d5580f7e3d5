/**
 * Rates, impact ratios, the four-fifths flag (29 CFR 1607.4 D), Fisher's
 * exact test against the highest-rate group, and the small-numbers cautions,
 * for groups already judged eligible (privacy.ts decides which are).
 */
import { expectedCells, fisherExact } from './fisher.js';

/** k of n: selected of scored, or completed of invited. */
export interface Count {
  n: number;
  k: number;
}

export type Caution = 'expected_under_5' | 'flips_if_one_person_moves';

export interface Comparison {
  rate: number | null;
  impact_ratio: number | null;
  /** Impact ratio under 0.8 (four-fifths rule); null without a ratio. */
  below_four_fifths: boolean | null;
  /** Fisher's exact test (two-sided) against the highest-rate group; null for that group itself. */
  fisher_p: number | null;
  cautions: Caution[];
  highest: boolean;
}


const rateOf = (c: Count): number | null => (c.n > 0 ? c.k / c.n : null);

/** The highest-rate group's index among the eligible (the first of equals); -1 when none has a rate. */
function highestIndex(counts: ReadonlyArray<Count | null>): number {
  let best = -1;
  let bestRate = -1;
  counts.forEach((c, i) => {
    const r = c && rateOf(c);
    if (r !== null && r !== undefined && r > bestRate) {
      best = i;
      bestRate = r;
    }
  });
  return best;
}

/** Whether the four-fifths flag of `c` against `top` is raised. */
// In whole numbers (5·k·N < 4·K·n), so that a ratio of exactly 0.8 is never flagged by a rounding.
const flagged = (c: Count, top: Count): boolean => 5 * c.k * top.n < 4 * top.k * c.n;

/**
 * Uniform Guidelines Q&A 21: a difference may not be adverse impact if moving
 * one person changes the finding. One more, or one fewer, selected in the
 * group or in the highest-rate group: does the flag change?
 */
function flipsWithOne(c: Count, top: Count): boolean {
  const now = flagged(c, top);
  const moves: Array<[Count, Count]> = [];
  if (c.k < c.n) moves.push([{ n: c.n, k: c.k + 1 }, top]);
  if (c.k > 0) moves.push([{ n: c.n, k: c.k - 1 }, top]);
  if (top.k < top.n) moves.push([c, { n: top.n, k: top.k + 1 }]);
  if (top.k > 0) moves.push([c, { n: top.n, k: top.k - 1 }]);
  return moves.some(([g, t]) => {
    const best = t.k * g.n >= g.k * t.n ? t : g;
    return flagged(g, best) !== now;
  });
}

/** Each eligible group (non-null) against the highest-rate one; null groups get null. */
export function compareGroups(counts: ReadonlyArray<Count | null>): Array<Comparison | null> {
  const h = highestIndex(counts);
  const top = h >= 0 ? counts[h] : null;
  return counts.map((c, i) => {
    if (!c) return null;
    const rate = rateOf(c);
    if (!top || top.k === 0 || rate === null) {
      return { rate, impact_ratio: null, below_four_fifths: null, fisher_p: null, cautions: [], highest: i === h };
    }
    // One division of whole numbers: the ratio correctly rounded (48/60 is 0.8, not 0.7999…).
    const ratio = (c.k * top.n) / (c.n * top.k);
    if (i === h) return { rate, impact_ratio: 1, below_four_fifths: false, fisher_p: null, cautions: [], highest: true };
    const cautions: Caution[] = [];
    if (expectedCells(c.k, c.n - c.k, top.k, top.n - top.k).some((e) => e < 5)) cautions.push('expected_under_5');
    if (flipsWithOne(c, top)) cautions.push('flips_if_one_person_moves');
    return { rate, impact_ratio: ratio, below_four_fifths: flagged(c, top), fisher_p: fisherExact(c.k, c.n - c.k, top.k, top.n - top.k), cautions, highest: false };
  });
}
