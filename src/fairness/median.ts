/**
 * The scoring rate of New York City's Local Law 144 (6 RCNY § 5-300): for a
 * continuous score, the share of a group scoring above the median score of
 * the whole sample. Decisions (docs/fairness.md):
 * - the sample is every person scored for the profile in the export, whether
 *   or not the self-identification file has a row for them;
 * - the median of an even number of scores is the mean of the middle two;
 * - "above" is strictly above: a score equal to the median does not count,
 *   so with many ties at the median the rate of every group can be well
 *   under 50%;
 * - no scores: no median, and no scoring rate.
 */

/** The median of the scores (unrounded), or null for none. */
export function sampleMedian(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = Float64Array.from(xs).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Whether a score counts as selected under the scoring rate: strictly above the median. */
export const aboveMedian = (score: number, median: number): boolean => score > median;
