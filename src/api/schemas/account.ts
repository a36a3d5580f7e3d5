/**
 * Teams, users, email templates and the account.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { AssessmentRef, EmailTemplateRef, Mode, TeamRef, listOf, url } from './base.js';

// Teams first, as the contract has them (registered before the account's schemas).
export { TeamList, TeamListItem } from './teams.js';

// ---------------------------------------------------------------- users, templates, account

/** Reference: "not shown beyond webhook_endpoint and webhooks_enabled"; `id` and `display_name` are the account reference's. */
export const Account = z
  .object({
    mode: Mode,
    object: z.literal('account').optional(),
    id: z.number().int(),
    display_name: z.string(),
    webhook_endpoint: url.nullable(),
    webhooks_enabled: z.boolean(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof Account>;

/** Reference: "not shown beyond the inviter defaults"; the rest of the user reference stays required. */
export const User = z
  .object({
    object: z.literal('user').optional(),
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    default_team: TeamRef.nullable(),
    default_assessments: z.array(AssessmentRef),
    default_invitation_email_template: EmailTemplateRef.nullable(),
    default_congrats_email_template: EmailTemplateRef.nullable(),
    default_scheduling_link: url.nullable().optional(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;
export const UserList = listOf(User).meta({ id: 'UserList' });

export const EmailTemplateKind = z.enum(['invitation', 'congrats']);
/** Reference: the template reference `{ id, display_name }`, "with the teams they are assigned to". */
export const EmailTemplate = z
  .object({
    object: z.literal('email_template').optional(),
    id: z.number().int(),
    display_name: z.string(),
    template_type: EmailTemplateKind.optional(),
    teams: z.array(TeamRef),
  })
  .meta({ id: 'EmailTemplate' });
export type EmailTemplate = z.infer<typeof EmailTemplate>;
export const EmailTemplateList = listOf(EmailTemplate).meta({ id: 'EmailTemplateList' });
