/**
 * Streams the records of a CSV file: strict UTF-8 or UTF-16 with a BOM
 * (decode.ts), delimiter detected from the header line (comma, semicolon, tab
 * or pipe) or given by Excel's `sep=;` first line, CRLF/LF/CR, quoted fields
 * with delimiters and newlines, blank lines and lines of only delimiters
 * skipped. Memory stays flat: one chunk and one record at a time.
 *
 * The header is the first record that `isHeader` accepts (it maps an email
 * and a name): a title block or a preamble above it (LinkedIn's "Notes:",
 * "Exported 20 Nov 2026") is skipped and named, within the first
 * PREAMBLE_RECORDS records; `headerRow` says the header's line outright.
 * Without either, the first record is the header.
 */
import { createReadStream } from 'node:fs';
import { type CsvError, type Parser, parse } from 'csv-parse';
import { UsageError } from '../core/errors.js';
import { type DecodeInfo, decodeUtf8 } from './decode.js';

export interface CsvRecord {
  /** 1-based data row number (the header is not a row; blank lines are not rows). */
  row: number;
  /** 1-based line of the file where the record starts. */
  line: number;
  cells: string[];
}

export interface CsvMeta {
  delimiter: string;
  bom: boolean;
  header: string[];
  /** Line of the file (row of the sheet) the header is on. */
  headerLine?: number;
  /** The sheet read (workbooks). */
  sheet?: string;
}

/** How the header is found (see the file's comment). */
export interface HeaderOptions {
  /** `--header-row N`: the line (sheet row) of the header, 1-based. */
  headerRow?: number;
  /** Whether a record is the header a person would mean. */
  isHeader?: (cells: string[]) => boolean;
  /** Said once to the user (stderr): lines skipped above the header. */
  note?: (text: string) => void;
}

/** Records above the header looked at before the first record is taken as the header (whose mapping then says what is wrong). */
export const PREAMBLE_RECORDS = 30;
/** Lines looked at to find the header's delimiter. */
const PROBE_LINES = 40;
const PROBE_CHARS = 64 * 1024;

/** Picks the delimiter that splits the header line the most, outside quotes (comma on a tie). */
export function detectDelimiter(firstLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0, '|': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  let best = ',';
  for (const d of [';', '\t', '|']) if (counts[d] > counts[best]) best = d;
  return best;
}

/**
 * Excel's "sep=;" first line (written by some exports, and by people to make
 * Excel open a file right): the delimiter it names, or undefined.
 */
export function sepLine(firstLine: string): string | undefined {
  const m = /^"?sep=([^A-Za-z0-9" ])"?[ \t]*$/i.exec(firstLine.trimStart());
  return m?.[1];
}

/** One line's cells split on `d` outside double quotes (enough to test a line as the header). */
export function splitLine(line: string, d: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
    } else if (ch === d && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/**
 * The delimiter of the header: the first of the first lines that is a header
 * with one of the four delimiters (the most splitting one); else the one that
 * splits the first line the most. A title line above a `;` header must not
 * make it a comma file.
 */
function headerDelimiter(lines: string[], isHeader: ((cells: string[]) => boolean) | undefined, headerRow: number | undefined): string {
  const at = headerRow !== undefined ? lines.slice(headerRow - 1, headerRow) : lines;
  for (const line of at) {
    if (!isHeader && headerRow === undefined) break;
    if (!line.trim()) continue;
    let best: string | undefined;
    let width = 0;
    for (const d of [',', ';', '\t', '|']) {
      const cells = splitLine(line, d);
      if (cells.length > width && (headerRow !== undefined || isHeader!(cells))) {
        best = d;
        width = cells.length;
      }
    }
    if (best && (width > 1 || headerRow !== undefined)) return best;
  }
  return detectDelimiter(lines.find((l) => l.trim() !== '') ?? '');
}

/** Line breaks inside a record's cells (CRLF counts once). */
function breaksIn(cells: string[]): number {
  let n = 0;
  for (const c of cells) {
    for (let i = 0; i < c.length; i++) {
      const ch = c.charCodeAt(i);
      if (ch === 10) n++;
      else if (ch === 13 && c.charCodeAt(i + 1) !== 10) n++;
    }
  }
  return n;
}

/** The longest record accepted; past it a file is not a participant list (and memory must stay small). */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** `line` is where the failing record starts (counted by us: csv-parse's count is off with CRLF inside quotes). */
function csvErrorMessage(label: string, err: CsvError | Error, line: number): UsageError {
  const code = (err as CsvError).code;
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return new UsageError(`${label} has a quoted field that is never closed (it opens in the record starting on line ${line}).`, 'check for a stray double quote (") in that row');
  }
  if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE' || code === 'INVALID_OPENING_QUOTE') {
    return new UsageError(
      `${label} has text after a closing double quote in the record starting on line ${line}.`,
      'a field with a " inside must be quoted as a whole, with the quote doubled: "Robert ""Bob"" Smith"',
    );
  }
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return new UsageError(`${label} has a record over 1 MB starting on line ${line}; that is not a participant list (a stray quote can also cause it).`);
  }
  return new UsageError(`${label} could not be read as CSV at the record starting on line ${line}: ${err.message.replace(/\s+/g, ' ')}.`);
}

/** A file system error (permissions, I/O) as one sentence. */
function readErrorMessage(label: string, err: NodeJS.ErrnoException): UsageError {
  const why: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'it is a directory',
    ENOENT: 'no such file',
    EIO: 'an input/output error',
    ELOOP: 'too many symbolic links',
    ENAMETOOLONG: 'the name is too long',
  };
  const reason = why[err.code ?? ''] ?? `${err.code}`;
  return new UsageError(`Cannot read ${label}: ${reason}.`, err.code === 'EACCES' || err.code === 'EPERM' ? 'check the file\'s permissions (ls -l), or copy it somewhere you can read' : undefined);
}

/**
 * The delimiter the first lines of a file say (Excel's `sep=` line, else the
 * header's: see headerDelimiter), and whether that `sep=` line is to be
 * dropped. A file with no line that has a character is empty.
 */
export function delimiterOf(firstText: string, label: string, how: Pick<HeaderOptions, 'isHeader' | 'headerRow'>): { delimiter: string; skipSep: boolean } {
  const lines = firstText.slice(0, PROBE_CHARS + MAX_RECORD_BYTES).split(/\r\n|\n|\r/, PROBE_LINES);
  const firstLine = lines.find((l) => l.trim() !== '') ?? '';
  if (!firstLine.trim()) {
    throw new UsageError(`${label} is empty: there is no header line.`, 'the first line must name the columns, e.g. First Name,Last Name,Email');
  }
  const sep = sepLine(firstLine);
  return { delimiter: sep ?? headerDelimiter(lines, how.isHeader, how.headerRow), skipSep: sep !== undefined };
}

/** csv-parse for one delimiter: the records it has parsed so far, and its first error. */
class CsvParse {
  records: string[][] = [];
  error: Error | undefined;
  private readonly parser: Parser;

  constructor(delimiter: string) {
    this.parser = parse({
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      // A quote inside an unquoted field (Robert "Bob" Smith, O"Brien) is kept
      // as written rather than refusing the whole file.
      relax_quotes: true,
      // Blank lines come through as [''] and are skipped below: that keeps line
      // numbers exact without csv-parse's per-record info object (less garbage).
      skip_empty_lines: false,
      trim: true,
      max_record_size: MAX_RECORD_BYTES,
    });
    this.parser.on('data', (r: string[]) => this.records.push(r));
    this.parser.on('error', (e) => {
      this.error ??= e;
    });
  }

  feed(t: string): Promise<void> {
    const p = this.parser;
    return this.error || p.destroyed ? Promise.resolve() : new Promise<void>((res) => p.write(t, () => res()));
  }

  /** The last record parsed (or the error). */
  async end(): Promise<void> {
    const p = this.parser;
    if (this.error || p.destroyed) return;
    await new Promise<void>((res) => {
      p.once('end', res);
      p.once('error', () => res());
      p.once('close', () => res());
      p.end();
    });
  }

  destroy(): void {
    this.parser.destroy();
  }
}

/**
 * Parsed records to the file's records: each one's line counted (a record
 * starts after the line breaks of the one before), blank lines and lines of
 * only delimiters skipped, Excel's `sep=` line dropped, and the header found
 * (see the file's comment), the records above it named in a note.
 */
export class CsvRecordAssembler {
  header: string[] | undefined;
  private row = 0;
  private prevEnd = 0;
  /** Records above the header (a title block, a preamble), while it is looked for. */
  private readonly above: Array<{ line: number; cells: string[] }> = [];

  constructor(
    private readonly label: string,
    private readonly how: HeaderOptions,
    /** Excel's "sep=;" line is not the header: dropped, once. */
    private skipSep: boolean,
    private readonly onHeader: (header: string[], line: number) => void,
  ) {}

  /** The line the next record starts on (where a parse error is). */
  get nextLine(): number {
    return this.prevEnd + 1;
  }

  add(parsed: readonly string[][]): CsvRecord[] {
    const out: CsvRecord[] = [];
    // The records parsed before an error still count their lines, so the error names the right one.
    for (const cells of parsed) {
      const startLine = this.prevEnd + 1;
      this.prevEnd = startLine + breaksIn(cells);
      // Blank lines, and lines of only delimiters (",,,") that spreadsheets export.
      if (cells.every((c) => c === '')) continue;
      if (this.skipSep) {
        this.skipSep = false;
        continue;
      }
      if (!this.header) {
        const taken = this.takeHeader(startLine, cells);
        if (taken) out.push(...taken);
        continue;
      }
      this.row++;
      out.push({ row: this.row, line: startLine, cells });
    }
    return out;
  }

  /** The file ended before a record looked like a header: the first is taken. */
  end(): CsvRecord[] {
    return !this.header && this.above.length ? this.headerIsFirst() : [];
  }

  /** A record before the header: the header, or one more line above it. Returns data rows when the header had to be the first record. */
  private takeHeader(line: number, cells: string[]): CsvRecord[] | undefined {
    const { headerRow, isHeader } = this.how;
    if (headerRow !== undefined) {
      if (line === headerRow) this.setHeader(line, cells);
      else if (line > headerRow) throw new UsageError(`--header-row ${headerRow}: line ${headerRow} of ${this.label} is blank or inside a quoted field.`, `the first line with cells after it is ${line}`);
      else this.above.push({ line, cells });
      return undefined;
    }
    if (!isHeader || isHeader(cells)) {
      this.setHeader(line, cells);
      return undefined;
    }
    this.above.push({ line, cells });
    if (this.above.length < PREAMBLE_RECORDS) return undefined;
    return this.headerIsFirst();
  }

  private setHeader(line: number, cells: string[]): void {
    this.header = cells;
    const { above } = this;
    if (above.length && line > above[0].line) {
      const first = above[0].cells.filter((c) => c !== '').join(' ').slice(0, 60);
      this.how.note?.(`${this.label}: the header is on line ${line}; ${above.length === 1 ? 'the line' : `the ${above.length} lines`} above it skipped (line ${above[0].line}: "${first}").`);
    }
    this.onHeader(cells, line);
  }

  /** No record looked like a header: the first is taken (its mapping says what is missing), the others are rows. */
  private headerIsFirst(): CsvRecord[] {
    const [first, ...rest] = this.above.splice(0);
    this.setHeader(first.line, first.cells);
    return rest.map((r) => ({ row: ++this.row, line: r.line, cells: r.cells }));
  }
}

/**
 * Reads the file's header and records, a chunk's worth of records at a time
 * (one promise per 64 KB chunk rather than per record keeps the garbage, and
 * so the peak memory of a 100,000-row run, low). `onHeader` is called once
 * before the first record; it may throw (e.g. a missing column) to stop early.
 */
export async function* readCsvBatches(path: string, label: string, onHeader: (meta: CsvMeta) => void, how: HeaderOptions = {}): AsyncGenerator<CsvRecord[]> {
  const info: DecodeInfo = { bom: false };
  const text = decodeUtf8(createReadStream(path, { highWaterMark: 64 * 1024 }), label, info, how.note);
  let csv: CsvParse | undefined;
  let records: CsvRecordAssembler | undefined;
  const start = (firstText: string): CsvParse => {
    const { delimiter, skipSep } = delimiterOf(firstText, label, how);
    records = new CsvRecordAssembler(label, how, skipSep, (header, line) => onHeader({ delimiter, bom: info.bom, header, headerLine: line }));
    return (csv = new CsvParse(delimiter));
  };
  const collect = (p: CsvParse): CsvRecord[] => {
    const out = records!.add(p.records);
    p.records = [];
    if (p.error) throw csvErrorMessage(label, p.error, records!.nextLine);
    return out;
  };

  let head = '';
  let breaks = 0;
  try {
    for await (const t of text) {
      if (!csv) {
        // The header line fixes the delimiter: wait for the first lines before
        // parsing. Only the new text is searched (linear in the file), and a
        // first line past the record bound is refused at once.
        head += t;
        breaks += (t.match(/\r\n|\n|\r/g) ?? []).length;
        if (breaks === 0 && head.length > MAX_RECORD_BYTES) throw csvErrorMessage(label, Object.assign(new Error('record too big'), { code: 'CSV_MAX_RECORD_SIZE' }) as CsvError, 1);
        if (breaks === 0 || (breaks < PROBE_LINES && head.length < PROBE_CHARS)) continue;
        await start(head).feed(head);
        head = '';
      } else {
        await csv.feed(t);
      }
      const batch = collect(csv!);
      if (batch.length) yield batch;
    }
    const p = csv ?? start(head);
    if (head) await p.feed(head);
    await p.end();
    const last = collect(p);
    last.push(...records!.end());
    if (last.length) yield last;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code === 'string' && typeof e.syscall === 'string') throw readErrorMessage(label, e);
    throw err;
  } finally {
    csv?.destroy();
  }
  if (!records?.header) throw new UsageError(`${label} is empty: there is no header line.`);
}

/** Record by record (tests and small uses); the pipeline reads batches. */
export async function* readCsv(path: string, label: string, onHeader: (meta: CsvMeta) => void, how: HeaderOptions = {}): AsyncGenerator<CsvRecord> {
  for await (const batch of readCsvBatches(path, label, onHeader, how)) yield* batch;
}
