/**
 * One CSV row → the body of POST /invitations, checked with the contract's own
 * schema and rules (src/api: CreateInvitationBody, assessmentRule, smsRule,
 * MSG) plus the account lookups the service would do, so a row that passes
 * here is one the service accepts (short of a duplicate already in the account).
 */
import { CreateInvitationBody } from '../api/index.js';
import { type AccountData, type Resolved, resolveAssessments, resolveTeam, resolveTemplate } from './account.js';
import type { ColumnMapping, Field } from './columns.js';
import { splitFullName } from './split-name.js';
import { ANONYMOUS, emailsOf, readPhone } from './cells.js';
import type { RowDefaults } from './row-defaults.js';
import type { RowCheck, RowError } from './row-check.js';
import { readChannels, resolvedCell, readAssessments, schemaErrors, serviceRules } from './row-rules.js';

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

/** A letter lost to a code page: "?ukasz", "Mu?oz", "J�rgen". */
const DAMAGED = /\p{L}[?\uFFFD]|[?\uFFFD]\p{L}/u;

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
