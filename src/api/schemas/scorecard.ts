/**
 * The scorecard of a test taker.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { Mode, url } from './base.js';

// ---------------------------------------------------------------- scorecard

const scoreBase = {
  object: z.literal('score'),
  id: z.number().int(),
  display_name: z.string(),
  short_name: z.string(),
  description: z.string(),
  is_starred: z.boolean(),
  yellow_band: z.number().int(),
  test_taker_score: z.number().int().nullable(),
};
export const FacetScore = z.object(scoreBase).meta({ id: 'FacetScore' });
export const DimensionScore = z.object({ ...scoreBase, facets: z.array(FacetScore).optional() }).meta({ id: 'DimensionScore' });
export type FacetScore = z.infer<typeof FacetScore>;
export type DimensionScore = z.infer<typeof DimensionScore>;

// The sections of a scorecard's `scores`, in reference order (catalog.ts, which needs no zod).
export { SCORE_SECTIONS, type ScoreSection } from '../catalog.js';

const section = z.array(DimensionScore).nullable();
export const Scores = z
  .object({
    thinking_skills: section,
    personality_traits: section,
    career_interests: section,
    skill_survey_reference: section,
    structured_interview: section,
  })
  .meta({ id: 'Scores' });
export type Scores = z.infer<typeof Scores>;

export const Scorecard = z
  .object({
    mode: Mode,
    object: z.literal('scorecard'),
    test_taker_id: z.number().int(),
    invitation_id: z.number().int(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    career_navigation_profile_id: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    fitscore_raw: z.number().nullable(),
    five_star_score: z.number().int().min(1).max(5).nullable(),
    job_fit_percentage: z.number().nullable(),
    scorecard_url: url.nullable(),
    score_profile: z
      .object({ id: z.number().int(), display_name: z.string(), short_name: z.string(), riasec_profile: z.string().nullable() })
      .nullable(),
    riasec_profile: z.string().nullable(),
    scores: Scores,
  })
  .meta({ id: 'Scorecard' });
export type Scorecard = z.infer<typeof Scorecard>;
