/**
 * CSV for spreadsheets and databases: RFC 4180 quoting by csv-stringify, one
 * header line, dotted column names (see fields.ts), and formula neutralisation.
 *
 * Spreadsheets run a cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula (CSV injection). Following OWASP, such a *string*
 * cell gets a leading single quote `'`. That includes E.164 phone numbers
 * (`+14155550100` becomes `'+14155550100`): some spreadsheets evaluate them,
 * and the quote is what tells a spreadsheet to keep the text. Actual numbers
 * from the API (JSON numbers, e.g. a negative score) are written as numbers and
 * never changed.
 */
import { stringify } from 'csv-stringify/sync';
import { type Cell, flattenRecord, project, unionKeys } from './fields.js';

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet would run as a formula; -o xlsx keeps such text a text cell (xlsx.ts). */
export function looksLikeFormula(s: string): boolean {
  return FORMULA_START.test(s);
}

export function neutraliseCell(cell: Cell): Cell {
  if (typeof cell === 'string' && looksLikeFormula(cell)) return `'${cell}`;
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
  const header = opts.columns ?? unionKeys(records, opts.fields);
  let out = csvLine(header);
  for (const r of records) out += csvLine(cellsFor(r, header));
  return out;
}
