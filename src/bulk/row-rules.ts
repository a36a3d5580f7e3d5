/** The rules a row must meet besides its cells: its channels, assessments, account references, the contract's schema and the service's own rules. */
import { assessmentRule, type CreateInvitationParsed, INTERNAL_FIELD_NAMES, MSG, smsRule, TEST_ID } from '../api/index.js';
import type { AccountData, Resolved } from './account.js';
import type { Field } from './columns.js';
import { parseBool, parseSendVia } from './cells.js';
import type { RowDefaults } from './row-defaults.js';
import type { RowError } from './row-check.js';

const EXTERNAL_NAME: Record<string, string> = Object.fromEntries(Object.entries(INTERNAL_FIELD_NAMES).map(([k, v]) => [v, k]));

const CHANNEL_COLUMNS = [
  ['send_via_email', 'email'],
  ['send_via_sms', 'sms'],
] as const;
/** The v1 API's yes/no columns, one per assessment. */
const V1_COLUMNS = [
  ['assign_prescreen', TEST_ID.prescreen],
  ['assign_personality', TEST_ID.personality],
  ['assign_thinking', TEST_ID.thinking],
  ['assign_interests', TEST_ID.interests],
] as const;

/** A row's channels: the send_via column, then the two yes/no columns, then the defaults. */
export function readChannels(read: (f: Field) => string, d: Pick<RowDefaults, 'send_via_email' | 'send_via_sms'>): { email?: boolean; sms?: boolean; errors: RowError[] } {
  const out: { email?: boolean; sms?: boolean; errors: RowError[] } = { email: d.send_via_email, sms: d.send_via_sms, errors: [] };
  const via = read('send_via');
  if (via) {
    const r = parseSendVia(via);
    if (!r) out.errors.push({ field: 'send_via', reason: `"${via}" is not email, sms, email+sms or none` });
    else {
      out.email = r.email;
      out.sms = r.sms;
    }
  }
  for (const [f, key] of CHANNEL_COLUMNS) {
    const raw = read(f);
    const b = parseBool(raw);
    if (b === 'invalid') out.errors.push({ field: f, reason: `"${raw}" is not yes or no` });
    else if (b !== undefined) out[key] = b;
  }
  return out;
}

/** A cell resolved against the account (team, template): its value, else the default; a cell that does not resolve is an error (and the default stays). */
export function resolvedCell<T>(field: string, raw: string, resolve: (raw: string) => Resolved<T>, fallback: T | undefined, errors: RowError[]): T | undefined {
  if (!raw) return fallback;
  const r = resolve(raw);
  if (r.ok) return r.value;
  errors.push({ field, reason: r.reason });
  return fallback;
}

/** A row's assessments: a list cell, else the v1 API's yes/no assign* columns, else the defaults. */
export function readAssessments(read: (f: Field) => string, resolve: (raw: string) => Resolved<number[]>, fallback: number[] | undefined, errors: RowError[]): number[] | undefined {
  const list = read('assessments');
  if (list) return resolvedCell('assessments', list, resolve, fallback, errors);
  const v1: number[] = [];
  let any = false;
  for (const [f, id] of V1_COLUMNS) {
    const raw = read(f);
    const b = parseBool(raw);
    if (b === 'invalid') errors.push({ field: f, reason: `"${raw}" is not yes or no` });
    else if (b !== undefined) {
      any = true;
      if (b) v1.push(id);
    }
  }
  if (!any) return fallback;
  if (v1.length) return v1;
  errors.push({ field: 'assessments', reason: 'At least one assessment is required' });
  return fallback;
}

/**
 * The contract schema's complaints as row errors, by the column names a
 * person wrote. A phone already refused (`earlier`) is not refused twice; a
 * bad phone says why it is likely bad (a spreadsheet's scientific notation,
 * no +country code).
 */
export function schemaErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>, rawPhone: string, earlier: readonly RowError[]): RowError[] {
  const out: RowError[] = [];
  for (const issue of issues) {
    const head = String(issue.path[0] ?? '');
    let reason = issue.message;
    if (head === 'phone' && earlier.some((e) => e.field === 'phone' || e.field === 'phone_country')) continue;
    if (head === 'phone' && /^\d(\.\d+)?e\+?\d+$/i.test(rawPhone)) {
      reason += ` (${rawPhone} is how a spreadsheet shows a long number: format the column as Text and export again)`;
    } else if (head === 'phone' && !/^(\+|00)/.test(rawPhone)) {
      reason += ' (without a +country code it is read as a US number: write it as +44…, add a Country column or use --phone-country)';
    }
    out.push({ field: EXTERNAL_NAME[head] ?? head, reason });
  }
  return out;
}

/**
 * The service's rules for a body the schema accepts, in its order: the
 * inviter (nothing else is checked without one), the team, the defaults, the
 * assessments, SMS. Returns the team the invitation lands on and its channels.
 */
export function serviceRules(out: CreateInvitationParsed, a: Pick<AccountData, 'users'>): { errors: RowError[]; teamId?: number; channels: { email: boolean; sms: boolean } } {
  const errors: RowError[] = [];
  const sendEmail = out.send_via_email ?? true;
  const channels = { email: sendEmail, sms: Boolean(out.send_via_sms) };
  const user = a.users.get(out.created_by_user_email.toLowerCase());
  if (!user) return { errors: [{ field: 'created_by_user_email', reason: MSG.userNotFound(out.created_by_user_email) }], channels };
  const teamId = out.team_id ?? user.default_team?.id;
  if (teamId === undefined) errors.push({ field: 'team', reason: MSG.noDefaultTeam(user.email) });
  const tests = out.assessments_to_assign?.map((t) => t.test_id) ?? user.default_assessments.map((x) => x.id);
  if (tests.length === 0) errors.push({ field: 'assessments', reason: MSG.noDefaultAssessments(user.email) });
  if (sendEmail && out.email_template_id === undefined && !user.default_invitation_email_template) {
    errors.push({ field: 'email_template', reason: MSG.noDefaultTemplate(user.email) });
  }
  const rule = assessmentRule(tests);
  if (rule) errors.push({ field: 'assessments', reason: rule });
  const sms = smsRule(out.send_via_sms, out.phone);
  if (sms) errors.push({ field: 'phone', reason: sms });
  return { errors, teamId, channels };
}
