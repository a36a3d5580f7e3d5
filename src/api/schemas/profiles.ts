/**
 * Career navigation profiles.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { Mode, listOf, timestamp, url } from './base.js';

// ---------------------------------------------------------------- career navigation profiles

export const CareerNavigationProfile = z
  .object({
    mode: Mode,
    object: z.literal('career_navigation_profile'),
    id: z.string(),
    person_id: z.string().nullable(),
    test_taker_id: z.number().int(),
    career_navigation_url: url,
    exercises: z.record(z.string(), z.string()).meta({ description: 'keys seen: strengthsCareerInterests, targetJobName' }),
    plan_job_1: z.object({ jobName: z.string(), onetCode: z.string() }),
  })
  .meta({ id: 'CareerNavigationProfile' });
export type CareerNavigationProfile = z.infer<typeof CareerNavigationProfile>;

/**
 * The reference states only `custom_id` and `person_id` (and `id`, by which an
 * item is fetched): everything else is optional. `created_at` is also absent
 * from the items `profiles list --all` finds through the test takers.
 */
export const CareerNavigationProfileListItem = z
  .object({
    object: z.literal('career_navigation_profile_list_item').optional(),
    id: z.string(),
    test_taker_id: z.number().int().optional(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    career_navigation_url: url.optional(),
    created_at: timestamp.optional(),
  })
  .meta({ id: 'CareerNavigationProfileListItem' });
export type CareerNavigationProfileListItem = z.infer<typeof CareerNavigationProfileListItem>;
export const CareerNavigationProfileList = listOf(CareerNavigationProfileListItem).meta({ id: 'CareerNavigationProfileList' });
