/**
 * What may be shown of a group. No output may show one person's demographic
 * value, so a group of fewer than --min-group people (default 5) is shown
 * only as "fewer than N": no count, no rate, no ratio, and it is kept out of
 * the comparison. LL144 allows leaving categories under 2% of the data out of
 * the impact ratios (--exclude-under 2%): they keep their counts and rates,
 * get no ratio, and the report names them as left out.
 */
import { UsageError } from '../core/errors.js';

export const DEFAULT_MIN_GROUP = 5;

export type GroupStatus = 'compared' | 'highest' | 'fewer_than_min_group' | 'under_exclude_share' | 'undisclosed' | 'no_one_scored';

export interface PrivacyRules {
  minGroup: number;
  /** Share of the section's people (0..1) under which a category gets no ratio; 0: none left out. */
  excludeUnder: number;
}

/** `--exclude-under 2%` (or `2`, or `0.5%`) as a share; refused outside 0..50%. */
export function parseShare(text: string | undefined): number {
  if (text === undefined) return 0;
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const v = m ? Number(m[1]) : Number.NaN;
  if (!(v >= 0 && v <= 50)) throw new UsageError(`--exclude-under "${text.slice(0, 20)}" is not a share; give a percentage from 0 to 50, such as 2%.`);
  return v / 100;
}

/** Whether a group's numbers may be shown at all. */
const shown = (people: number, r: PrivacyRules): boolean => people >= r.minGroup;

/** A group's status before the comparison (null: it takes part). */
export function statusBefore(g: { people: number; undisclosed: boolean }, sectionPeople: number, r: PrivacyRules): GroupStatus | null {
  if (!shown(g.people, r)) return 'fewer_than_min_group';
  if (g.undisclosed) return 'undisclosed';
  if (r.excludeUnder > 0 && g.people < r.excludeUnder * sectionPeople) return 'under_exclude_share';
  return null;
}

/** The words a person reads for a hidden group. */
export const fewerThan = (r: PrivacyRules): string => `fewer than ${r.minGroup}`;
