/**
 * Test takers: the full object, the assessments assigned to one, and the list item.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { AccountRef, AssessmentRef, Mode, TeamRef, listOf, timestamp, url } from './base.js';

// ---------------------------------------------------------------- test takers

export const AssignedAssessment = z
  .object({
    id: z.number().int(),
    completed_at: timestamp.nullable(),
    language: z.string().nullable().meta({ description: 'locale id such as en or es; null until started' }),
    assessment: AssessmentRef,
  })
  .meta({ id: 'AssignedAssessment' });
export type AssignedAssessment = z.infer<typeof AssignedAssessment>;

export const TestTaker = z
  .object({
    mode: Mode,
    object: z.literal('test_taker'),
    id: z.number().int(),
    person_id: z.string().nullable(),
    custom_id: z.string().nullable(),
    invitation_id: z.number().int(),
    phone: z.string().nullable(),
    assigned_assessments: z.array(AssignedAssessment),
    scorecard_url: url.nullable(),
    job_fit_summary_url: url.nullable(),
    career_navigation_url: url.nullable(),
    career_navigation_profile_id: z.string().nullable(),
  })
  .meta({ id: 'TestTaker' });
export type TestTaker = z.infer<typeof TestTaker>;

/**
 * The reference states only `custom_id`, `person_id`, `team` and `account` (and
 * the list's items are addressed by `id`): everything else is optional, as a
 * strict server (`stub serve --minimal-fields`) leaves it out. Our stub sends it.
 */
export const TestTakerListItem = z
  .object({
    object: z.literal('test_taker_list_item').optional(),
    id: z.number().int(),
    invitation_id: z.number().int().optional(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    email: z.string().optional(),
    created_at: timestamp.optional(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    team: TeamRef,
    account: AccountRef,
  })
  .meta({ id: 'TestTakerListItem' });
export type TestTakerListItem = z.infer<typeof TestTakerListItem>;
export const TestTakerList = listOf(TestTakerListItem).meta({ id: 'TestTakerList' });
