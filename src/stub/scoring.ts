// Deterministic scoring for the stub. Pure functions: no I/O, no clock, no
// Math.random. Everything derives from a string seed (the store uses
// `${accountId}:${testTakerId}`), so the scorecard, the job-fit report, the CSV
// export and every process agree on every number.
//
// Decisions (see docs/stub-scoring.md for the full model):
// - Scores are integers 1-10 for every dimension and facet except the
//   ci-overall group (ci-flm and ci-2lm are 1-3, ci-overall 2-6).
// - Each dimension's scores come from its own seeded stream
//   (`${seed}|${short_name}`), so completing another assessment never changes
//   scores already shown.
// - thinking_skills needs Thinking (7). Prescreen (1) alone also yields
//   thinking_skills, but only the overall `think` score: a prescreen is a short
//   reasoning screen, so the three facets are listed with test_taker_score null.
//   personality_traits needs Personality (6); career_interests needs Career
//   Interests (8). Otherwise the section is null. skill_survey_reference and
//   structured_interview are always null.
// - The RIASEC code is the three highest of the six interest scores; ties go
//   to RIASEC order (R before I before A ...).
// - ci-flm: 3 when the test taker's first letter equals the profile's first
//   letter; 2 when either first letter appears elsewhere in the other's code;
//   1 otherwise. ci-2lm: compares the first two letters as unordered pairs:
//   3 when the pairs are equal, 2 when they share one letter, 1 when none.
//   Without a score profile the three ci-overall scores are null.
// - Fit (fitscore_raw, job_fit_percentage, stars) needs Personality and Career
//   Interests; Thinking joins the fit when its score exists.

import {
  CAREER_INTEREST_TYPES,
  type DimensionDef,
  type FacetDef,
  type FitTarget,
  type ScoreProfileDef,
  type SectionKey,
  TEST_ID,
  TRAIT_KEYS,
  dimensionsOf,
} from './catalog-content.js';
import type { DimensionScore, FacetScore, Scores } from '../api/schemas.js';
import { hashString, mulberry32 } from './random.js';

// ---------------------------------------------------------------- shapes
// The contract's types (src/api/schemas.ts), so what we return is what the
// routes must send.

export type { DimensionScore, FacetScore, Scores };

export interface FitScore {
  fitscore_raw: number | null;
  job_fit_percentage: number | null;
  five_star_score: number | null;
}

/** Raw scores by short_name, per section; a section is null when its assessment is not complete. */
export interface RawScores {
  thinking: Record<string, number | null> | null;
  personality: Record<string, number> | null;
  interests: Record<string, number> | null;
}

// ------------------------------------------------------------------ PRNG

export function rngFor(seed: string): () => number {
  return mulberry32(hashString(seed));
}

// --------------------------------------------------------------- helpers

/** Rounds half away from zero at `places` decimals, immune to 1.0005-style float noise. */
export function roundTo(x: number, places: number): number {
  const f = 10 ** places;
  return Math.sign(x) * (Math.round(Math.abs(x) * f + 1e-9) / f);
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

function has(completed: readonly number[], id: number): boolean {
  return completed.includes(id);
}

/** One dimension: a latent level, facets scattered around it, overall = rounded facet mean. */
function scoreDimension(seed: string, d: DimensionDef): Record<string, number> {
  const rng = rngFor(`${seed}|${d.short_name}`);
  // Triangular around the middle: extreme scores are rarer than middling ones.
  const latent = 1 + 9 * ((rng() + rng()) / 2);
  const out: Record<string, number> = {};
  let sum = 0;
  for (const f of d.facets) {
    const s = clamp(Math.round(latent + (rng() - 0.5) * 4), 1, 10);
    out[f.short_name] = s;
    sum += s;
  }
  out[d.short_name] = clamp(Math.round(sum / d.facets.length), 1, 10);
  return out;
}

// ------------------------------------------------------------ raw scores

export function rawScores(seed: string, completed: readonly number[]): RawScores {
  let thinking: RawScores['thinking'] = null;
  const think = dimensionsOf('thinking_skills')[0];
  if (has(completed, TEST_ID.thinking)) {
    thinking = scoreDimension(seed, think);
  } else if (has(completed, TEST_ID.prescreen)) {
    const full = scoreDimension(seed, think);
    thinking = { [think.short_name]: full[think.short_name] };
    for (const f of think.facets) thinking[f.short_name] = null;
  }
  let personality: RawScores['personality'] = null;
  if (has(completed, TEST_ID.personality)) {
    personality = {};
    for (const d of dimensionsOf('personality_traits')) Object.assign(personality, scoreDimension(seed, d));
  }
  let interests: RawScores['interests'] = null;
  if (has(completed, TEST_ID.interests)) {
    interests = {};
    for (const d of dimensionsOf('career_interests')) {
      if (d.short_name === 'ci-overall') continue;
      Object.assign(interests, scoreDimension(seed, d));
    }
  }
  return { thinking, personality, interests };
}

// ---------------------------------------------------------------- RIASEC

/** The interest types ordered by score, highest first; ties in RIASEC order. */
export function rankedInterests(interests: Record<string, number>) {
  return CAREER_INTEREST_TYPES.map((t, i) => ({ t, i, s: interests[t.short_name] })).sort(
    (a, b) => b.s - a.s || a.i - b.i,
  );
}

/** Three-letter code from interest scores keyed by ci-* short_name. */
export function riasecFromScores(interests: Record<string, number>): string {
  return rankedInterests(interests)
    .slice(0, 3)
    .map((x) => x.t.letter)
    .join('');
}

/** The test taker's RIASEC code, or null while Career Interests is not complete. */
export function riasecOf(seed: string, completed: readonly number[]): string | null {
  const { interests } = rawScores(seed, completed);
  return interests ? riasecFromScores(interests) : null;
}

/** One-letter match, 3 green / 2 yellow / 1 red. */
export function oneLetterMatch(taker: string, profile: string): 1 | 2 | 3 {
  if (taker[0] === profile[0]) return 3;
  if (profile.slice(1).includes(taker[0]) || taker.slice(1).includes(profile[0])) return 2;
  return 1;
}

/** Two-letter match on the first two letters as unordered pairs, 3 / 2 / 1. */
export function twoLetterMatch(taker: string, profile: string): 1 | 2 | 3 {
  const a = taker.slice(0, 2);
  const b = profile.slice(0, 2);
  const shared = [...a].filter((c) => b.includes(c)).length;
  return shared >= 2 ? 3 : shared === 1 ? 2 : 1;
}

// ------------------------------------------------------------------- fit

/**
 * Raw fit in [0, 1]: a weighted mean of the personality component (closeness
 * of each trait to the target, by importance), the interest component (code
 * match plus strength of the target's interests) and, when a thinking score
 * exists, the thinking component (meeting the minimum).
 */
export function rawFit(raw: RawScores, target: FitTarget): number | null {
  if (!raw.personality || !raw.interests) return null;
  let pw = 0;
  let ps = 0;
  for (const k of TRAIT_KEYS) {
    const { target: t, weight } = target.traits[k];
    ps += weight * (1 - Math.abs(raw.personality[k] - t) / 9);
    pw += weight;
  }
  const personality = pw === 0 ? 1 : ps / pw;

  const code = riasecFromScores(raw.interests);
  const match = (oneLetterMatch(code, target.riasec) + twoLetterMatch(code, target.riasec) - 2) / 4;
  let strength = 0;
  [3, 2, 1].forEach((w, i) => {
    const type = CAREER_INTEREST_TYPES.find((t) => t.letter === target.riasec[i]);
    if (type) strength += (w * (raw.interests![type.short_name] - 1)) / 9;
  });
  const interests = 0.5 * match + 0.5 * (strength / 6);

  let total = 4 * personality + 5 * interests;
  let weights = 9;
  const think = raw.thinking?.think;
  if (think != null && target.thinking && target.thinking.weight > 0) {
    const t = think >= target.thinking.min ? 1 : Math.max(0, 1 - (target.thinking.min - think) / 5);
    total += target.thinking.weight * t;
    weights += target.thinking.weight;
  }
  return total / weights;
}

/** Percentage from the rounded raw score: a logistic curve centred on a typical fit. */
export function percentageFromRaw(fitscoreRaw: number): number {
  return roundTo(100 / (1 + Math.exp(-(fitscoreRaw - 0.6) * 14)), 1);
}

/** 5 at 80% and above, 4 at 60, 3 at 40, 2 at 20, else 1. */
export function starsFromPercentage(pct: number): 1 | 2 | 3 | 4 | 5 {
  if (pct >= 80) return 5;
  if (pct >= 60) return 4;
  if (pct >= 40) return 3;
  if (pct >= 20) return 2;
  return 1;
}

export function fitOf(raw: RawScores, target: FitTarget): FitScore {
  const r = rawFit(raw, target);
  if (r === null) return { fitscore_raw: null, job_fit_percentage: null, five_star_score: null };
  const fitscore_raw = roundTo(r, 3);
  const job_fit_percentage = percentageFromRaw(fitscore_raw);
  return { fitscore_raw, job_fit_percentage, five_star_score: starsFromPercentage(job_fit_percentage) };
}

/** Fit for a score profile; all null without a profile or before Personality and Career Interests are complete. */
export function fitFor(seed: string, completed: readonly number[], scoreProfile: ScoreProfileDef | null): FitScore {
  if (!scoreProfile) return { fitscore_raw: null, job_fit_percentage: null, five_star_score: null };
  return fitOf(rawScores(seed, completed), scoreProfile);
}

// ------------------------------------------------------------ scorecard

function scoreObject(def: FacetDef, score: number | null): FacetScore {
  return {
    object: 'score',
    id: def.id,
    display_name: def.display_name,
    short_name: def.short_name,
    description: def.description,
    is_starred: def.is_starred,
    yellow_band: def.yellow_band,
    test_taker_score: score,
  };
}

function sectionScores(section: SectionKey, values: Record<string, number | null>): DimensionScore[] {
  return dimensionsOf(section).map((d) => ({
    ...scoreObject(d, values[d.short_name] ?? null),
    facets: d.facets.map((f) => scoreObject(f, values[f.short_name] ?? null)),
  }));
}

/** The `scores` object of the scorecard. */
export function scoresFor(seed: string, completed: readonly number[], scoreProfile: ScoreProfileDef | null): Scores {
  const raw = rawScores(seed, completed);
  let careerInterests: DimensionScore[] | null = null;
  if (raw.interests) {
    const values: Record<string, number | null> = { ...raw.interests };
    if (scoreProfile) {
      const code = riasecFromScores(raw.interests);
      const flm = oneLetterMatch(code, scoreProfile.riasec_profile);
      const tlm = twoLetterMatch(code, scoreProfile.riasec_profile);
      values['ci-flm'] = flm;
      values['ci-2lm'] = tlm;
      values['ci-overall'] = flm + tlm;
    }
    careerInterests = sectionScores('career_interests', values);
  }
  return {
    thinking_skills: raw.thinking ? sectionScores('thinking_skills', raw.thinking) : null,
    personality_traits: raw.personality ? sectionScores('personality_traits', raw.personality) : null,
    career_interests: careerInterests,
    skill_survey_reference: null,
    structured_interview: null,
  };
}

/** Everything score-related on a scorecard, computed once, in the reference's field order. */
export function scorecardParts(
  seed: string,
  completed: readonly number[],
  scoreProfile: ScoreProfileDef | null,
): FitScore & { riasec_profile: string | null; scores: Scores } {
  const fit = fitFor(seed, completed, scoreProfile);
  return {
    fitscore_raw: fit.fitscore_raw,
    five_star_score: fit.five_star_score,
    job_fit_percentage: fit.job_fit_percentage,
    riasec_profile: riasecOf(seed, completed),
    scores: scoresFor(seed, completed, scoreProfile),
  };
}
