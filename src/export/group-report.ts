/**
 * Group reports, built from a complete export (the service has none in its
 * API). Definitions, per group (a team, or a custom_id value):
 * - invited: invitations in the group;
 * - accepted: those invitations that have a test taker;
 * - completed: those test takers whose scorecard for the score profile has a
 *   five_star_score;
 * - stars: how many completed test takers have each five-star score (sums to
 *   completed);
 * - median_job_fit_percentage: the median over test takers with a
 *   job_fit_percentage for the profile (null when none);
 * - top_riasec: the most common RIASEC codes of the scorecards, with counts
 *   (ties broken alphabetically), at most three.
 */

import { readId } from '../api/ids.js';

export type GroupBy = 'team' | 'custom_id';

export interface GroupStats {
  /** Team id, or the custom_id (null for invitations without one). */
  key: string | number | null;
  name: string;
  invited: number;
  accepted: number;
  completed: number;
  stars: { '1': number; '2': number; '3': number; '4': number; '5': number };
  median_job_fit_percentage: number | null;
  top_riasec: Array<{ code: string; count: number }>;
}

/** As the service sends it: ids may come as numbers or as numeric strings (readId). */
export interface InvitationLike {
  id: number | string;
  test_taker_id?: number | string | null;
  custom_id?: string | null;
  team?: { id: number | string; display_name?: string } | null;
}

/**
 * The test taker id of an invitation: null when nobody accepted it yet, else
 * the id read as the reference's integer (a number or a numeric string); any
 * other value throws rather than passing for "not accepted".
 */
export function takerIdOf(inv: InvitationLike): number | null {
  const v = inv.test_taker_id;
  return v === null || v === undefined ? null : readId(v, `test_taker_id of invitation ${String(inv.id).slice(0, 20)}`);
}

export interface ScorecardLike {
  five_star_score?: number | null;
  job_fit_percentage?: number | null;
  riasec_profile?: string | null;
}

interface Acc {
  /** The key in `groups` (JSON of `key`): the one string every test taker of the group points at. */
  id: string;
  key: string | number | null;
  name: string;
  invited: number;
  accepted: number;
  stars: number[];
  fits: number[];
  riasec: Map<string, number>;
}

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const v = s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  return Math.round(v * 100) / 100;
}

/** Accumulates invitations and scorecards into groups; order of arrival does not matter. */
export class GroupReport {
  private readonly groups = new Map<string, Acc>();
  /** test_taker_id → group key */
  private readonly takerGroup = new Map<number, string>();

  constructor(readonly groupBy: GroupBy) {}

  private groupOf(inv: InvitationLike): Acc {
    const teamId = inv.team?.id === undefined || inv.team?.id === null ? null : readId(inv.team.id, `team id of invitation ${String(inv.id).slice(0, 20)}`);
    const key = this.groupBy === 'team' ? teamId : (inv.custom_id ?? null);
    const name = this.groupBy === 'team' ? (inv.team?.display_name ?? `team ${teamId ?? '?'}`) : (inv.custom_id ?? '(no custom_id)');
    const k = JSON.stringify(key);
    let g = this.groups.get(k);
    if (!g) {
      g = { id: k, key, name, invited: 0, accepted: 0, stars: [0, 0, 0, 0, 0], fits: [], riasec: new Map() };
      this.groups.set(k, g);
    }
    return g;
  }

  addInvitation(inv: InvitationLike): void {
    const g = this.groupOf(inv);
    const taker = takerIdOf(inv);
    g.invited++;
    if (taker !== null) {
      g.accepted++;
      // The group's own key string, not a new one per person: 100,000 test takers kept 100,000 copies (issue 47).
      this.takerGroup.set(taker, g.id);
    }
  }

  addScorecard(testTakerId: number, card: ScorecardLike): void {
    const k = this.takerGroup.get(testTakerId);
    const g = k === undefined ? undefined : this.groups.get(k);
    if (!g) return;
    const s = card.five_star_score;
    if (typeof s === 'number' && s >= 1 && s <= 5) g.stars[Math.round(s) - 1]++;
    if (typeof card.job_fit_percentage === 'number') g.fits.push(card.job_fit_percentage);
    if (typeof card.riasec_profile === 'string' && card.riasec_profile) g.riasec.set(card.riasec_profile, (g.riasec.get(card.riasec_profile) ?? 0) + 1);
  }

  /** The group a test taker's scorecard counts in, as `groupId(stats.key)` names it (undefined: not invited here). */
  groupOfTaker(testTakerId: number): string | undefined {
    return this.takerGroup.get(testTakerId);
  }

  private stats(g: Acc): GroupStats {
    const [s1, s2, s3, s4, s5] = g.stars;
    return {
      key: g.key,
      name: g.name,
      invited: g.invited,
      accepted: g.accepted,
      completed: s1 + s2 + s3 + s4 + s5,
      stars: { '1': s1, '2': s2, '3': s3, '4': s4, '5': s5 },
      median_job_fit_percentage: median(g.fits),
      top_riasec: [...g.riasec.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 3)
        .map(([code, count]) => ({ code, count })),
    };
  }

  /** Groups in a stable order: teams by id, custom ids alphabetically with "none" last. */
  result(): GroupStats[] {
    const all = [...this.groups.values()];
    all.sort((a, b) => {
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      return typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : String(a.key).localeCompare(String(b.key));
    });
    return all.map((g) => this.stats(g));
  }

  /** Every group together, as one more line for the totals. */
  total(): GroupStats {
    const t: Acc = { id: 'all', key: null, name: 'all', invited: 0, accepted: 0, stars: [0, 0, 0, 0, 0], fits: [], riasec: new Map() };
    for (const g of this.groups.values()) {
      t.invited += g.invited;
      t.accepted += g.accepted;
      g.stars.forEach((n, i) => {
        t.stars[i] += n;
      });
      t.fits.push(...g.fits);
      for (const [c, n] of g.riasec) t.riasec.set(c, (t.riasec.get(c) ?? 0) + n);
    }
    return this.stats(t);
  }
}

/** A group's id for groupOfTaker, from its stats' key. */
export const groupId = (key: GroupStats['key']): string => JSON.stringify(key);

export const REPORT_CSV_COLUMNS = [
  'group_by',
  'group',
  'name',
  'invited',
  'accepted',
  'completed',
  'stars_1',
  'stars_2',
  'stars_3',
  'stars_4',
  'stars_5',
  'median_job_fit_percentage',
  'top_riasec',
] as const;

/** One flat CSV row of a group. */
export function reportCsvRow(groupBy: GroupBy, g: GroupStats): Record<string, string | number | null> {
  return {
    group_by: groupBy,
    group: g.key,
    name: g.name,
    invited: g.invited,
    accepted: g.accepted,
    completed: g.completed,
    stars_1: g.stars['1'],
    stars_2: g.stars['2'],
    stars_3: g.stars['3'],
    stars_4: g.stars['4'],
    stars_5: g.stars['5'],
    median_job_fit_percentage: g.median_job_fit_percentage,
    top_riasec: g.top_riasec.map((r) => `${r.code}:${r.count}`).join(';'),
  };
}
