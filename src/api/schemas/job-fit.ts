/**
 * The job fit report.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { Mode, participantLinks } from './base.js';

// ---------------------------------------------------------------- job fit report

const described = { id: z.number().int(), display_name: z.string(), short_name: z.string(), description: z.string() };

export const JobFitReport = z
  .object({
    mode: Mode,
    object: z.literal('job_fit_report'),
    test_taker_id: z.number().int(),
    invitation_id: z.number().int(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    career_navigation_profile_id: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    ...participantLinks,
    riasec_profile: z.string(),
    career_interests_profile: z.array(z.object({ ...described, rank: z.number().int().min(1).max(3) })),
    career_interests: z.array(
      z.object({
        object: z.literal('career_interest'),
        ...described,
        facets: z.array(
          z.object({
            object: z.literal('career_interest_facet'),
            ...described,
            test_taker_score_range: z.enum(['Low', 'Medium', 'High']),
          }),
        ),
      }),
    ),
    personality_traits_profile: z.array(z.object({ ...described, rank: z.number().int().min(1).max(5) })),
    personality_traits: z.array(
      z.object({
        object: z.literal('personality_trait'),
        ...described,
        facets: z.array(
          z.object({
            object: z.literal('personality_trait_facet'),
            ...described,
            anchor_low: z.string(),
            anchor_high: z.string(),
            test_taker_score_range: z.enum(['Less Pronounced', 'Moderately Pronounced', 'More Pronounced']),
          }),
        ),
      }),
    ),
    top_fit_occupations: z.array(
      z.object({
        object: z.literal('job_family_job_fit'),
        job_family_number: z.string(),
        job_family_name: z.string(),
        job_family_job_zone: z.number().int().min(1).max(5),
        job_fit_percentage: z.number().min(0).max(100),
        job_fit_star_rating: z.number().int().min(1).max(5),
        rank: z.number().int().min(1).max(15),
      }),
    ),
  })
  .meta({ id: 'JobFitReport' });
export type JobFitReport = z.infer<typeof JobFitReport>;
