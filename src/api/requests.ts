/**
 * Request bodies and queries, with the service's validation rules and messages.
 * The stub validates with these; the bulk CSV validator runs the same schema on
 * every row, so a row that passes here passes at the service (up to the
 * account lookups, which both do against the account's data).
 */
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import * as z from 'zod';
import { MSG } from './messages.js';
import { CUSTOM_ID_MAX } from './limits.js';

import { TEST_ID } from './catalog.js';

export { TEST_ID };

/** The service reports some fields under internal names (reference: Errors, rule 2). */
export const INTERNAL_FIELD_NAMES: Record<string, string> = {
  email: 'sent_to_email',
  phone: 'sent_to_phone',
};

/** Numbers written without a country code are read as this country's (docs/stub.md). */
const DEFAULT_PHONE_COUNTRY = 'US';

/** E.164 form of a phone number, or null when it is not a valid number. */
export function toE164(raw: string, defaultCountry = DEFAULT_PHONE_COUNTRY): string | null {
  const trimmed = raw.trim();
  if (!trimmed) return null;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * E.164 form of a number of a possible length for its country, in a range
 * libphonenumber does not list (a new mobile range); null when not even that.
 * The service normalises a phone to E.164 and requires one only for SMS
 * (reference: create body), so such a number is taken; the CLI warns, and
 * refuses it for an SMS (bulk/validate.ts).
 */
export function possibleE164(raw: string, defaultCountry = DEFAULT_PHONE_COUNTRY): string | null {
  const trimmed = raw.trim();
  if (!trimmed) return null;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry as CountryCode);
  return parsed?.isPossible() ? parsed.number : null;
}

/** A string field that must be present and non-empty. */
function required(what: string) {
  return z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${what} is required` : `${what} must be a string`) })
    .trim()
    .min(1, `${what} is required`);
}

const phone = z
  .string({ error: 'Phone must be a string' })
  .transform((value, ctx) => {
    if (value.trim() === '') return null;
    const e164 = toE164(value) ?? possibleE164(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'Invalid phone number' });
      return z.NEVER;
    }
    return e164;
  })
  .nullable();

const testIds = z
  .array(z.object({ test_id: z.number({ error: 'test_id must be an integer' }).int('test_id must be an integer') }), {
    error: 'assessments_to_assign must be an array of { test_id }',
  })
  .min(1, 'At least one assessment is required');

const customId = z.string({ error: 'Custom ID must be a string' }).max(CUSTOM_ID_MAX, 'Custom ID must be at most 50 characters').nullable();
const refText = z.string({ error: 'Reference text must be a string' }).max(60, 'Reference text must be at most 60 characters').nullable();
const int = (what: string) => z.number({ error: `${what} must be an integer` }).int(`${what} must be an integer`);
const bool = (what: string) => z.boolean({ error: `${what} must be a boolean` });

export const CreateInvitationBody = z
  .object({
    first_name: required('First name'),
    last_name: required('Last name'),
    // The reference gives one message for the participant email, missing or malformed alike.
    email: z.string({ error: 'Invalid email address' }).trim().min(1, 'Invalid email address').pipe(z.email('Invalid email address')),
    created_by_user_email: required('Inviter email'),
    person_id: z.string({ error: 'Person ID must be a string' }).nullable().optional(),
    custom_id: customId.optional(),
    phone: phone.optional(),
    team_id: int('team_id').optional(),
    assessments_to_assign: testIds.optional(),
    send_via_email: bool('send_via_email').optional(),
    send_via_sms: bool('send_via_sms').optional(),
    email_template_id: int('email_template_id').optional(),
    ref_text: refText.optional(),
  })
  .meta({ id: 'CreateInvitationBody' });
export type CreateInvitationBody = z.input<typeof CreateInvitationBody>;
export type CreateInvitationParsed = z.output<typeof CreateInvitationBody>;

export const UpdateInvitationBody = z
  .object({
    first_name: required('First name').optional(),
    last_name: required('Last name').optional(),
    email: z.string({ error: 'Invalid email address' }).trim().pipe(z.email('Invalid email address')).optional(),
    phone: phone.optional(),
    custom_id: customId.optional(),
    person_id: z.string({ error: 'Person ID must be a string' }).nullable().optional(),
    ref_text: refText.optional(),
    send_via_email: bool('send_via_email').optional(),
    send_via_sms: bool('send_via_sms').optional(),
    email_template_id: int('email_template_id').optional(),
    send_congrats_notification: bool('send_congrats_notification').optional(),
    congrats_email_template_id: int('congrats_email_template_id').optional(),
    assessments_to_assign: testIds.optional(),
  })
  .meta({ id: 'UpdateInvitationBody' });
export type UpdateInvitationBody = z.input<typeof UpdateInvitationBody>;

/** Query of GET /invitations and GET /test-takers, as documented (the stub reads the query itself). team_id is checked against the account by the service. */
export const ListQuery = z
  .object({
    team_id: z.number().int().optional().meta({ description: 'exact: a team of the account, else 400 team_id not found' }),
    custom_id: z.string().max(CUSTOM_ID_MAX, 'Custom ID must be at most 50 characters').optional().meta({ description: 'partial, case-insensitive; raises the cap to 150' }),
    email: z.string().max(255, 'Email must be at most 255 characters').optional().meta({ description: 'partial, case-insensitive; raises the cap to 150' }),
  })
  .meta({ id: 'ListQuery' });
export type ListQuery = z.infer<typeof ListQuery>;

/**
 * Documentation only (the stub reads `sp` itself, to answer 400 with the reference's messages when it is missing).
 * @public named by the route table (routes.ts) and resolved by name in route-schemas.ts, which knip cannot follow
 */
export const ScorecardQuery = z
  .object({ sp: z.string().meta({ description: 'short_name of a score profile enabled for the account (GET /score-profiles)' }) })
  .meta({ id: 'ScorecardQuery' });

// The list caps live in limits.ts (no zod: the stub reads them on every list).
export { LIST_CAP, LIST_CAP_FILTERED, listCap } from './limits.js';

/**
 * Turns a failed validation into the service's error body: one message
 * `<field>: <message>` for the documented rules (the first failing field, in
 * field order); for JSON type errors (a value of the wrong type) every issue,
 * as an array of such strings (docs/stub.md). `input` (the parsed body) tells
 * a missing field from one of the wrong type where the messages are alike.
 *
 * @public used by the stub through a lazy import knip cannot follow
 */
export function validationError(error: z.ZodError, input?: unknown): string | string[] {
  const lines = error.issues.map(issueMessage);
  const given = (i: z.core.$ZodIssue): boolean => {
    if (input === undefined || input === null || typeof input !== 'object') return true;
    const v = (input as Record<string, unknown>)[String(i.path[0])];
    return v !== undefined && v !== null;
  };
  const typeError = error.issues.some(
    (i) => i.code === 'invalid_type' && !/ is required$/.test(i.message) && given(i),
  );
  return typeError ? lines : lines[0];
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const head = issue.path[0];
  const field = typeof head === 'string' ? (INTERNAL_FIELD_NAMES[head] ?? head) : undefined;
  const rest = issue.path.slice(1).map(String);
  const name = field ? [field, ...rest].join('.') : undefined;
  return name ? `${name}: ${issue.message}` : issue.message;
}

/**
 * The rules of POST /invitations that need no account data, in the order the
 * service applies them after the inviter and team lookups. Returns the message
 * of the first broken rule, or null.
 */
export function assessmentRule(testIdsToAssign: number[]): string | null {
  const hasPrescreen = testIdsToAssign.includes(TEST_ID.prescreen);
  const hasOther = testIdsToAssign.some((id) => id !== TEST_ID.prescreen);
  return hasPrescreen && hasOther ? MSG.prescreenCombined : null;
}

export function smsRule(sendViaSms: boolean | undefined, phoneE164: string | null | undefined): string | null {
  return sendViaSms && !phoneE164 ? MSG.smsNeedsPhone : null;
}
