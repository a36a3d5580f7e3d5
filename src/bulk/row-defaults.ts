/** The defaults of every row of an invite run: flags first, then the profile's invite defaults, each checked once. */
import { assessmentRule, MSG } from '../api/index.js';
import type { CountryCode } from 'libphonenumber-js/max';
import { UsageError } from '../core/errors.js';
import { type AccountData, resolveAssessments, resolveTeam, resolveTemplate } from './account.js';
import type { NameOrder } from './split-name.js';
import { parseSendVia, phoneCountry } from './cells.js';

/** Defaults for every row: flags first, then the profile's invite defaults. */
export interface RowDefaults {
  created_by?: string;
  team_id?: number;
  test_ids?: number[];
  email_template_id?: number;
  send_via_email?: boolean;
  send_via_sms?: boolean;
  /** --phone-country: how a number written without +country code is read when the row has no Country cell. */
  phone_country?: CountryCode;
  /** --name-order: how a one-cell name without a comma is read. */
  name_order?: NameOrder;
}

/** Resolves the flag/profile defaults once; a bad one is a usage error (it would fail every row). */
export function resolveDefaults(
  account: AccountData,
  flags: { createdBy?: string; team?: string; assessments?: string; template?: string; sendVia?: string; phoneCountry?: string },
): RowDefaults {
  const d: RowDefaults = {};
  if (flags.createdBy) {
    if (!account.users.has(flags.createdBy.trim().toLowerCase())) {
      throw new UsageError(`--created-by: ${MSG.userNotFound(flags.createdBy)}.`, 'see `jobfit users` for the users of the account');
    }
    d.created_by = flags.createdBy.trim();
  }
  if (flags.team) {
    const r = resolveTeam(account, flags.team);
    if (!r.ok) throw new UsageError(`--team: ${r.reason}.`, 'see `jobfit teams`');
    d.team_id = r.value;
  }
  if (flags.assessments) {
    const r = resolveAssessments(account, flags.assessments);
    if (!r.ok) throw new UsageError(`--assessments: ${r.reason}.`, 'see `jobfit assessments`');
    const rule = assessmentRule(r.value);
    if (rule) throw new UsageError(`--assessments: ${rule}`);
    d.test_ids = r.value;
  }
  if (flags.template) {
    const r = resolveTemplate(account, flags.template);
    if (!r.ok) throw new UsageError(`--template: ${r.reason}.`, 'see `jobfit templates`');
    d.email_template_id = r.value;
  }
  if (flags.phoneCountry) d.phone_country = phoneCountryFlag(flags.phoneCountry);
  if (flags.sendVia) {
    const r = sendViaFlag(flags.sendVia);
    d.send_via_email = r.email;
    d.send_via_sms = r.sms;
  }
  return d;
}

/** --phone-country read, or refused: it needs no account, so a run checks it before it connects (run.ts). */
export function phoneCountryFlag(raw: string): CountryCode {
  const cc = phoneCountry(raw);
  if (!cc) throw new UsageError(`--phone-country "${raw}" is not a country phone numbers can be read for.`, 'use an ISO code such as GB, DE or US');
  return cc;
}

/** --send-via read, or refused: it needs no account, so a run checks it before it connects (run.ts). */
export function sendViaFlag(raw: string): { email: boolean; sms: boolean } {
  const r = parseSendVia(raw);
  if (!r) throw new UsageError(`--send-via "${raw}" is not understood.`, 'use email, sms, email,sms or none');
  return r;
}
