/**
 * Streams the rows of one sheet of an .xlsx workbook as the CSV reader's
 * records (reader.ts), so that bulk invite maps, validates, journals and
 * resumes a workbook exactly as it does a CSV.
 *
 * The zip is opened by its central directory (unzipper's Open.file), so the
 * parts are read in the order they are needed, whatever order the program
 * that wrote the workbook put them in: the workbook (sheet names, order,
 * visibility), its relationships, the styles (number formats), the shared
 * strings (held in memory, packed: the one part that must be), then the sheet, parsed
 * as it is inflated (saxes). Memory stays flat in the number of rows.
 *
 * Cells as a person typed them (docs/bulk-invite.md, "Workbooks"):
 * - text as it is; a number as the sheet displays it with its number format
 *   (a phone kept with its `+` or leading zero, never in scientific notation),
 *   dates and times by their format; a formula by its cached value; TRUE/FALSE;
 *   an error (#N/A) as its text.
 * - the header is the first row with a cell; a title row above it (one cell
 *   merged across columns) is skipped; a header cell merged across columns
 *   names each of them ("Notes", "Notes (2)"); a cell merged down over
 *   several rows gives its value to each of them; hidden rows are read (as Excel's "Save as CSV" does) and counted;
 *   empty rows and trailing empty columns are ignored.
 * - the first visible sheet, or `--sheet NAME|N`; the others are named once.
 *   When the first sheet has no table of people (notes, a cover page) and one
 *   other sheet has, that one is read; when several have, the run stops and
 *   names them.
 * - the header is the first row that maps an email and a name (a title block
 *   above it is skipped and named), or `--header-row N`.
 *
 * Bounds (a stranger's workbook may be a zip bomb): each part inflates to at
 * most MAX_PART_BYTES and a sheet has at most MAX_SHEET_ROWS rows; past
 * either the run stops with one sentence (exit 2). Work per row is linear in
 * its cells and the header's width. A damaged part is named as damaged, a
 * part that is not XML as not XML; nothing else is relabelled.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { JobfitError, UsageError } from '../core/errors.js';
import { type CsvMeta, type CsvRecord, type HeaderOptions, PREAMBLE_RECORDS } from './reader.js';
import { builtinFormat, formatNumber } from './xlsx-numfmt.js';

interface ZipEntry {
  path: string;
  stream(): Readable;
}

/** The most bytes one part of a workbook may inflate to (a 100,000-row sheet is ~40 MB). */
export const MAX_PART_BYTES = 256 * 1024 * 1024;
/** The most rows a sheet may have (Excel's own limit). */
export const MAX_SHEET_ROWS = 1_048_576;

/** A part's XML is not well formed (saxes). */
class XmlError extends Error {}
/** A part inflates past MAX_PART_BYTES. */
class TooBig extends Error {}
/** An error met while reading one part (turned into a sentence by partError). */
class PartFailure extends Error {
  constructor(
    readonly part: string,
    readonly reason: unknown,
  ) {
    super(`${part}: ${short(reason)}`);
  }
}

/** Runs a read of one part; what goes wrong in it is a PartFailure naming the part (our own errors pass as they are). */
async function inPart<T>(part: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw err instanceof JobfitError || err instanceof PartFailure ? err : new PartFailure(part, err);
  }
}

/** Counts a part's inflated bytes and stops it past the bound. */
function bounded(stream: Readable, declared: number): Readable {
  if (declared > MAX_PART_BYTES) {
    const r = new Readable({ read() {} });
    process.nextTick(() => r.destroy(new TooBig()));
    return r;
  }
  let n = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      n += chunk.length;
      if (n > MAX_PART_BYTES) done(new TooBig());
      else done(null, chunk);
    },
  });
  stream.on('error', (err) => out.destroy(err));
  return stream.pipe(out);
}

/**
 * A part's bytes, inflated. unzipper is used for the central directory only:
 * its own entry stream reads and inflates ahead of its reader (memory grew
 * with the sheet's size); a file stream through zlib keeps backpressure.
 */
function partStream(file: string, e: import('unzipper').Entry): Readable {
  const head = Buffer.alloc(30);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 30, e.offsetToLocalFileHeader);
  } finally {
    closeSync(fd);
  }
  if (head.readUInt32LE(0) !== 0x04034b50) throw new Error(`no local header for ${e.path}`);
  const start = e.offsetToLocalFileHeader + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (e.compressedSize === 0) return Readable.from([]);
  const raw = createReadStream(file, { start, end: start + e.compressedSize - 1, highWaterMark: 64 * 1024 });
  if (e.compressionMethod === 0) return raw;
  if (e.compressionMethod !== 8) throw new Error(`${e.path} is compressed with method ${e.compressionMethod}`);
  const inflate = createInflateRaw();
  raw.on('error', (err) => inflate.destroy(err));
  return raw.pipe(inflate);
}

interface SheetRef {
  name: string;
  hidden: boolean;
  /** Path of the sheet part inside the zip. */
  part?: string;
}

export interface XlsxReadOptions extends HeaderOptions {
  /** `--sheet`: a sheet's name, or its 1-based position in the workbook. */
  sheet?: string;
}

const localName = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

/** "B12" → {col: 2, row: 12} (1-based). */
export function decodeRef(ref: string): { col: number; row: number } {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
    else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
    else break;
  }
  return { col, row: Number(ref.slice(i)) || 0 };
}

function notWorkbook(label: string, why: string): UsageError {
  return new UsageError(`${label} could not be read as an Excel workbook: ${why}.`, 'open it in Excel and save it again as "Excel Workbook (.xlsx)", or as "CSV UTF-8"');
}

const short = (err: unknown) => String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 120);

/**
 * An error met while reading a part, as what it is: ours (a usage error from
 * the header's check) as is; a part past the bound, a part that is not XML,
 * a damaged zip stream each in their words; anything else is a bug and stays one.
 */
function partError(label: string, part: string, err: unknown): unknown {
  if (err instanceof JobfitError) return err;
  if (err instanceof TooBig) {
    return new UsageError(
      `${label} is refused: its part ${part} inflates to more than ${MAX_PART_BYTES / 1024 / 1024} MB, which no participant list needs (a zip bomb?).`,
      'open it in Excel and save only the sheet of people, or save it as "CSV UTF-8"',
    );
  }
  if (err instanceof XmlError) return notWorkbook(label, `its part ${part} is not valid XML (${short(err)})`);
  if (typeof (err as NodeJS.ErrnoException)?.code === 'string') return notWorkbook(label, `its part ${part} is damaged (${short(err)})`);
  return err;
}

const NUM_ROWS = MAX_SHEET_ROWS.toLocaleString('en-US');

/** A saxes parser whose XML errors are XmlError (never a handler's own error). */
function xmlParser(): SaxesParser {
  const parser = new SaxesParser();
  parser.on('error', (e) => {
    throw new XmlError(e.message);
  });
  return parser;
}

/** Parses a (small or large) XML part with saxes, chunk by chunk. */
function parseXml(
  entry: ZipEntry,
  on: { open?: (tag: SaxesTagPlain) => void; close?: (name: string) => void; text?: (t: string) => void },
): Promise<void> {
  return inPart(entry.path, () => parseXmlStream(entry.stream(), on));
}

async function parseXmlStream(
  stream: Readable,
  on: { open?: (tag: SaxesTagPlain) => void; close?: (name: string) => void; text?: (t: string) => void },
): Promise<void> {
  const parser = xmlParser();
  if (on.open) parser.on('opentag', on.open);
  if (on.close) parser.on('closetag', (t) => on.close!(t.name));
  if (on.text) {
    parser.on('text', on.text);
    parser.on('cdata', on.text);
  }
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
  }
  parser.write(decoder.decode());
  parser.close();
}

/** Part paths in relationships are relative to the part's folder, or absolute from the zip's root. */
function resolvePart(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').filter(Boolean);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

async function readRels(entry: ZipEntry | undefined, base: string): Promise<Map<string, { target: string; type: string }>> {
  const rels = new Map<string, { target: string; type: string }>();
  if (!entry) return rels;
  await parseXml(entry, {
    open: (t) => {
      if (localName(t.name) === 'Relationship' && t.attributes.Id) {
        rels.set(t.attributes.Id, { target: resolvePart(base, t.attributes.Target ?? ''), type: t.attributes.Type ?? '' });
      }
    },
  });
  return rels;
}

interface Styles {
  /** Number format code of each cell style (index = the cell's `s`). */
  formats: Array<string | undefined>;
}

async function readStyles(entry: ZipEntry | undefined): Promise<Styles> {
  const custom = new Map<number, string>();
  const formats: Array<string | undefined> = [];
  if (!entry) return { formats };
  let inCellXfs = false;
  await parseXml(entry, {
    open: (t) => {
      const n = localName(t.name);
      if (n === 'numFmt') custom.set(Number(t.attributes.numFmtId), t.attributes.formatCode ?? '');
      else if (n === 'cellXfs') inCellXfs = true;
      else if (n === 'xf' && inCellXfs) {
        const id = Number(t.attributes.numFmtId ?? 0);
        formats.push(custom.get(id) ?? builtinFormat(id));
      }
    },
    close: (name) => {
      if (localName(name) === 'cellXfs') inCellXfs = false;
    },
  });
  return { formats };
}

/**
 * The shared strings, packed: their UTF-8 bytes end to end in one buffer and
 * an offset each. A JS string per entry cost ~3x the bytes (a 100,000-row
 * sheet has ~400,000 distinct texts); a cell's text is decoded when read.
 */
export class StringTable {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private ends = new Uint32Array(1024);
  size = 0;

  push(s: string): void {
    const need = Buffer.byteLength(s);
    if (this.used + need > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + need));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(s, this.used);
    if (this.size === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.size++] = this.used;
  }

  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.size)) return undefined;
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}

/** Shared strings: rich text runs joined, phonetic guides (rPh) left out. */
async function readSharedStrings(entry: ZipEntry | undefined): Promise<StringTable> {
  const out = new StringTable();
  if (!entry) return out;
  let cur = '';
  let inT = false;
  let inPh = 0;
  await parseXml(entry, {
    open: (t) => {
      const n = localName(t.name);
      if (n === 'si') cur = '';
      else if (n === 't') inT = true;
      else if (n === 'rPh') inPh++;
    },
    close: (name) => {
      const n = localName(name);
      if (n === 'si') out.push(cur);
      else if (n === 't') inT = false;
      else if (n === 'rPh') inPh--;
    },
    text: (s) => {
      if (inT && inPh === 0) cur += s;
    },
  });
  return out;
}

export interface Merge {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

/**
 * The sheet's merged ranges. They follow the rows in the sheet's XML, and the
 * header and the rows need them first: the part is inflated once more and
 * scanned for `<mergeCell ref="A1:C1"/>` (no XML parse; a tenth of the time of
 * reading the rows).
 */
async function readMerges(entry: ZipEntry): Promise<Merge[]> {
  const merges: Merge[] = [];
  const re = /<(?:\w+:)?mergeCell\s[^>]*ref="([A-Za-z]+\d+):([A-Za-z]+\d+)"/g;
  let tail = '';
  const decoder = new TextDecoder('utf-8');
  const scan = (text: string) => {
    // A ref split between two chunks is found with the tail of the previous one.
    const s = tail + text;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let last = 0;
    while ((m = re.exec(s))) {
      const a = decodeRef(m[1]);
      const b = decodeRef(m[2]);
      merges.push({ r1: Math.min(a.row, b.row), c1: Math.min(a.col, b.col), r2: Math.max(a.row, b.row), c2: Math.max(a.col, b.col) });
      last = re.lastIndex;
    }
    tail = s.slice(Math.max(last, s.length - 200));
  };
  await inPart(entry.path, async () => {
    for await (const chunk of entry.stream()) {
      scan(decoder.decode(chunk as Buffer, { stream: true }));
      if (merges.length > MAX_SHEET_ROWS) throw new UsageError(`A sheet has more than ${NUM_ROWS} merged ranges, which no participant list needs.`, 'unmerge the cells, or save the sheet as "CSV UTF-8"');
    }
    scan(decoder.decode());
  });
  return merges;
}

interface Opened {
  files: Map<string, ZipEntry>;
  sheets: SheetRef[];
  date1904: boolean;
  /** The styles and shared strings parts, by the workbook's relationships. */
  styles?: ZipEntry;
  strings?: ZipEntry;
}

async function openWorkbook(path: string, label: string): Promise<Opened> {
  const { default: unzipper } = await import('unzipper');
  let dir: { files: import('unzipper').Entry[] };
  try {
    dir = await unzipper.Open.file(path);
  } catch (err) {
    throw notWorkbook(label, `its zip structure is damaged (${(err as Error).message.replace(/\s+/g, ' ')})`);
  }
  const files = new Map<string, ZipEntry>();
  for (const f of dir.files) {
    files.set(f.path.replace(/^\/+/, ''), {
      path: f.path,
      stream: () => {
        try {
          return bounded(partStream(path, f), f.uncompressedSize);
        } catch (err) {
          throw notWorkbook(label, `its part ${f.path} cannot be opened (${short(err)})`);
        }
      },
    });
  }
  const rootRels = await readRels(files.get('_rels/.rels'), '');
  const officeDoc = [...rootRels.values()].find((r) => /\/officeDocument$/.test(r.type))?.target ?? 'xl/workbook.xml';
  const book = files.get(officeDoc);
  if (!book) {
    if (files.has('content.xml') || files.has('mimetype')) throw notWorkbook(label, 'it is an OpenDocument file, not .xlsx');
    if (files.has('word/document.xml')) throw notWorkbook(label, 'it is a Word document');
    throw notWorkbook(label, 'it is a zip archive without a workbook in it');
  }
  const bookDir = officeDoc.split('/').slice(0, -1).join('/');
  const rels = await readRels(files.get(`${bookDir ? `${bookDir}/` : ''}_rels/${officeDoc.split('/').pop()}.rels`), bookDir);
  const sheets: SheetRef[] = [];
  let date1904 = false;
  await parseXml(book, {
    open: (t) => {
      const n = localName(t.name);
      if (n === 'workbookPr') date1904 = t.attributes.date1904 === '1' || t.attributes.date1904 === 'true';
      else if (n === 'sheet') {
        const rid = t.attributes['r:id'] ?? Object.entries(t.attributes).find(([k]) => localName(k) === 'id' && k.includes(':'))?.[1];
        const rel = rid ? rels.get(rid) : undefined;
        sheets.push({
          name: t.attributes.name ?? `Sheet${sheets.length + 1}`,
          hidden: t.attributes.state === 'hidden' || t.attributes.state === 'veryHidden',
          part: rel && /\/worksheet$/.test(rel.type) ? rel.target : undefined,
        });
      }
    },
  });
  if (sheets.length === 0) throw notWorkbook(label, 'it has no sheets');
  const part = (type: string) => {
    const rel = [...rels.values()].find((r) => r.type.endsWith(`/${type}`));
    return rel ? files.get(rel.target) : undefined;
  };
  return { files, sheets, date1904, styles: part('styles'), strings: part('sharedStrings') };
}

function sheetList(sheets: SheetRef[]): string {
  return sheets.map((s, i) => `${i + 1} "${s.name}"${s.hidden ? ' (hidden)' : ''}`).join(', ');
}

/** The sheet `--sheet` names (a name first, then a position), or the first visible one. */
function pickSheet(sheets: SheetRef[], label: string, want: string | undefined): { sheet: SheetRef; index: number } {
  if (want !== undefined) {
    const byName = sheets.findIndex((s) => s.name === want);
    const byFold = byName >= 0 ? byName : sheets.findIndex((s) => s.name.toLowerCase() === want.trim().toLowerCase());
    let index = byFold;
    if (index < 0 && /^\d+$/.test(want.trim())) index = Number(want.trim()) - 1;
    if (index < 0 || index >= sheets.length) {
      throw new UsageError(`${label} has no sheet "${want}"; its sheets are: ${sheetList(sheets)}.`, 'give --sheet a name or a number from that list');
    }
    return { sheet: sheets[index], index };
  }
  const index = sheets.findIndex((s) => !s.hidden);
  return { sheet: sheets[index < 0 ? 0 : index], index: index < 0 ? 0 : index };
}

/** The most cells the rows of a sheet may have, counted to the header's width (100,000 rows of 500 columns). */
export const MAX_SHEET_CELLS = 50_000_000;

interface Book {
  wb: Opened;
  label: string;
  styles: Styles;
  strings: StringTable;
}

/** A sheet looked at for a table of people has none in its first rows. */
class NoTable extends Error {}

/**
 * The records of the sheet `--sheet` names, or of the first visible sheet (or
 * the one sheet with a table of people when the first has none), a chunk's
 * worth at a time (as readCsvBatches). `line` of a record is the sheet's row
 * number, as Excel shows it.
 */
export async function* readXlsxBatches(path: string, label: string, onHeader: (meta: CsvMeta) => void, opts: XlsxReadOptions = {}): AsyncGenerator<CsvRecord[]> {
  try {
    const wb = await openWorkbook(path, label);
    let { sheet, index } = pickSheet(wb.sheets, label, opts.sheet);
    const book: Book = { wb, label, styles: await readStyles(wb.styles), strings: await readSharedStrings(wb.strings) };
    const many = wb.sheets.length > 1 && opts.sheet === undefined;
    let noted = false;
    if (many && opts.isHeader && opts.headerRow === undefined && sheet.part && !(await hasTable(book, sheet, opts))) {
      const withTable: Array<{ sheet: SheetRef; index: number }> = [];
      for (const [i, s] of wb.sheets.entries()) if (i !== index && !s.hidden && s.part && (await hasTable(book, s, opts))) withTable.push({ sheet: s, index: i });
      if (withTable.length > 1) {
        throw new UsageError(
          `${label}: sheet "${sheet.name}" has no table of people, and ${withTable.map((w) => `"${w.sheet.name}"`).join(' and ')} each have one.`,
          `choose one with --sheet NAME (the sheets: ${sheetList(wb.sheets)})`,
        );
      }
      if (withTable.length === 1) {
        opts.note?.(`${label}: sheet "${sheet.name}" has no table of people (no row names an email and a name column); reading sheet "${withTable[0].sheet.name}" (choose another with --sheet NAME|N: ${sheetList(wb.sheets)}).`);
        ({ sheet, index } = withTable[0]);
        noted = true;
      }
    }
    if (many && !noted) opts.note?.(`Reading sheet "${sheet.name}" (${index + 1} of ${wb.sheets.length}) of ${label}; the others are left alone (choose one with --sheet NAME|N: ${sheetList(wb.sheets)}).`);
    yield* sheetRows(book, sheet, index, onHeader, opts, false);
  } catch (err) {
    throw err instanceof PartFailure ? partError(label, err.part, err.reason) : err;
  }
}

/** Whether a sheet has a header a person would mean within its first rows (read no further). */
async function hasTable(book: Book, sheet: SheetRef, opts: XlsxReadOptions): Promise<boolean> {
  try {
    // A probe never yields: it returns at the header, or throws NoTable.
    await sheetRows(book, sheet, 0, () => {}, { ...opts, note: undefined }, true).next();
    return true;
  } catch (err) {
    if (err instanceof NoTable) return false;
    throw err;
  }
}

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
export function cellText(c: SheetCell, strings: Pick<StringTable, 'get'>, formats: ReadonlyArray<string | undefined>, date1904: boolean): string | null {
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

/**
 * A sheet's XML to the assembler's rows and cells: `<row>` (its number, hidden
 * or not), `<c>` (its column, type and style; a formula; its `<v>` or inline
 * text without phonetic guides), each cell's text as displayed (cellText).
 * Past MAX_SHEET_ROWS rows the sheet is refused. Only the XML's own errors
 * are "not valid XML"; the header's check and the bounds speak for themselves.
 */
class SheetXml {
  /** Formula cells without a saved value (read as empty). */
  noCachedValue = 0;
  private readonly parser = xmlParser();
  private rowNo = 0;
  private rowsSeen = 0;
  private col = 0;
  private cell: SheetCell = { type: 'n', style: 0, formula: false, value: undefined };
  private capture: 'v' | 'is' | undefined;
  private inPh = 0;

  constructor(
    private readonly book: Book,
    private readonly rows: SheetRowAssembler,
    private readonly where: string,
  ) {
    this.parser.on('opentag', (t) => this.open(t));
    const onText = (s: string) => {
      if (this.capture === 'v' || (this.capture === 'is' && this.inPh === 0)) this.cell.value += s;
    };
    this.parser.on('text', onText);
    this.parser.on('cdata', onText);
    this.parser.on('closetag', (t) => this.close(t.name));
  }

  write(text: string): void {
    try {
      this.parser.write(text);
    } catch (err) {
      if (err instanceof XmlError) throw notWorkbook(this.book.label, `${this.where} is not valid XML (${short(err)})`);
      throw err;
    }
  }

  end(): void {
    try {
      this.parser.close();
    } catch (err) {
      if (err instanceof XmlError) throw notWorkbook(this.book.label, `${this.where} ends early (${short(err)})`);
      throw err;
    }
  }

  private open(t: SaxesTagPlain): void {
    switch (localName(t.name)) {
      case 'row':
        this.rowNo = t.attributes.r ? Number(t.attributes.r) : this.rowNo + 1;
        if (++this.rowsSeen > MAX_SHEET_ROWS || this.rowNo > MAX_SHEET_ROWS) {
          throw new UsageError(`${this.book.label} is refused: ${this.where} has more than ${NUM_ROWS} rows (Excel's own limit).`, 'save only the rows of people, or save it as "CSV UTF-8"');
        }
        this.rows.startRow(this.rowNo, t.attributes.hidden === '1' || t.attributes.hidden === 'true');
        this.col = 0;
        break;
      case 'c':
        this.col = t.attributes.r ? decodeRef(t.attributes.r).col : this.col + 1;
        this.cell = { type: t.attributes.t ?? 'n', style: t.attributes.s ? Number(t.attributes.s) : 0, formula: false, value: undefined };
        break;
      case 'f':
        this.cell.formula = true;
        break;
      case 'v':
      case 'is':
        this.capture = localName(t.name) as 'v' | 'is';
        this.cell.value = '';
        break;
      case 'rPh':
        this.inPh++;
        break;
      default:
        break;
    }
  }

  private close(name: string): void {
    switch (localName(name)) {
      case 'v':
      case 'is':
        this.capture = undefined;
        break;
      case 'rPh':
        this.inPh--;
        break;
      case 'c':
        this.endCell();
        break;
      case 'row':
        this.rows.endRow();
        break;
      default:
        break;
    }
  }

  private endCell(): void {
    if (this.col < 1 || this.col > 16_384) return;
    const { styles, strings, wb } = this.book;
    const shown = cellText(this.cell, strings, styles.formats, wb.date1904);
    if (shown === null) this.noCachedValue++;
    // A copy: the parser's text is a slice of its 64 KB chunk, and a kept
    // cell (an email in the duplicate check) would keep the whole chunk.
    const read = (shown ?? '').trim();
    if (read !== '') this.rows.cell(this.col, ` ${read}`.slice(1));
  }
}

/**
 * One sheet's records. `probe`: stop (return) as soon as the header is found,
 * and throw NoTable when it is not within the first rows.
 */
async function* sheetRows(
  book: Book,
  sheet: SheetRef,
  index: number,
  onHeader: (meta: CsvMeta) => void,
  opts: XlsxReadOptions,
  probe: boolean,
): AsyncGenerator<CsvRecord[]> {
  const { wb, label } = book;
  if (!sheet.part) throw new UsageError(`Sheet "${sheet.name}" of ${label} is a chart, not a table of rows.`, `choose another with --sheet; the sheets are: ${sheetList(wb.sheets)}`);
  const entry = wb.files.get(sheet.part);
  if (!entry) throw notWorkbook(label, `the part of sheet "${sheet.name}" is missing`);
  const where = wb.sheets.length > 1 ? `sheet "${sheet.name}" (${index + 1} of ${wb.sheets.length})` : `sheet "${sheet.name}"`;
  const rows = new SheetRowAssembler({
    merges: await readMerges(entry),
    headerRow: opts.headerRow,
    isHeader: opts.isHeader,
    probe,
    label,
    where,
    onHeader: (header, line) => onHeader({ delimiter: ',', bom: false, header, headerLine: line, sheet: sheet.name }),
  });
  const xml = new SheetXml(book, rows, where);
  const decoder = new TextDecoder('utf-8');
  const chunks = entry.stream()[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await nextChunk(chunks, entry.path);
      if (next.done) break;
      xml.write(decoder.decode(next.value as Buffer, { stream: true }));
      if (probe && rows.header) return;
      const batch = rows.take();
      if (batch.length) yield batch;
    }
  } finally {
    await chunks.return?.();
  }
  xml.write(decoder.decode());
  xml.end();
  rows.end();
  if (probe) {
    if (!rows.header) throw new NoTable();
    return;
  }
  const last = rows.take();
  if (last.length) yield last;
  if (!rows.header) {
    const others = wb.sheets.length > 1 ? `; it has other sheets: choose one with --sheet (${sheetList(wb.sheets)})` : '';
    throw new UsageError(`${label} is empty: ${where} has no header row${others}.`, 'the first row must name the columns, e.g. First Name | Last Name | Email');
  }
  sheetNotes(rows, xml.noCachedValue, label, where, opts.note);
}

/** The next chunk of a part; a failure to read it is the part's (our own errors pass as they are). */
async function nextChunk(chunks: AsyncIterator<unknown>, part: string): Promise<IteratorResult<unknown>> {
  try {
    return await chunks.next();
  } catch (err) {
    throw err instanceof JobfitError ? err : new PartFailure(part, err);
  }
}

/** What a person is told once the sheet is read: title rows skipped, hidden rows read, formulas without a saved value. */
function sheetNotes(rows: SheetRowAssembler, noCachedValue: number, label: string, where: string, note: ((text: string) => void) | undefined): void {
  const { above, hidden } = rows;
  if (above.length) {
    const first = above[0].cells.filter((c) => c !== '').join(' ').slice(0, 60);
    const n = above.length;
    note?.(`${label}: ${n === 1 ? 'a title row' : `${n} title rows`} above the header skipped (the header is row ${rows.headerLine} of ${where}; row ${above[0].line}: "${first}").`);
  }
  if (hidden) note?.(`${label}: ${hidden} hidden row${hidden === 1 ? ' was' : 's were'} read like the others (unhide them in the sheet to check, or delete them).`);
  if (noCachedValue) {
    note?.(`${label}: ${noCachedValue} formula cell${noCachedValue === 1 ? ' has' : 's have'} no saved value and ${noCachedValue === 1 ? 'was' : 'were'} read as empty (open and save the workbook in Excel to compute them).`);
  }
}
