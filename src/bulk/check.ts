/**
 * The validation pass of bulk invite: every row of the file checked (the
 * contract's rules, the account, the header's width, duplicates in the
 * file) before anything is sent, the rows kept for the sending pass when the
 * file is small, the --errors file, and the check that a resume is of the
 * same file.
 */
import { EmailIndex } from './email-index.js';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { AccountData } from './account.js';
import { type ColumnMapping, mapHeader, parseMaps } from './columns.js';
import { checkWritablePath } from './output-files.js';
import type { InputHead } from './head.js';
import { type InputOptions, readInputBatches } from './input.js';
import type { JournalState } from './journal.js';
import type { CsvMeta, CsvRecord } from './reader.js';
import { safeText } from '../format/sanitize.js';
import type { BulkDeps, BulkRunOptions, InvalidRow } from './types.js';
import type { RowCheck } from './row-check.js';
import { type RowDefaults, resolveDefaults } from './row-defaults.js';
import { RowValidator } from './validate.js';
import { damagedNames } from './report.js';
import { createResultsWriter } from './xlsx-results.js';

export interface Validated {
  meta: CsvMeta;
  mapping: ColumnMapping;
  validator: RowValidator;
  rows: number;
  invalid: InvalidRow[];
  invalidCount: number;
  firstRowOfEmail: EmailIndex;
  teams: Map<number, number>;
  channels: { email: number; sms: number; none: number };
  /**
   * Every record with its check, when the file is small enough to keep
   * (KEEP_ROWS): the sending pass then reuses them instead of reading and
   * checking the file again. Undefined for a larger file and for --dry-run.
   */
  kept?: Array<{ rec: CsvRecord; r: RowCheck }>;
}

/**
 * Up to this many rows, the validation pass keeps its records for the sending
 * pass (a few MB for 20,000 rows): reading and checking the file a second time
 * was ~10% of the CPU of sending 10,000 rows. Larger files are read twice, so
 * memory stays flat whatever the size.
 */
const KEEP_ROWS = 20_000;

/** Upper-case ASCII letters to lower case, nothing else (String#toLowerCase maps K, İ and others to ASCII letters). */
const asciiLower = (t: string) => t.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** A row checked: the contract's rules, the account, the header's width, duplicates in the file. */
export function checkRow(v: Pick<Validated, 'validator' | 'meta' | 'firstRowOfEmail'>, rec: CsvRecord, firstPass: boolean): RowCheck {
  const width = v.meta.header.length;
  if (rec.cells.length > width && rec.cells.slice(width).some((c) => c !== '')) {
    return {
      ok: false,
      errors: [{ field: '(row)', reason: `has ${rec.cells.length} fields but the header has ${width} (a delimiter inside an unquoted field?)` }],
    };
  }
  const r = v.validator.check(rec.cells);
  // Case folded in ASCII only, as an address's case is: the Kelvin sign (U+212A) lower-cases to "k" in Unicode, and
  // an invalid row written with it made the valid kelvin@… row below it a "duplicate" (issue 43).
  const key = r.email === undefined ? undefined : asciiLower(r.email);
  if (key) {
    const first = v.firstRowOfEmail.get(key);
    if (first === undefined) {
      if (firstPass) v.firstRowOfEmail.set(key, rec.row);
    } else if (first !== rec.row) {
      const dup = { field: 'email', reason: `Duplicate email in the file (first on row ${first})` };
      return r.ok ? { ok: false, email: r.email, errors: [dup] } : { ...r, errors: [...r.errors, dup] };
    }
  }
  return r;
}

/**
 * Every row of the input checked, from its head (head.ts: read before the
 * run connected, the header's mapping checked as far as it needs no
 * service). Here, with the account read: the defaults the flags and the
 * profile give, and whether there is an inviter.
 */
export async function validatePass(head: InputHead, opts: BulkRunOptions, deps: BulkDeps, account: AccountData, journal?: JournalState): Promise<Validated> {
  const pd = deps.profileDefaults ?? {};
  // The flags' values were checked before the run connected (run.ts, prepareRun).
  const maps = parseMaps(opts.maps);
  const defaults: RowDefaults = resolveDefaults(account, {
    createdBy: opts.createdBy ?? pd.createdBy,
    team: opts.team ?? pd.team,
    assessments: opts.assessments ?? pd.assessments,
    template: opts.template ?? pd.template,
    sendVia: opts.sendVia ?? pd.sendVia,
    phoneCountry: opts.phoneCountry,
  });
  defaults.name_order = opts.nameOrder;
  const invalid: InvalidRow[] = [];
  let invalidCount = 0;
  let rows = 0;
  const teams = new Map<number, number>();
  const channels = { email: 0, sms: 0, none: 0 };
  const firstRowOfEmail = new EmailIndex();
  const { meta } = head;
  // The notes of the head first (a title block skipped, the sheet read), then the inviter: the order they had when the file was read here.
  head.tell();
  const mapping = mapHeader(meta.header, maps, { haveInviter: Boolean(defaults.created_by) });
  const v: Validated = { meta, mapping, validator: new RowValidator(mapping, account, defaults), rows: 0, invalid, invalidCount: 0, firstRowOfEmail, teams, channels };
  const keep = opts.keepRows ?? KEEP_ROWS;
  let kept: Validated['kept'] = opts.dryRun || keep <= 0 ? undefined : [];
  for await (const batch of head.batches()) for (const rec of batch) {
    rows++;
    const r = checkRow(v, rec, true);
    if (journal && (journal.done.size || journal.inFlight.size)) {
      // A resume must be of the same rows: refused here, before anything is written.
      const was = journal.done.get(rec.row)?.email ?? journal.inFlight.get(rec.row);
      if (was !== undefined && asciiLower(was) !== asciiLower(r.email ?? '')) {
        throw new UsageError(
          `The file changed since the interrupted run: row ${rec.row} was ${was}, now ${r.email ?? '(no email)'}; nothing was written or sent.`,
          'resume with the same file, or start a new run with another --out',
        );
      }
    }
    if (kept) {
      if (kept.length < keep) kept.push({ rec, r });
      else kept = undefined;
    }
    if (!r.ok) {
      invalidCount++;
      // Enough to fix a file; the results file has every one.
      if (invalid.length < 10_000) invalid.push({ row: rec.row, line: rec.line, email: r.email, errors: r.errors });
      continue;
    }
    if (r.teamId !== undefined) teams.set(r.teamId, (teams.get(r.teamId) ?? 0) + 1);
    if (r.channels.email) channels.email++;
    if (r.channels.sms) channels.sms++;
    if (!r.channels.email && !r.channels.sms) channels.none++;
  }
  // The dry run lists it with the mapping; a real run says it here, before sending.
  if (v.validator.stats.damaged && !opts.dryRun) deps.ctx.warn(safeText(damagedNames(v.validator.stats, v.meta)));
  v.rows = rows;
  v.invalidCount = invalidCount;
  v.kept = kept;
  return v;
}

/**
 * A row's cells in the header's width, so that `row`, `status`, ... stay in
 * their columns: empty cells past the header (a trailing delimiter) are
 * dropped; non-empty ones (an invalid row) are joined back into the last
 * column with the delimiter they were split on, so nothing is lost.
 */
export function fitCells(cells: string[], width: number, delimiter: string): string[] {
  if (cells.length <= width || width === 0) return cells;
  const extra = cells.slice(width);
  if (extra.every((c) => c === '')) return cells.slice(0, width);
  let end = cells.length;
  while (cells[end - 1] === '') end--;
  return [...cells.slice(0, width - 1), cells.slice(width - 1, end).join(delimiter)];
}

/** How a pass after the first reads the file: the sheet and the header line the first pass found. */
export function againOptions(v: Pick<Validated, 'meta'>, opts: Pick<BulkRunOptions, 'sheet'>): InputOptions {
  return { sheet: v.meta.sheet ?? opts.sheet, headerRow: v.meta.headerLine };
}

/** --errors FILE: every invalid row with its cells, line and reasons (the file is read again; memory stays flat). */
export async function writeErrorsFile(path: string, input: string, label: string, v: Validated, opts: BulkRunOptions): Promise<void> {
  const file = resolve(path);
  checkWritablePath(file, 'errors file', opts.csv === '-' ? undefined : resolve(opts.csv));
  const w = createResultsWriter(file, v.meta.header, v.meta.delimiter, v.meta.bom, undefined, ['line', 'row', 'error'], 'errors file');
  const width = v.meta.header.length;
  try {
    const check = { ...v, firstRowOfEmail: v.firstRowOfEmail };
    for await (const batch of readInputBatches(input, label, () => {}, againOptions(v, opts))) {
      for (const rec of batch) {
        const r = checkRow(check, rec, false);
        if (r.ok) continue;
        const cells = fitCells(rec.cells, width, v.meta.delimiter);
        const padded = cells.length >= width ? cells : [...cells, ...Array(width - cells.length).fill('')];
        w.append([...padded, String(rec.line), String(rec.row), r.errors.map((e) => `${e.field}: ${e.reason}`).join('; ')]);
      }
    }
  } catch (err) {
    await w.close(false);
    throw err;
  }
  await w.close();
}

/** Refuses a resume whose file is not the journalled run's: with the file's header, before the run connects or writes. */
export function checkResumable(journal: JournalState, journalPath: string, meta: Pick<CsvMeta, 'header'>): void {
  if (journal.begin && journal.begin.header.join('\u0000') !== meta.header.join('\u0000')) {
    throw new UsageError(`The file's columns differ from the interrupted run's (${journalPath}); nothing was written or sent.`, 'resume with the same file, or start a new run with another --out');
  }
}
