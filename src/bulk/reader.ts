/**
 * Streams the records of a CSV file: strict UTF-8 or UTF-16 with a BOM
 * (decode.ts), delimiter detected from the header line (comma, semicolon, tab
 * or pipe) or given by Excel's `sep=;` first line, CRLF/LF/CR, quoted fields
 * with delimiters and newlines, blank lines and lines of only delimiters
 * skipped. Memory stays flat: one chunk and one record at a time.
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
}

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
 * Reads the file's header and records, a chunk's worth of records at a time
 * (one promise per 64 KB chunk rather than per record keeps the garbage, and
 * so the peak memory of a 100,000-row run, low). `onHeader` is called once
 * before the first record; it may throw (e.g. a missing column) to stop early.
 */
export async function* readCsvBatches(path: string, label: string, onHeader: (meta: CsvMeta) => void): AsyncGenerator<CsvRecord[]> {
  const info: DecodeInfo = { bom: false };
  const text = decodeUtf8(createReadStream(path, { highWaterMark: 64 * 1024 }), label, info);

  let parser: Parser | undefined;
  let parseError: Error | undefined;
  let parsed: string[][] = [];
  let header: string[] | undefined;
  let delimiter = ',';
  let row = 0;
  let prevEnd = 0;
  // Excel's "sep=;" line is not the header: dropped, once.
  let skipSep = false;

  const start = (firstText: string) => {
    const firstLine = firstText.replace(/^[ \t\r\n]*/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
    if (!firstLine.trim()) {
      throw new UsageError(`${label} is empty: there is no header line.`, 'the first line must name the columns, e.g. First Name,Last Name,Email');
    }
    const sep = sepLine(firstLine);
    skipSep = sep !== undefined;
    delimiter = sep ?? detectDelimiter(firstLine);
    const p = parse({
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
    p.on('data', (r) => parsed.push(r));
    p.on('error', (e) => {
      parseError ??= e;
    });
    return p;
  };
  const feed = (p: Parser, t: string) => (parseError || p.destroyed ? Promise.resolve() : new Promise<void>((res) => p.write(t, () => res())));
  const collect = (): CsvRecord[] => {
    const out: CsvRecord[] = [];
    // The records parsed before an error still count their lines, so the error names the right one.
    for (const cells of parsed) {
      const startLine = prevEnd + 1;
      prevEnd = startLine + breaksIn(cells);
      // Blank lines, and lines of only delimiters (",,,") that spreadsheets export.
      if (cells.every((c) => c === '')) continue;
      if (skipSep) {
        skipSep = false;
        continue;
      }
      if (!header) {
        header = cells;
        onHeader({ delimiter, bom: info.bom, header });
        continue;
      }
      row++;
      out.push({ row, line: startLine, cells });
    }
    parsed = [];
    if (parseError) throw csvErrorMessage(label, parseError, prevEnd + 1);
    return out;
  };

  let head = '';
  try {
    for await (const t of text) {
      if (!parser) {
        // The header line fixes the delimiter: wait for its end before parsing.
        head += t;
        if (!/[\r\n]/.test(head)) continue;
        parser = start(head);
        await feed(parser, head);
        head = '';
      } else {
        await feed(parser, t);
      }
      const batch = collect();
      if (batch.length) yield batch;
    }
    if (!parser) parser = start(head) as Parser;
    if (head) await feed(parser, head);
    const p = parser;
    if (!parseError && !p.destroyed) {
      await new Promise<void>((res) => {
        p.once('end', res);
        p.once('error', () => res());
        p.once('close', () => res());
        p.end();
      });
    }
    const last = collect();
    if (last.length) yield last;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code === 'string' && typeof e.syscall === 'string') throw readErrorMessage(label, e);
    throw err;
  } finally {
    parser?.destroy();
  }
  if (!header) throw new UsageError(`${label} is empty: there is no header line.`);
}

/** Record by record (tests and small uses); the pipeline reads batches. */
export async function* readCsv(path: string, label: string, onHeader: (meta: CsvMeta) => void): AsyncGenerator<CsvRecord> {
  for await (const batch of readCsvBatches(path, label, onHeader)) yield* batch;
}
