/**
 * Assessments and score profiles.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { listOf } from './base.js';

// ---------------------------------------------------------------- assessments, score profiles

export const Assessment = z
  .object({ object: z.literal('assessment').optional(), id: z.number().int(), display_name: z.string(), short_name: z.string() })
  .meta({ id: 'Assessment' });
export type Assessment = z.infer<typeof Assessment>;
export const AssessmentList = listOf(Assessment).meta({ id: 'AssessmentList' });

export const ScoreProfile = z
  .object({
    object: z.literal('score_profile').optional(),
    id: z.number().int(),
    display_name: z.string(),
    short_name: z.string(),
    riasec_profile: z.string().nullable(),
  })
  .meta({ id: 'ScoreProfile' });
export type ScoreProfile = z.infer<typeof ScoreProfile>;
export const ScoreProfileList = listOf(ScoreProfile).meta({ id: 'ScoreProfileList' });
