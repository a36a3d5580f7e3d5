/**
 * What `report -o html` needs beyond the group statistics: per group, the
 * job-fit histogram (10-point bins) and the candidates ranked by job fit.
 * Only the top N of each group are kept as scorecards arrive (memory stays
 * flat at any number of test takers, as in the JSON path); `all` keeps every
 * ranked candidate's few fields.
 *
 * Order: job fit % (highest first, none last), then five-star score, then
 * test taker id (so equal fits are in a stable order).
 */
import type { ScorecardLike } from '../../export/group-report.js';
import { binOf } from '../../format/html/page.js';
import type { RankedCandidate } from '../../format/html/group-report.js';

export interface RankableCard extends ScorecardLike {
  first_name?: string | null;
  last_name?: string | null;
  scorecard_url?: string | null;
}

function better(a: RankedCandidate, b: RankedCandidate): number {
  const fa = a.job_fit_percentage ?? -1;
  const fb = b.job_fit_percentage ?? -1;
  return fb - fa || (b.five_star_score ?? 0) - (a.five_star_score ?? 0) || a.test_taker_id - b.test_taker_id;
}

interface Ranked {
  top: RankedCandidate[];
  rankable: number;
  bins: number[];
}

export class Ranking {
  private readonly groups = new Map<string, Ranked>();
  private readonly totalBins = Array<number>(10).fill(0);

  /** `top`: how many to keep per group (Infinity: all). */
  constructor(private readonly top: number) {}

  private of(group: string): Ranked {
    let g = this.groups.get(group);
    if (!g) {
      g = { top: [], rankable: 0, bins: Array<number>(10).fill(0) };
      this.groups.set(group, g);
    }
    return g;
  }

  add(group: string, testTakerId: number, card: RankableCard): void {
    const fit = typeof card.job_fit_percentage === 'number' && Number.isFinite(card.job_fit_percentage) ? card.job_fit_percentage : null;
    const starsN = typeof card.five_star_score === 'number' ? card.five_star_score : null;
    if (fit === null && starsN === null) return;
    const g = this.of(group);
    if (fit !== null) {
      g.bins[binOf(fit)]++;
      this.totalBins[binOf(fit)]++;
    }
    g.rankable++;
    const c: RankedCandidate = {
      test_taker_id: testTakerId,
      name: [card.first_name, card.last_name].filter(Boolean).join(' '),
      job_fit_percentage: fit,
      five_star_score: starsN,
      riasec_profile: card.riasec_profile ?? null,
      scorecard_url: card.scorecard_url ?? null,
    };
    const list = g.top;
    if (list.length >= this.top && better(c, list[list.length - 1]) >= 0) return;
    // Binary search for the place, then cut back to N.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (better(list[mid], c) <= 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, c);
    if (list.length > this.top) list.pop();
  }

  group(group: string): { ranked: RankedCandidate[]; rankable: number; bins: number[] } {
    const g = this.groups.get(group);
    return { ranked: g?.top ?? [], rankable: g?.rankable ?? 0, bins: g?.bins ?? Array<number>(10).fill(0) };
  }

  totalBinsOf(): number[] {
    return this.totalBins;
  }
}
