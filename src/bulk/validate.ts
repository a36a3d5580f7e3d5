/**
 * One CSV row → the body of POST /invitations, checked with the contract's own
 * schema and rules (src/api: CreateInvitationBody, assessmentRule, smsRule,
 * MSG) plus the account lookups the service would do, so a row that passes
 * here is one the service accepts (short of a duplicate already in the account).
 */
import {
  assessmentRule,
  CreateInvitationBody,
  type CreateInvitationParsed,
  INTERNAL_FIELD_NAMES,
  MSG,
  smsRule,
  TEST_ID,
  toE164,
} from '../api/index.js';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { UsageError } from '../core/errors.js';
import { type AccountData, type Resolved, resolveAssessments, resolveTeam, resolveTemplate } from './account.js';
import type { ColumnMapping, Field } from './columns.js';
import { type NameOrder, splitFullName } from './names.js';

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

/** What the validator saw across the rows, for the dry run: how names were split, cells of several values, anonymous cells. */
export interface CellStats {
  /** Rows whose name came from one cell, and a few of them. */
  split: number;
  splitExamples: Array<{ cell: string; first: string; last: string }>;
  /** Rows whose email (phone) cell held several; the first valid one was used. */
  severalEmails: number;
  severalPhones: number;
  /** Rows read from another column because the first one's cell was empty or "anonymous": field → count. */
  fromAlternate: Map<Field, number>;
  /** Rows with a name where a letter became "?" or "�" (a file saved in a code page without that letter), and a few of them. */
  damaged: number;
  damagedExamples: string[];
}

/** "anonymous" as Microsoft Forms (and others) write it in an anonymous form's Name and Email columns. */
const ANONYMOUS = /^(anonymous|anonym|anonyme|an[oó]nim[oa]|anoniem)$/i;
const LOOKS_LIKE_EMAIL = /^[^\s@<>,;"\p{C}]+@[^\s@<>,;"\p{C}]+\.[^\s@<>,;"\p{C}]+$/u;

/** The values of a cell that may hold several: a JSON list, or separated by `separators`. */
function manyValues(cell: string, separators: RegExp): string[] {
  const s = cell.trim();
  if (s.startsWith('[') && s.endsWith(']')) {
    try {
      const list: unknown = JSON.parse(s);
      if (Array.isArray(list)) {
        return list
          .map((x) => (typeof x === 'string' ? x : typeof x === 'object' && x ? String((x as Record<string, unknown>).value ?? (x as Record<string, unknown>).email ?? (x as Record<string, unknown>).number ?? '') : String(x)))
          .map((x) => x.trim())
          .filter(Boolean);
      }
    } catch {
      // Not JSON: split below.
    }
  }
  return s.split(separators).map((x) => x.trim()).filter(Boolean);
}

/** "Ann <ann@x.com>" → the address. */
const bareAddress = (s: string) => s.replace(/^.*<([^>]*)>.*$/, '$1').trim();

/**
 * The addresses of an email cell (comma, semicolon, whitespace or a JSON
 * list): the first valid one, and how many there were. A cell with no valid
 * address is given whole, so its error shows it as written.
 */
export function emailsOf(cell: string): { pick: string; count: number } {
  const words = manyValues(cell, /[,;\s]+/).map(bareAddress).filter(Boolean);
  const valid = words.filter((w) => LOOKS_LIKE_EMAIL.test(w));
  if (valid.length === 0) return { pick: cell.trim(), count: words.length ? 1 : 0 };
  // "Ann Smith <ann@x.com>" is one address: the words without an @ are names.
  return { pick: valid[0], count: Math.max(1, words.filter((w) => w.includes('@')).length) };
}

/** "+1 415 555 0100 (Mobile)", "Mobile: 020 7946 0958" → the number. */
const barePhone = (s: string) => s.replace(/\([^)]*[A-Za-z][^)]*\)/g, '').replace(/^[A-Za-z][A-Za-z ]*:\s*/, '').trim();

/** The numbers of a phone cell (semicolon, comma, slash, bar, new line or a JSON list): the first readable one, and how many; none readable: the cell whole. */
export function phonesOf(cell: string, country: CountryCode | undefined): { pick: string; count: number } {
  const all = manyValues(cell, /[;,|/\n]+|\s+or\s+/i).map(barePhone).filter(Boolean);
  if (all.length <= 1) return { pick: all[0] ?? cell.trim(), count: all.length };
  const readable = all.find((p) => toE164(p, country));
  return readable ? { pick: readable, count: all.length } : { pick: cell.trim(), count: 1 };
}

/** A letter lost to a code page: "?ukasz", "Mu?oz", "J�rgen". */
const DAMAGED = /\p{L}[?\uFFFD]|[?\uFFFD]\p{L}/u;

export interface RowError {
  field: string;
  reason: string;
}

export type RowCheck =
  | { ok: true; body: CreateInvitationParsed; email: string; teamId?: number; channels: { email: boolean; sms: boolean } }
  | { ok: false; email?: string; errors: RowError[] };

const TRUE = new Set(['true', 'yes', 'y', '1', 'x', 'on', 't', 'ja', 'oui', 'si', 'sí', '✓', '✔']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off', 'f', 'nein', 'non', '-']);

export function parseBool(raw: string): boolean | undefined | 'invalid' {
  const s = raw.trim().toLowerCase();
  if (s === '') return undefined;
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return 'invalid';
}

/** "email", "sms", "email,sms", "both", "none" → the two flags; undefined when not understood. */
export function parseSendVia(raw: string): { email: boolean; sms: boolean } | undefined {
  const s = raw.trim().toLowerCase();
  if (s === 'both' || s === 'all') return { email: true, sms: true };
  if (s === 'none' || s === 'no' || s === 'link' || s === 'manual') return { email: false, sms: false };
  const parts = s.split(/[,;|/+&\s]+|\band\b/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const r = { email: false, sms: false };
  for (const p of parts) {
    if (p === 'email' || p === 'e-mail' || p === 'mail') r.email = true;
    else if (p === 'sms' || p === 'text' || p === 'phone' || p === 'mobile') r.sms = true;
    else return undefined;
  }
  return r;
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
  if (flags.phoneCountry) {
    const cc = phoneCountry(flags.phoneCountry);
    if (!cc) throw new UsageError(`--phone-country "${flags.phoneCountry}" is not a country phone numbers can be read for.`, 'use an ISO code such as GB, DE or US');
    d.phone_country = cc;
  }
  if (flags.sendVia) {
    const r = parseSendVia(flags.sendVia);
    if (!r) throw new UsageError(`--send-via "${flags.sendVia}" is not understood.`, 'use email, sms, email,sms or none');
    d.send_via_email = r.email;
    d.send_via_sms = r.sms;
  }
  return d;
}

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

/** Remembers the resolution of repeated cell values ("Retail Stores" on 10,000 rows); `cache` is what was read. */
function memo<T>(fn: (raw: string) => T): ((raw: string) => T) & { cache: Map<string, T> } {
  const cache = new Map<string, T>();
  const f = (raw: string) => {
    let v = cache.get(raw);
    if (v === undefined) {
      v = fn(raw);
      if (cache.size < 1000) cache.set(raw, v);
    }
    return v;
  };
  return Object.assign(f, { cache });
}

/** Country names people write in a Country column, beside ISO codes. */
const COUNTRY_NAMES: Record<string, string> = {
  uk: 'GB', 'united kingdom': 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB',
  usa: 'US', 'united states': 'US', 'united states of america': 'US', america: 'US',
  canada: 'CA', australia: 'AU', 'new zealand': 'NZ', ireland: 'IE', germany: 'DE', deutschland: 'DE', france: 'FR',
  spain: 'ES', 'españa': 'ES', italy: 'IT', italia: 'IT', netherlands: 'NL', 'the netherlands': 'NL', nederland: 'NL',
  belgium: 'BE', switzerland: 'CH', schweiz: 'CH', austria: 'AT', 'österreich': 'AT', sweden: 'SE', sverige: 'SE',
  norway: 'NO', denmark: 'DK', finland: 'FI', poland: 'PL', portugal: 'PT', india: 'IN', mexico: 'MX', 'méxico': 'MX',
  brazil: 'BR', brasil: 'BR', japan: 'JP', singapore: 'SG', 'south africa': 'ZA', 'hong kong': 'HK', china: 'CN',
};

/** "GB", "uk", "United Kingdom" → an ISO country libphonenumber knows; undefined otherwise. */
export function phoneCountry(raw: string): CountryCode | undefined {
  const s = raw.trim();
  const named = COUNTRY_NAMES[s.toLowerCase()];
  if (named) return named as CountryCode;
  const up = s.toUpperCase();
  return /^[A-Z]{2}$/.test(up) && isSupportedCountry(up) ? (up as CountryCode) : undefined;
}

export class RowValidator {
  private readonly team = memo((raw) => resolveTeam(this.account, raw));
  private readonly template = memo((raw) => resolveTemplate(this.account, raw));
  private readonly tests = memo((raw) => resolveAssessments(this.account, raw));

  /** How the team, template and assessment cells were read: field → [cell as written, what it became]. */
  valuesRead(): Array<{ field: Field; raw: string; read: Resolved<number | number[]> }> {
    const out: Array<{ field: Field; raw: string; read: Resolved<number | number[]> }> = [];
    for (const [field, m] of [['team', this.team], ['email_template', this.template], ['assessments', this.tests]] as const) {
      for (const [raw, read] of m.cache) out.push({ field, raw, read });
    }
    return out;
  }

  constructor(
    private readonly mapping: ColumnMapping,
    private readonly account: AccountData,
    private readonly defaults: RowDefaults,
  ) {}

  readonly stats: CellStats = { split: 0, splitExamples: [], severalEmails: 0, severalPhones: 0, fromAlternate: new Map(), damaged: 0, damagedExamples: [] };

  /** The field's cell; when it is empty or "anonymous", the first other column of the field that has a value. */
  private cell(cells: string[], f: Field): string {
    const i = this.mapping.index[f];
    const v = i === undefined ? '' : (cells[i] ?? '').trim();
    const others = this.mapping.alternates[f];
    if (!others || (v !== '' && !ANONYMOUS.test(v))) return v;
    for (const j of others) {
      const w = (cells[j] ?? '').trim();
      if (w !== '' && !ANONYMOUS.test(w) && (f !== 'email' || w.includes('@'))) {
        this.stats.fromAlternate.set(f, (this.stats.fromAlternate.get(f) ?? 0) + 1);
        return w;
      }
    }
    return v;
  }

  /** First and last name: their columns, else one name cell split (names.ts). */
  private names(cells: string[]): { first: string; last: string } {
    let first = this.cell(cells, 'first_name');
    let last = this.cell(cells, 'last_name');
    const prefix = this.cell(cells, 'last_name_prefix');
    if (prefix && last) last = `${prefix} ${last}`;
    if ((!first || !last) && this.mapping.index.full_name !== undefined) {
      const full = this.cell(cells, 'full_name');
      const split = splitFullName(full, this.defaults.name_order);
      if (full && !ANONYMOUS.test(full)) {
        this.stats.split++;
        if (this.stats.splitExamples.length < 3 && (split.first !== full || split.last !== '')) this.stats.splitExamples.push({ cell: full, ...split });
      }
      first ||= split.first;
      last ||= split.last;
    }
    const shown = `${first} ${last}`;
    if (DAMAGED.test(shown)) {
      this.stats.damaged++;
      if (this.stats.damagedExamples.length < 3) this.stats.damagedExamples.push(shown.trim());
    }
    return { first, last };
  }

  /**
   * What a bad row's field errors come from, when the row's shape says it: the
   * header line repeated (files pasted together), or fewer cells than the
   * header (a lost delimiter shifts every later cell).
   */
  private explain(cells: string[], errors: RowError[]): RowError[] {
    const header = this.mapping.header;
    const ei = this.mapping.index.email;
    if (ei !== undefined && (cells[ei] ?? '').trim().toLowerCase() === header[ei].trim().toLowerCase()) {
      return [{ field: '(row)', reason: 'is the header line again (two files pasted together?)' }];
    }
    if (cells.length < header.length) {
      return [{ field: '(row)', reason: `has ${cells.length} field${cells.length === 1 ? '' : 's'} but the header has ${header.length} (a missing delimiter?)` }, ...errors];
    }
    return errors;
  }

  check(cells: string[]): RowCheck {
    const errors: RowError[] = [];
    const a = this.account;
    const d = this.defaults;
    const body: Record<string, unknown> = {};

    const { first, last } = this.names(cells);
    body.first_name = first;
    body.last_name = last;
    const emails = emailsOf(this.cell(cells, 'email'));
    if (emails.count > 1) this.stats.severalEmails++;
    body.email = emails.pick;
    const inviter = this.cell(cells, 'created_by_user_email') || d.created_by || '';
    body.created_by_user_email = inviter;

    const put = (key: string, f: Field) => {
      const v = this.cell(cells, f);
      if (v !== '') body[key] = v;
    };
    put('person_id', 'person_id');
    put('custom_id', 'custom_id');
    put('ref_text', 'ref_text');
    // A local number with a country hint is made E.164 here; without one the
    // service would read it as a US number.
    const country = this.cell(cells, 'phone_country') || (d.phone_country ?? '');
    const phones = phonesOf(this.cell(cells, 'phone'), (country && phoneCountry(country)) || undefined);
    if (phones.count > 1) this.stats.severalPhones++;
    const rawPhone = phones.pick;
    if (rawPhone !== '') body.phone = rawPhone;
    if (rawPhone && country && !/^(\+|00)/.test(rawPhone)) {
      const cc = phoneCountry(country);
      if (!cc) errors.push({ field: 'phone_country', reason: `"${country}" is not a country the phone number can be read for (use a code such as GB, DE or US)` });
      else {
        const e164 = toE164(rawPhone, cc);
        if (e164) body.phone = e164;
        else errors.push({ field: 'phone', reason: `Invalid phone number for ${cc}` });
      }
    }

    // Channels: send_via column, then the two boolean columns, then defaults.
    let viaEmail = d.send_via_email;
    let viaSms = d.send_via_sms;
    const via = this.cell(cells, 'send_via');
    if (via) {
      const r = parseSendVia(via);
      if (!r) errors.push({ field: 'send_via', reason: `"${via}" is not email, sms, email+sms or none` });
      else {
        viaEmail = r.email;
        viaSms = r.sms;
      }
    }
    for (const [f, key] of CHANNEL_COLUMNS) {
      const raw = this.cell(cells, f);
      const b = parseBool(raw);
      if (b === 'invalid') errors.push({ field: f, reason: `"${raw}" is not yes or no` });
      else if (b !== undefined) {
        if (key === 'email') viaEmail = b;
        else viaSms = b;
      }
    }
    if (viaEmail !== undefined) body.send_via_email = viaEmail;
    if (viaSms !== undefined) body.send_via_sms = viaSms;

    // Team.
    let teamId = d.team_id;
    const team = this.cell(cells, 'team');
    if (team) {
      const r = this.team(team);
      if (r.ok) teamId = r.value;
      else errors.push({ field: 'team', reason: r.reason });
    }
    if (teamId !== undefined) body.team_id = teamId;

    // Assessments: a list cell, else the v1 assign* columns, else defaults.
    let testIds = d.test_ids;
    const list = this.cell(cells, 'assessments');
    if (list) {
      const r = this.tests(list);
      if (r.ok) testIds = r.value;
      else errors.push({ field: 'assessments', reason: r.reason });
    } else {
      const v1: number[] = [];
      let any = false;
      for (const [f, id] of V1_COLUMNS) {
        const raw = this.cell(cells, f);
        const b = parseBool(raw);
        if (b === 'invalid') errors.push({ field: f, reason: `"${raw}" is not yes or no` });
        else if (b !== undefined) {
          any = true;
          if (b) v1.push(id);
        }
      }
      if (any) {
        if (v1.length) testIds = v1;
        else errors.push({ field: 'assessments', reason: 'At least one assessment is required' });
      }
    }
    if (testIds !== undefined) body.assessments_to_assign = testIds.map((id) => ({ test_id: id }));

    // Template.
    let templateId = d.email_template_id;
    const tpl = this.cell(cells, 'email_template');
    if (tpl) {
      const r = this.template(tpl);
      if (r.ok) templateId = r.value;
      else errors.push({ field: 'email_template', reason: r.reason });
    }
    if (templateId !== undefined) body.email_template_id = templateId;

    // The contract's schema: required fields, email, phone → E.164, lengths.
    const parsed = CreateInvitationBody.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const head = String(issue.path[0] ?? '');
        let reason = issue.message;
        if (head === 'phone' && errors.some((e) => e.field === 'phone' || e.field === 'phone_country')) continue;
        if (head === 'phone' && /^\d(\.\d+)?e\+?\d+$/i.test(rawPhone)) {
          reason += ` (${rawPhone} is how a spreadsheet shows a long number: format the column as Text and export again)`;
        } else if (head === 'phone' && !/^(\+|00)/.test(rawPhone)) {
          reason += ' (without a +country code it is read as a US number: write it as +44…, add a Country column or use --phone-country)';
        }
        errors.push({ field: EXTERNAL_NAME[head] ?? head, reason });
      }
    }
    const email = typeof body.email === 'string' ? body.email.trim() : undefined;
    if (!parsed.success || errors.length) return { ok: false, email, errors: this.explain(cells, errors) };
    const out = parsed.data;

    // The service's rules, in its order: inviter, team, defaults, assessments, SMS.
    const user = a.users.get(out.created_by_user_email.toLowerCase());
    if (!user) {
      errors.push({ field: 'created_by_user_email', reason: MSG.userNotFound(out.created_by_user_email) });
      return { ok: false, email, errors };
    }
    const effectiveTeam = out.team_id ?? user.default_team?.id;
    if (effectiveTeam === undefined) errors.push({ field: 'team', reason: MSG.noDefaultTeam(user.email) });
    const effectiveTests = out.assessments_to_assign?.map((t) => t.test_id) ?? user.default_assessments.map((x) => x.id);
    if (effectiveTests.length === 0) errors.push({ field: 'assessments', reason: MSG.noDefaultAssessments(user.email) });
    const sendEmail = out.send_via_email ?? true;
    if (sendEmail && out.email_template_id === undefined && !user.default_invitation_email_template) {
      errors.push({ field: 'email_template', reason: MSG.noDefaultTemplate(user.email) });
    }
    const rule = assessmentRule(effectiveTests);
    if (rule) errors.push({ field: 'assessments', reason: rule });
    const sms = smsRule(out.send_via_sms, out.phone);
    if (sms) errors.push({ field: 'phone', reason: sms });
    if (errors.length) return { ok: false, email, errors };
    return { ok: true, body: out, email: out.email, teamId: effectiveTeam, channels: { email: sendEmail, sms: Boolean(out.send_via_sms) } };
  }
}
