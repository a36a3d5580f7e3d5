/**
 * CSV for spreadsheets and databases: RFC 4180 quoting by csv-stringify, one
 * header line, dotted column names (see fields.ts), and formula neutralisation.
 *
 * Spreadsheets run a cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula (CSV injection). Following OWASP, such a *string*
 * cell gets a leading single quote `'`. A spreadsheet opening a CSV shows that
 * quote, though, so a phone is written another way: an E.164 number
 * (`+14155550100`, the service's form) is written in its international form,
 * the groups separated by spaces (`+1 415 555 0100`). It holds nothing but
 * its `+`, digits and spaces, so no formula can hide in it; with its spaces no
 * spreadsheet reads it as a number (which drops the `+`, and shows 12 digits
 * as 4.47E+11); LibreOffice shows it as text, as written
 * (test/format/csv-libreoffice.test.ts); every phone parser reads it back.
 * Actual numbers from the API (JSON numbers, e.g. a negative score) are
 * written as numbers and never changed.
 */
import { stringify } from 'csv-stringify/sync';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { type Cell, flattenRecord, project, unionKeys } from './field-paths.js';

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet would run as a formula; -o xlsx keeps such text a text cell (xlsx.ts). */
export function looksLikeFormula(s: string): boolean {
  return FORMULA_START.test(s);
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** Already the spaced form: `+`, digit groups and single spaces; nothing a spreadsheet runs. */
const SPACED = /^\+\d+( \d+)+$/;
/** A phone as people write it with its country code: `+44 (0)20-7946 0958`, `+1.415.555.0100`. */
const WRITTEN_PHONE = /^\+\d[\d ()./-]{5,30}$/;

/**
 * A phone as `+1 415 555 0100` (any separator of its format a space): an
 * E.164 number, or one a person wrote with its country code and other
 * separators (a results file carries the input's own phone cells); a cell
 * already spaced is kept as written. Undefined for anything else.
 */
function spacedPhone(s: string): string | undefined {
  if (SPACED.test(s)) return s;
  if (!E164.test(s) && !WRITTEN_PHONE.test(s)) return undefined;
  const phone = parsePhoneNumberFromString(s);
  if (!phone?.isPossible()) return undefined;
  const spaced = phone.formatInternational().replace(/[^\d+]+/g, ' ').trim();
  return /^\+\d+( \d+)+$/.test(spaced) ? spaced : undefined;
}

/** A cell as a spreadsheet may open it: a phone spaced, other formula-like text behind a `'` (see the top). */
export function neutraliseCell(cell: Cell): Cell {
  if (typeof cell === 'string' && looksLikeFormula(cell)) return spacedPhone(cell) ?? `'${cell}`;
  return cell;
}

/** A cell csv-stringify would quote: it holds the delimiter, a quote or a line break. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV line. csv-stringify writes every line that has a cell to quote; a
 * line of plain cells (numbers, and text without `,` `"` or a line break) is
 * those cells joined by commas, which is what csv-stringify writes for it too
 * (a test holds the two to the same bytes), without its set-up on every call:
 * that set-up was a tenth of the CPU of a scorecard export.
 */
export function csvLine(cells: Cell[]): string {
  const out = cells.map(neutraliseCell);
  for (const c of out) {
    if (typeof c === 'string' && NEEDS_QUOTES.test(c)) return stringify([out], { eof: true, record_delimiter: '\n' });
  }
  return `${out.join(',')}\n`;
}

/** A flat record of an item, restricted to --fields when given. */
export function csvRecord(item: unknown, fields?: string[]): Record<string, Cell> {
  return flattenRecord(fields ? project(item, fields) : item);
}

/** Cells of a record in header order (a missing column is an empty cell). */
export function cellsFor(record: Record<string, Cell>, header: string[]): Cell[] {
  return header.map((h) => record[h] ?? '');
}

/**
 * A whole CSV document. The header is `columns` when given (flattened names such
 * as `team.display_name`), else the union of keys in first-seen order
 * (constant fields such as `object` only when --fields names them).
 */
export function toCsv(items: unknown[], opts: { columns?: string[]; fields?: string[] } = {}): string {
  const records = items.map((it) => csvRecord(it, opts.fields));
  // An empty list with --fields still says what its columns would have been.
  const header = opts.columns ?? (records.length === 0 && opts.fields ? opts.fields : unionKeys(records, opts.fields));
  let out = csvLine(header);
  for (const r of records) out += csvLine(cellsFor(r, header));
  return out;
}
