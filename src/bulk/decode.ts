/**
 * Bytes → text for the CSV reader: strict UTF-8 (a latin-1 or UTF-16 file is
 * refused with one sentence rather than silently turned into mojibake names in
 * real emails), BOM dropped, and an early look at the first bytes so that a
 * PNG, a zip/xlsx, a PDF or a JSON document is named for what it is.
 */
import { UsageError } from '../cli/errors.js';

const MAGIC: Array<{ bytes: number[]; what: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive (an .xlsx workbook is one: export it as CSV)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel/Office document (export it as CSV)' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0xff, 0xfe], what: 'UTF-16 text (save it as UTF-8)' },
  { bytes: [0xfe, 0xff], what: 'UTF-16 text (save it as UTF-8)' },
];

/** Names what the first bytes of a file are when they are certainly not CSV text; undefined otherwise. */
export function sniffNotCsv(head: Uint8Array): string | undefined {
  for (const m of MAGIC) {
    if (head.length >= m.bytes.length && m.bytes.every((b, i) => head[i] === b)) return m.what;
  }
  const n = Math.min(head.length, 8192);
  for (let i = 0; i < n; i++) if (head[i] === 0) return 'binary data';
  // First non-blank character (after an optional BOM).
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < n && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (head[i] === 0x7b /* { */ || head[i] === 0x5b /* [ */) {
    const text = Buffer.from(head.subarray(i, n)).toString('utf8');
    if (/^[{[]\s*["{[\]}]/.test(text)) return 'JSON, not CSV';
  }
  if (head[i] === 0x3c /* < */) return 'HTML or XML, not CSV';
  return undefined;
}

export interface DecodeInfo {
  /** The input started with a UTF-8 byte order mark. */
  bom: boolean;
}

function countNewlines(s: string): number {
  let n = 0;
  let i = s.indexOf('\n');
  while (i !== -1) {
    n++;
    i = s.indexOf('\n', i + 1);
  }
  return n;
}

/**
 * Decodes a byte stream as strict UTF-8, chunk by chunk (a character split
 * across two chunks is fine: the decoder is in streaming mode). Throws a
 * UsageError naming the line of the first invalid byte.
 */
export async function* decodeUtf8(source: AsyncIterable<Buffer | Uint8Array>, label: string, info: DecodeInfo): AsyncGenerator<string> {
  // ignoreBOM: false = the decoder drops a leading BOM itself.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  let lines = 0;
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    if (first) {
      first = false;
      const what = sniffNotCsv(chunk);
      if (what) throw new UsageError(`${label} is not a CSV file: it looks like ${what}.`, 'give a CSV file exported from a spreadsheet, with a header line');
      info.bom = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      // Find the line: decode this chunk leniently and look for the replacement character.
      const lenient = new TextDecoder('utf-8').decode(chunk);
      const at = lenient.indexOf('\uFFFD');
      const line = lines + 1 + (at > 0 ? countNewlines(lenient.slice(0, at)) : 0);
      throw new UsageError(
        `${label} is not UTF-8 text (invalid bytes on line ${line}).`,
        'save the file as "CSV UTF-8" in your spreadsheet, or convert it: iconv -f latin1 -t utf-8 FILE > FILE.utf8.csv',
      );
    }
    lines += countNewlines(text);
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new UsageError(`${label} is not UTF-8 text (it ends inside a multi-byte character).`, 'save the file as "CSV UTF-8"');
  }
}
