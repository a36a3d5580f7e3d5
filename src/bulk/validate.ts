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
  possibleE164,
  toE164,
} from '../api/index.js';
import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
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
  /** Rows whose phone is of a possible length but in a range libphonenumber does not list: sent (no SMS), with a note. */
  unlistedPhones?: number;
  unlistedExamples?: string[];
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

  private noteUnlisted(raw: string): void {
    this.stats.unlistedPhones = (this.stats.unlistedPhones ?? 0) + 1;
    const ex = (this.stats.unlistedExamples ??= []);
    if (ex.length < 3) ex.push(raw);
  }

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
    const read = (f: Field) => this.cell(cells, f);
    const d = this.defaults;
    const body: Record<string, unknown> = {};

    const { first, last } = this.names(cells);
    body.first_name = first;
    body.last_name = last;
    const emails = emailsOf(read('email'));
    if (emails.count > 1) this.stats.severalEmails++;
    body.email = emails.pick;
    body.created_by_user_email = read('created_by_user_email') || d.created_by || '';
    for (const f of ['person_id', 'custom_id', 'ref_text'] as const) {
      const v = read(f);
      if (v !== '') body[f] = v;
    }
    const phone = readPhone(read('phone'), read('phone_country') || (d.phone_country ?? ''));
    if (phone.count > 1) this.stats.severalPhones++;
    if (phone.value !== '') body.phone = phone.value;
    const errors: RowError[] = [...phone.errors];

    const channels = readChannels(read, d);
    errors.push(...channels.errors);
    if (phone.unlisted) {
      // A number libphonenumber does not list: an email invitation goes (noted); an SMS could not be trusted to arrive.
      if (channels.sms) errors.push({ field: 'phone', reason: `${phone.raw} is not in a range of numbers in use (libphonenumber), so an SMS may not arrive: check it, or send by email only` });
      else this.noteUnlisted(phone.raw);
    }
    if (channels.email !== undefined) body.send_via_email = channels.email;
    if (channels.sms !== undefined) body.send_via_sms = channels.sms;
    const teamId = resolvedCell('team', read('team'), this.team, d.team_id, errors);
    if (teamId !== undefined) body.team_id = teamId;
    const testIds = readAssessments(read, this.tests, d.test_ids, errors);
    if (testIds !== undefined) body.assessments_to_assign = testIds.map((id) => ({ test_id: id }));
    const templateId = resolvedCell('email_template', read('email_template'), this.template, d.email_template_id, errors);
    if (templateId !== undefined) body.email_template_id = templateId;

    // The contract's schema: required fields, email, phone → E.164, lengths.
    const parsed = CreateInvitationBody.safeParse(body);
    if (!parsed.success) errors.push(...schemaErrors(parsed.error.issues, phone.raw, errors));
    const email = typeof body.email === 'string' ? body.email.trim() : undefined;
    if (!parsed.success || errors.length) return { ok: false, email, errors: this.explain(cells, errors) };
    const service = serviceRules(parsed.data, this.account);
    if (service.errors.length) return { ok: false, email, errors: service.errors };
    return { ok: true, body: parsed.data, email: parsed.data.email, teamId: service.teamId, channels: service.channels };
  }
}

/**
 * A row's phone: the first readable number of its cell, made E.164 when it is
 * written without a +country code and the row (or --phone-country) names a
 * country; without one the service would read it as a US number. `raw` is the
 * number as written (the schema's error explains it), `value` what is sent.
 */
export function readPhone(cell: string, country: string): { raw: string; value: string; count: number; errors: RowError[]; unlisted?: boolean } {
  const phones = phonesOf(cell, (country && phoneCountry(country)) || undefined);
  const raw = phones.pick;
  const out: ReturnType<typeof readPhone> = { raw, value: raw, count: phones.count, errors: [] };
  if (!raw) return out;
  const cc = country ? phoneCountry(country) : undefined;
  if (/^(\+|00)/.test(raw) || !country) {
    // Written with its country code (or read as a US number by the service): only a range check here.
    out.unlisted = !toE164(raw, cc) && possibleE164(raw, cc) !== null;
    return out;
  }
  if (!cc) out.errors.push({ field: 'phone_country', reason: `"${country}" is not a country the phone number can be read for (use a code such as GB, DE or US)` });
  else {
    const e164 = strippedPlus(raw, cc) ?? toE164(raw, cc);
    const possible = e164 ? undefined : possibleE164(raw, cc);
    if (e164) out.value = e164;
    else if (possible) {
      out.value = possible;
      out.unlisted = true;
    } else out.errors.push({ field: 'phone', reason: `Invalid phone number for ${cc}` });
  }
  return out;
}

/**
 * A number whose `+` a spreadsheet stripped (`4915123456789` with Country DE):
 * digits only, no trunk 0, starting with the country's calling code, and a
 * valid number of that country once the `+` is put back. Read as written it
 * would be the national number 4915… (+49 4915…), which is not what was meant.
 */
function strippedPlus(raw: string, cc: CountryCode): string | null {
  const digits = raw.replace(/[\s().-]/g, '');
  if (!/^[1-9]\d{7,14}$/.test(digits) || !digits.startsWith(getCountryCallingCode(cc))) return null;
  const e164 = toE164(`+${digits}`, cc);
  return e164 && parsePhoneNumberFromString(e164)?.country === cc ? e164 : null;
}

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
