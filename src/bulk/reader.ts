/**
 * Streams the records of a CSV file: strict UTF-8 (decode.ts), delimiter
 * detected from the header line (comma, semicolon or tab), CRLF/LF/CR, quoted
 * fields with delimiters and newlines, blank lines skipped. Memory stays flat:
 * one chunk and one record at a time.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import { UsageError } from '../cli/errors.js';
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

/** Picks the delimiter that splits the header line the most, outside quotes. */
export function detectDelimiter(firstLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  let best = ',';
  for (const d of [';', '\t']) if (counts[d] > counts[best]) best = d;
  return best;
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

function csvErrorMessage(label: string, err: CsvError | Error, line: number): UsageError {
  const code = (err as CsvError).code;
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return new UsageError(`${label} has a quoted field that is never closed (from about line ${line}).`, 'check for a stray double quote (") in that row');
  }
  if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'INVALID_OPENING_QUOTE') {
    return new UsageError(`${label} has a misplaced double quote near line ${line}.`, 'a field with a " inside must be quoted, with the quote doubled ("")');
  }
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return new UsageError(`${label} has a record over 1 MB near line ${line}; it does not look like a participant list.`);
  }
  return new UsageError(`${label} could not be read as CSV near line ${line}: ${err.message.replace(/\s+/g, ' ')}.`);
}

/**
 * Reads the file's header and records. `onHeader` is called once before the
 * first record; it may throw (e.g. a missing column) to stop the read early.
 */
export async function* readCsv(path: string, label: string, onHeader: (meta: CsvMeta) => void): AsyncGenerator<CsvRecord> {
  const info: DecodeInfo = { bom: false };
  const text = decodeUtf8(createReadStream(path, { highWaterMark: 256 * 1024 }), label, info);
  const it = text[Symbol.asyncIterator]();

  // Look at the header line before the parser exists: it fixes the delimiter.
  let head = '';
  for (;;) {
    if (/[\r\n]/.test(head)) break;
    const n = await it.next();
    if (n.done) break;
    head += n.value;
  }
  const firstLine = head.replace(/^[\s]*/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
  if (!firstLine.trim()) throw new UsageError(`${label} is empty: there is no header line.`, 'the first line must name the columns, e.g. First Name,Last Name,Email');
  const delimiter = detectDelimiter(firstLine);

  const source = Readable.from(
    (async function* () {
      if (head) yield head;
      for (;;) {
        const n = await it.next();
        if (n.done) return;
        yield n.value;
      }
    })(),
    { objectMode: false },
  );
  const parser = parse({
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    max_record_size: 1024 * 1024,
  });
  pipeline(source, parser, () => {});

  let header: string[] | undefined;
  let row = 0;
  let prevEnd = 0;
  let prevEmpty = 0;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { empty_lines: number } }>) {
      const cells = item.record;
      const start = prevEnd + 1 + (item.info.empty_lines - prevEmpty);
      prevEmpty = item.info.empty_lines;
      prevEnd = start + breaksIn(cells);
      if (!header) {
        header = cells;
        onHeader({ delimiter, bom: info.bom, header });
        continue;
      }
      // A line of only delimiters (",,,") is blank too: spreadsheets export them.
      if (cells.every((c) => c === '')) continue;
      row++;
      yield { row, line: start, cells };
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw csvErrorMessage(label, err as Error, prevEnd + 1);
  } finally {
    source.destroy();
    parser.destroy();
  }
  if (!header) throw new UsageError(`${label} is empty: there is no header line.`);
}
