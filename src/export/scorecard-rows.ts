/**
 * The wide, analyst-ready CSV of scorecards: one row per test taker, the same
 * columns for every row. Dimension columns follow the reference's dimension
 * catalog (API v2, "scorecard object"): each dimension's short_name, then its
 * facets'. Written here, not taken from the stub, because the CLI must work the
 * same against the real service. Short names a newer service adds are
 * appended after the catalog, in the order the first scorecard shows them.
 */
import { CATALOG_SHORT_NAMES, DIMENSION_CATALOG, SCORE_SECTIONS } from '../api/catalog.js';

export { CATALOG_SHORT_NAMES, DIMENSION_CATALOG };

export const IDENTITY_COLUMNS = ['test_taker_id', 'invitation_id', 'first_name', 'last_name', 'email', 'custom_id', 'person_id'] as const;
export const SUMMARY_COLUMNS = ['fitscore_raw', 'five_star_score', 'job_fit_percentage', 'riasec_profile'] as const;

interface ScoreLike {
  short_name?: unknown;
  test_taker_score?: unknown;
  facets?: unknown;
}

type ScorecardLike = Record<string, unknown> & { scores?: Record<string, unknown> | null };

/**
 * Calls `each` for every score object of a scorecard (dimensions and facets),
 * sections in reference order, then any section a newer service adds.
 */
function eachScore(card: unknown, each: (shortName: string, score: number | null) => void): void {
  const scores = (card as ScorecardLike | null)?.scores;
  if (!scores || typeof scores !== 'object') return;
  const visit = (s: ScoreLike) => {
    if (typeof s?.short_name !== 'string') return;
    each(s.short_name, typeof s.test_taker_score === 'number' ? s.test_taker_score : null);
    if (Array.isArray(s.facets)) for (const f of s.facets) visit(f as ScoreLike);
  };
  const visitSection = (list: unknown) => {
    if (Array.isArray(list)) for (const d of list) visit(d as ScoreLike);
  };
  for (const key of SCORE_SECTIONS) visitSection(scores[key]);
  for (const key of Object.keys(scores)) if (!(SCORE_SECTIONS as readonly string[]).includes(key)) visitSection(scores[key]);
}

/** Every score object of a scorecard (dimensions and facets), in the order given. */
export function scoreEntries(card: unknown): Array<{ short_name: string; score: number | null }> {
  const out: Array<{ short_name: string; score: number | null }> = [];
  eachScore(card, (short_name, score) => out.push({ short_name, score }));
  return out;
}

/** A scorecard holds results: a score of any section or a fit for the profile. */
export function hasResults(card: unknown): boolean {
  const c = card as ScorecardLike | null;
  if (!c) return false;
  if (c.five_star_score != null || c.fitscore_raw != null || c.job_fit_percentage != null) return true;
  return scoreEntries(c).some((e) => e.score !== null);
}

/** The fixed header: identity, summary, then the catalog (plus short names a newer service adds, from `sample`). */
export function scorecardColumns(sample?: unknown): string[] {
  const known = new Set(CATALOG_SHORT_NAMES);
  const extra: string[] = [];
  if (sample) {
    for (const e of scoreEntries(sample)) {
      if (!known.has(e.short_name)) {
        known.add(e.short_name);
        extra.push(e.short_name);
      }
    }
  }
  return [...IDENTITY_COLUMNS, ...SUMMARY_COLUMNS, ...CATALOG_SHORT_NAMES, ...extra];
}

/** One flat row of the wide CSV; short names missing from the scorecard stay empty (null). */
export function scorecardCsvRow(card: unknown): Record<string, string | number | null> {
  const c = (card ?? {}) as ScorecardLike;
  const row: Record<string, string | number | null> = {};
  const scalar = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : null);
  for (const k of IDENTITY_COLUMNS) row[k] = scalar(c[k]);
  for (const k of SUMMARY_COLUMNS) row[k] = scalar(c[k]);
  eachScore(c, (name, score) => {
    row[name] = score;
  });
  return row;
}
