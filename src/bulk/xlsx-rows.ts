/**
 * A sheet's cells to the CSV reader's records: a cell's text as displayed,
 * merged header cells named, the header found (title rows skipped) and the
 * rows assembled to its width (xlsx-reader.ts has the rules).
 */
import { UsageError } from '../core/errors.js';
import { type CsvRecord, PREAMBLE_RECORDS } from './reader.js';
import { formatNumber } from './xlsx-numfmt.js';
import { type Merge, StringTable, type XlsxReadOptions } from './xlsx-parts.js';

/** The most cells the rows of a sheet may have, counted to the header's width (100,000 rows of 500 columns). */
export const MAX_SHEET_CELLS = 50_000_000;

/** A sheet looked at for a table of people has none in its first rows. */
export class NoTable extends Error {}

/** A cell as the sheet's XML has it: its type (`t`), its style (`s`), whether it has a formula, and its `<v>` or inline text. */
export interface SheetCell {
  type: string;
  style: number;
  formula: boolean;
  value: string | undefined;
}

/**
 * A cell's text as the sheet displays it: a shared string, text, TRUE/FALSE,
 * an error's or a date's text, a number by its number format. null: a formula
 * with no saved value (read as empty, and counted for a note).
 */
export function sheetCellText(c: SheetCell, strings: Pick<StringTable, 'get'>, formats: ReadonlyArray<string | undefined>, date1904: boolean): string | null {
  const { value } = c;
  if (value === undefined || (c.formula && value === '' && c.type !== 'str')) return c.formula ? null : '';
  switch (c.type) {
    case 's':
      return strings.get(Number(value)) ?? '';
    case 'str':
    case 'inlineStr':
    case 'e':
    case 'd':
      return value;
    case 'b':
      return value === '1' || value === 'true' ? 'TRUE' : 'FALSE';
    default: {
      const n = Number(value);
      if (value.trim() === '' || Number.isNaN(n)) return value;
      return formatNumber(n, formats[c.style], date1904);
    }
  }
}

/** A header cell merged across columns names each of them ("Notes", "Notes (2)", ...); the other empty cells are ''. */
export function nameMergedHeader(rec: string[], merges: readonly Merge[], line: number): string[] {
  for (const m of merges) {
    if (m.r1 > line || m.r2 < line || m.c2 <= m.c1 || m.c2 > 16_384) continue;
    const name = rec[m.c1 - 1] ?? '';
    if (name === '') continue;
    for (let c = m.c1 + 1; c <= m.c2; c++) if (!rec[c - 1]) rec[c - 1] = `${name} (${c - m.c1 + 1})`;
  }
  for (let i = 0; i < rec.length; i++) rec[i] ??= '';
  return rec;
}

/** What a sheet's rows are assembled with: its merged ranges, how the header is found, and where errors say they are. */
export interface RowAssembly extends Pick<XlsxReadOptions, 'headerRow' | 'isHeader'> {
  merges: readonly Merge[];
  /** Only looking for a table: NoTable when the first rows have no header, and onHeader is not called. */
  probe: boolean;
  onHeader: (header: string[], line: number) => void;
  label: string;
  /** The sheet as errors name it: `sheet "People" (2 of 3)`. */
  where: string;
}

/**
 * The records of a sheet from its cells, row by row: the header found (the
 * rows above it kept aside: a title block), a value merged down given to each
 * row under it, each row as wide as the header (non-empty cells past it kept
 * at its end, so the row's check can say so), hidden rows counted, and the
 * cells bounded (MAX_SHEET_CELLS).
 */
export class SheetRowAssembler {
  header: string[] | undefined;
  headerLine = 0;
  /** Hidden rows read. */
  hidden = 0;
  /** Rows above the header (a title block, notes), while it is looked for. */
  readonly above: Array<{ line: number; cells: string[]; hidden: boolean }> = [];
  private out: CsvRecord[] = [];
  private row = 0;
  private cellBudget = MAX_SHEET_CELLS;
  /** Top-left cell of each merge, by "row:col". */
  private readonly mergeAt = new Map<string, Merge>();
  /** Values carried down a vertical merge: column → {value, last row}. */
  private readonly fills = new Map<number, { value: string; until: number }>();
  // The row being read.
  private line = 0;
  private rowHidden = false;
  private cells: string[] = [];
  /** Non-empty cells right of the header. */
  private extra: string[] = [];

  constructor(private readonly a: RowAssembly) {
    for (const m of a.merges) this.mergeAt.set(`${m.r1}:${m.c1}`, m);
  }

  startRow(line: number, hidden: boolean): void {
    this.line = line;
    this.rowHidden = hidden;
    this.cells = [];
    this.extra = [];
  }

  /** A non-empty cell of the row (1-based column). */
  cell(col: number, text: string): void {
    const { header } = this;
    if (header && col > header.length) this.extra.push(text);
    else this.cells[col - 1] = text;
    const m = this.mergeAt.get(`${this.line}:${col}`);
    if (m && m.r2 > m.r1 && header && col <= header.length) this.fills.set(col, { value: text, until: m.r2 });
  }

  endRow(): void {
    const { line, header } = this;
    // Trailing empty cells are not columns (only non-empty cells are set).
    let end = this.cells.length;
    const own = end > 0 || this.extra.length > 0;
    if (own && header) end = this.fillDown(end);
    // Rows are as wide as the header (a CSV row has every delimiter; a sheet row stops at its last cell).
    if (header && end < header.length) end = header.length;
    if (header) this.spend(end);
    const cells = this.cells;
    for (let i = 0; i < end; i++) if (cells[i] === undefined) cells[i] = '';
    const rec = end === cells.length ? cells : cells.slice(0, end);
    if (this.extra.length) rec.push(...this.extra);
    this.cells = [];
    this.extra = [];
    if (!own) return;
    if (header) return this.pushRow(line, rec, this.rowHidden);
    this.beforeHeader(line, rec);
  }

  /** The records assembled since the last call. */
  take(): CsvRecord[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  /** The sheet ended: when no row looked like a header, the first is taken. */
  end(): void {
    if (!this.header && this.above.length) this.headerIsFirst();
  }

  /** Values merged down over this row's empty cells; returns the row's width. */
  private fillDown(end: number): number {
    for (const [c, f] of this.fills) {
      if (this.line > f.until) this.fills.delete(c);
      else if (!this.cells[c - 1]) {
        this.cells[c - 1] = f.value;
        end = Math.max(end, c);
      }
    }
    return end;
  }

  private spend(cells: number): void {
    this.cellBudget -= cells;
    if (this.cellBudget < 0) {
      throw new UsageError(
        `${this.a.label} is refused: ${this.a.where} has more than ${MAX_SHEET_CELLS.toLocaleString('en-US')} cells in its rows, which no participant list needs.`,
        'save only the columns and rows of people, or save it as "CSV UTF-8"',
      );
    }
  }

  /** A row before the header: the header (--header-row, the header test, or the row under a title), or one more row above it. */
  private beforeHeader(line: number, rec: string[]): void {
    const { headerRow, isHeader, where } = this.a;
    const hidden = this.rowHidden;
    if (headerRow !== undefined) {
      if (line < headerRow) this.above.push({ line, cells: rec, hidden });
      else if (line > headerRow) throw new UsageError(`--header-row ${headerRow}: row ${headerRow} of ${where} is empty.`, `the first row with cells after it is ${line}`);
      else this.setHeader(rec, line);
      return;
    }
    if (isHeader) {
      if (isHeader(rec)) return this.setHeader(rec, line);
      this.above.push({ line, cells: rec, hidden });
      if (this.above.length >= PREAMBLE_RECORDS) this.headerIsFirst();
      return;
    }
    // Without a test for the header: a title (one cell merged across columns) is skipped, the next row is the header.
    const named = rec.map((c, i) => (c !== '' ? i : -1)).filter((i) => i >= 0);
    const m = named.length === 1 ? this.mergeAt.get(`${line}:${named[0] + 1}`) : undefined;
    if (m && m.c2 > m.c1 && m.r1 === line) this.above.push({ line, cells: rec, hidden });
    else this.setHeader(rec, line);
  }

  private setHeader(rec: string[], line: number): void {
    this.header = nameMergedHeader(rec, this.a.merges, line);
    this.headerLine = line;
    if (!this.a.probe) this.a.onHeader(this.header, line);
  }

  private pushRow(line: number, rec: string[], isHidden: boolean): void {
    if (isHidden) this.hidden++;
    this.row++;
    this.out.push({ row: this.row, line, cells: rec });
  }

  /** No row looked like a header: the first is taken (its mapping says what is missing), the others are rows. */
  private headerIsFirst(): void {
    if (this.a.probe) throw new NoTable();
    const [first, ...rest] = this.above.splice(0);
    this.setHeader(first.cells, first.line);
    for (const r of rest) this.pushRow(r.line, r.cells, r.hidden);
  }
}
