/**
 * Invitations: the full object and the list item.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { AccountRef, AssessmentRef, EmailTemplateRef, Mode, ScoreProfileRef, TeamRef, UserRef, listOf, participantLinks, timestamp, url } from './base.js';

// ---------------------------------------------------------------- invitations

export const Invitation = z
  .object({
    mode: Mode,
    object: z.literal('invitation'),
    id: z.number().int(),
    invited_by_user: UserRef.nullable(),
    created_at: timestamp,
    accepted_at: timestamp.nullable(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    send_via_email: z.boolean(),
    phone: z.string().nullable().meta({ description: 'E.164' }),
    send_via_sms: z.boolean(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    invitation_email_template: EmailTemplateRef.nullable(),
    ref_text: z.string().nullable(),
    congrats_email_template: EmailTemplateRef.nullable(),
    send_congrats_notification: z.boolean(),
    target_score_profile: ScoreProfileRef.nullable(),
    invitation_assessments: z.array(AssessmentRef),
    ...participantLinks,
    test_taker_id: z.number().int().nullable(),
    career_navigation_profile_id: z.string().nullable(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

export const InvitationListItem = z
  .object({
    object: z.literal('invitation_list_item'),
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    created_at: timestamp,
    accepted_at: timestamp.nullable(),
    assessment_url: url.nullable(),
    test_taker_id: z.number().int().nullable(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    team: TeamRef,
    account: AccountRef,
  })
  .meta({ id: 'InvitationListItem' });
export type InvitationListItem = z.infer<typeof InvitationListItem>;
export const InvitationList = listOf(InvitationListItem).meta({ id: 'InvitationList' });
