/**
 * `-o xlsx`: a workbook a recruiter can open, streamed (exceljs's workbook
 * writer) so that memory stays flat however many rows are written.
 *
 * A real sheet: a bold header row, frozen, with an autofilter over the rows;
 * column widths from the header and the first rows. The filter is also the
 * sheet-local `_xlnm._FilterDatabase` defined name, as Excel writes it:
 * LibreOffice shows the filter buttons only with it (exceljs does not write
 * it, its issue #2778). Every font we set is named (Calibri 11, exceljs's
 * default body font), so the header is not left to the reader's default. Cells typed by their
 * value, never by guessing from text:
 * - numbers from the API (scores, percentages, stars) are numbers; an id
 *   column's integers are shown without separators or decimals;
 * - an ISO 8601 timestamp is a date-time (UTC, as the service sends it), an
 *   ISO date a date;
 * - an http(s) URL is a link (the first LINK_CAP of a sheet: Excel allows
 *   65,530 per sheet and each one is held until the sheet ends);
 * - everything else (emails, phones, names) is text. A cell is never a
 *   formula: exceljs writes a formula only when given one, and a string that
 *   starts like one (the CSV neutraliser's rule, `looksLikeFormula`) stays
 *   text as it is, with no quote in front (no spreadsheet runs a text cell).
 */
import { PassThrough } from 'node:stream';
import { cellsFor, csvRecord, looksLikeFormula } from './csv.js';
import { type Cell, keysOutside, unionKeys } from './field-paths.js';
import { untilDrained } from './drain.js';
import { safeLine } from './sanitize.js';

/** Links per sheet; later URLs are text (each link is held in memory until the sheet ends). */
const LINK_CAP = 10_000;
/** Excel's longest cell text. */
const MAX_CELL = 32_767;
/** Rows looked at for column widths before the first one is written. */
const WIDTH_SAMPLE = 100;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const URL = /^https?:\/\/[^\s]+$/i;
const ID_COLUMN = /(^|[._])id$/i;
// Characters XML 1.0 cannot hold (exceljs drops the C0 controls itself).
const NOT_XML = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;

const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const DATE_FORMAT = 'yyyy-mm-dd';
const ID_FORMAT = '0';
/** The body font of an exceljs workbook (its styles.xml default); every font we set starts from it. */
const FONT = { name: 'Calibri', family: 2, size: 11 } as const;

/** A1-style column letters of a 1-based column number. */
function columnLetters(n: number): string {
  let out = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) out = String.fromCharCode(65 + ((i - 1) % 26)) + out;
  return out;
}

/** The absolute reference of a range of a sheet, as a defined name holds it: 'Name'!$A$1:$F$11. */
function sheetRange(sheet: string, cols: number, rows: number): string {
  return `'${sheet.replaceAll("'", "''")}'!$A$1:$${columnLetters(cols)}$${rows}`;
}


/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export function sheetName(name: string, taken: Set<string> = new Set()): string {
  let base = name.replace(/[[\]:*?/\\]/g, ' ').replace(/^'+|'+$/g, '').trim().slice(0, 31) || 'Sheet';
  let n = 1;
  let out = base;
  while (taken.has(out.toLowerCase())) {
    const suffix = ` (${++n})`;
    base = base.slice(0, 31 - suffix.length);
    out = `${base}${suffix}`;
  }
  taken.add(out.toLowerCase());
  return out;
}

type ExcelCell = { value: unknown; numFmt?: string; link?: boolean };

/** How one value is written (see the rules at the top). */
function typedCell(key: string, v: Cell | boolean | null | undefined, linksLeft: boolean): ExcelCell {
  if (v === null || v === undefined || v === '') return { value: null };
  if (typeof v === 'number') return Number.isInteger(v) && ID_COLUMN.test(key) ? { value: v, numFmt: ID_FORMAT } : { value: v };
  if (typeof v === 'boolean') return { value: v };
  let s = v.replace(NOT_XML, '\uFFFD');
  if (s.length > MAX_CELL) s = `${s.slice(0, MAX_CELL - 1)}…`;
  // Text that a spreadsheet would take for a formula stays text, untouched.
  if (looksLikeFormula(s)) return { value: s };
  if (ISO_TIMESTAMP.test(s)) {
    const d = new Date(s);
    if (!Number.isNaN(d.getTime())) return { value: d, numFmt: DATE_TIME_FORMAT };
  }
  if (ISO_DATE.test(s)) {
    const d = new Date(`${s}T00:00:00Z`);
    if (!Number.isNaN(d.getTime())) return { value: d, numFmt: DATE_FORMAT };
  }
  if (linksLeft && URL.test(s) && s.length <= 2079) return { value: { text: s, hyperlink: s }, link: true };
  return { value: s };
}

function displayWidth(c: ExcelCell): number {
  if (c.value === null) return 0;
  if (c.numFmt === DATE_TIME_FORMAT) return 19;
  if (c.numFmt === DATE_FORMAT) return 10;
  if (c.link) return Math.min(60, (c.value as { text: string }).text.length);
  const s = String(c.value);
  let w = 0;
  for (const line of s.split('\n')) w = Math.max(w, line.length);
  return w;
}

/** A defined name as exceljs's workbook writer renders it (`localSheetId`: the 0-based sheet it belongs to). */
interface DefinedName {
  name: string;
  localSheetId?: number;
  ranges: string[];
}

interface WorksheetLike {
  addRow(values: unknown[]): { commit(): void; font?: unknown; getCell(i: number): { numFmt?: string; font?: unknown } };
  getColumn(i: number): { width?: number };
  autoFilter?: unknown;
  commit(): void;
}

/** One sheet of a streamed workbook. */
export class XlsxSheet {
  private sample: ExcelCell[][] = [];
  private started = false;
  private links = 0;
  /** Rows written, not counting the header. */
  rows = 0;

  constructor(
    private readonly ws: WorksheetLike,
    readonly header: string[],
    private readonly onFilter: (cols: number, rows: number) => void = () => {},
  ) {}

  add(cells: Array<Cell | boolean | null | undefined>): void {
    const row = this.header.map((k, i) => {
      const c = typedCell(k, cells[i], this.links < LINK_CAP);
      if (c.link) this.links++;
      return c;
    });
    this.rows++;
    if (!this.started) {
      this.sample.push(row);
      if (this.sample.length >= WIDTH_SAMPLE) this.start();
      return;
    }
    this.put(row);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.header.forEach((h, i) => {
      const w = Math.max(h.length + 2, ...this.sample.map((r) => displayWidth(r[i]) + 1));
      this.ws.getColumn(i + 1).width = Math.min(60, Math.max(8, w));
    });
    const head = this.ws.addRow(this.header);
    head.font = { ...FONT, bold: true };
    head.commit();
    for (const r of this.sample) this.put(r);
    this.sample = [];
  }

  private put(row: ExcelCell[]): void {
    const r = this.ws.addRow(row.map((c) => c.value));
    row.forEach((c, i) => {
      if (c.numFmt) r.getCell(i + 1).numFmt = c.numFmt;
      else if (c.link) r.getCell(i + 1).font = { ...FONT, color: { argb: 'FF0563C1' }, underline: true };
    });
    r.commit();
  }

  end(): void {
    this.start();
    if (this.header.length > 0) {
      this.ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: this.rows + 1, column: this.header.length } };
      this.onFilter(this.header.length, this.rows + 1);
    }
    this.ws.commit();
  }
}

/** A workbook streamed to `out` (a file, or stdout when it is not a terminal). */
export class XlsxBook {
  private readonly names = new Set<string>();
  private readonly done: Promise<void>;
  private failed?: Error;
  private sheets = 0;
  /** The `_xlnm._FilterDatabase` name of each sheet with a filter. */
  private readonly filterNames: DefinedName[] = [];

  private constructor(
    private readonly wb: {
      addWorksheet(name: string, opts: unknown): WorksheetLike;
      commit(): Promise<void>;
      definedNames: { model: DefinedName[] };
    },
    pass: PassThrough,
    out: { write(chunk: string): boolean },
    failed?: () => unknown,
  ) {
    // exceljs writes xl/workbook.xml from `definedNames.model` when the workbook is committed, after the
    // sheets; its DefinedNames cannot hold a sheet-local name, so the filters' names are added to what it reads.
    const names = wb.definedNames;
    const theirs = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(names), 'model')?.get;
    Object.defineProperty(names, 'model', {
      configurable: true,
      get: () => [...((theirs?.call(names) as DefinedName[] | undefined) ?? []), ...this.filterNames],
    });
    const sink = out as unknown as { write(b: Buffer): boolean; once?: (e: string, cb: () => void) => void };
    this.done = new Promise<void>((resolve, reject) => {
      pass.on('data', (chunk: Buffer) => {
        if (!sink.write(chunk) && typeof sink.once === 'function') {
          pass.pause();
          // Not 'drain' alone: a stdout whose write failed (a full disk) may never send one.
          void untilDrained(sink, true, failed).then(() => pass.resume());
        }
      });
      pass.once('end', resolve);
      pass.once('error', (e) => {
        this.failed = e;
        reject(e);
      });
    });
    this.done.catch(() => {});
  }

  /** `failed`: the error of an earlier write to `out`, if any (IOStreams.stdoutError). */
  static async open(out: { write(chunk: string): boolean }, failed?: () => unknown): Promise<XlsxBook> {
    const { default: ExcelJS } = await import('exceljs');
    const pass = new PassThrough();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pass, useStyles: true, useSharedStrings: false });
    wb.creator = 'jobfit';
    return new XlsxBook(wb, pass, out, failed);
  }

  addSheet(name: string, header: string[]): XlsxSheet {
    const title = sheetName(name, this.names);
    const ws = this.wb.addWorksheet(title, {
      views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
    });
    const localSheetId = this.sheets++;
    return new XlsxSheet(ws, header, (cols, rows) => {
      this.filterNames.push({ name: '_xlnm._FilterDatabase', localSheetId, ranges: [sheetRange(title, cols, rows)] });
    });
  }

  /** Writes what is left and waits until the last byte has reached `out`. */
  async finish(): Promise<void> {
    if (this.failed) throw this.failed;
    await this.wb.commit();
    await this.done;
  }
}

export interface XlsxListOptions {
  /** Fixed header (flattened names); the first item's keys otherwise. */
  columns?: string[];
  fields?: string[];
  /** Items are flat records already (the wide scorecard rows). */
  flatItems?: boolean;
  sheet: string;
  /** Told once when later items have fields outside the header. */
  warn?: (text: string) => void;
  /** The error of an earlier write to the output, if any (IOStreams.stdoutError). */
  failed?: () => unknown;
}

/**
 * The rows of a list, one sheet. `write` takes API objects (flattened as for
 * CSV) or flat records; `end` resolves when the workbook is complete.
 */
export async function openXlsxList(out: { write(chunk: string): boolean }, opts: XlsxListOptions) {
  const book = await XlsxBook.open(out, opts.failed);
  let sheet: XlsxSheet | undefined;
  let header = opts.fields ? undefined : opts.columns;
  let warned = false;
  return {
    write(item: unknown): void {
      const rec = opts.flatItems && !opts.fields ? (item as Record<string, Cell>) : csvRecord(item, opts.fields);
      if (!header) header = unionKeys([rec], opts.fields);
      else if (!warned && !opts.columns && keysOutside(rec, header).length > 0) {
        warned = true;
        opts.warn?.(`Warning: the sheet's columns were fixed by the first row; ${safeLine(keysOutside(rec, header).join(', '))} of later rows left out (use -o ndjson for every field).\n`);
      }
      sheet ??= book.addSheet(opts.sheet, header);
      sheet.add(cellsFor(rec, header));
    },
    async end(): Promise<void> {
      sheet ??= book.addSheet(opts.sheet, header ?? opts.fields ?? []);
      sheet.end();
      await book.finish();
    },
  };
}
