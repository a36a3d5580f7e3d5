/**
 * Bytes → text for the CSV reader: strict UTF-8, or UTF-16 when the file opens
 * with a UTF-16 byte order mark (Excel's "Unicode text" export), or
 * Windows-1252 when the first chunk is not UTF-8: what Excel's plain "CSV
 * (Comma delimited)" saves on a Western-European Windows, said in one note.
 * A file that starts as UTF-8 and is not UTF-8 further on, or UTF-16 without
 * a BOM, is refused with one sentence rather than silently turned into
 * mojibake names in real emails. BOM dropped, and an early look at the first
 * bytes so that a PNG, an Excel workbook, a PDF or a JSON document is named
 * for what it is.
 */
import { UsageError } from '../core/errors.js';
import { quoteWord, shellOf, type PasteShell } from '../format/command-line.js';

const MAGIC: Array<{ bytes: number[]; what: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'an Excel workbook (.xlsx, a zip archive)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an Excel workbook (.xls, an Office document)' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
];

/** The hint for a file that is not CSV text, by what it is, with a tool the user's platform has. */
export function notCsvHint(what: string, shell: PasteShell = shellOf()): string {
  if (what.startsWith('an Excel workbook')) return 'save it as CSV first: in Excel, File → Save As → "CSV UTF-8 (Comma delimited) (*.csv)"';
  if (what.startsWith('a gzip')) return shell === 'windows' ? 'unpack it first (for example with 7-Zip)' : 'unpack it first: gunzip -k FILE';
  if (what.startsWith('UTF-16')) {
    const from = what.includes(' BE ') ? 'utf-16be' : 'utf-16le';
    return `save it as "CSV UTF-8 (Comma delimited)" in Excel, or ${converter('FILE', 'OUT.csv', from, shell)}`;
  }
  return 'give a CSV file exported from a spreadsheet, with a header line';
}

/**
 * How to convert a file to UTF-8 with what the platform has: iconv on Linux
 * and macOS; on Windows, Notepad (every Windows has it; it reads the file in
 * the code page Windows uses and saves it as UTF-8).
 */
function converter(file: string, out: string, from: string, shell: PasteShell): string {
  if (shell === 'windows') return `open ${quoteWord(file, shell)} in Notepad and use File → Save As with Encoding "UTF-8"`;
  return `convert it: iconv -f ${from} -t utf-8 ${quoteWord(file, shell)} > ${quoteWord(out, shell)}`;
}

/**
 * UTF-16 without a byte order mark: mostly-ASCII text then has a zero in
 * every other byte (odd bytes for little endian, even for big endian).
 */
function utf16WithoutBom(head: Uint8Array): string | undefined {
  const n = Math.min(head.length, 1024) & ~1;
  if (n < 8) return undefined;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) zeroEven++;
    if (head[i + 1] === 0) zeroOdd++;
  }
  const pairs = n / 2;
  if (zeroOdd > pairs * 0.7 && zeroEven === 0) return 'UTF-16 LE text without a byte order mark';
  if (zeroEven > pairs * 0.7 && zeroOdd === 0) return 'UTF-16 BE text without a byte order mark';
  return undefined;
}

/** Names what the first bytes of a file are when they are certainly not CSV text; undefined otherwise. */
export function sniffNotCsv(head: Uint8Array): string | undefined {
  for (const m of MAGIC) {
    if (head.length >= m.bytes.length && m.bytes.every((b, i) => head[i] === b)) return m.what;
  }
  const n = Math.min(head.length, 8192);
  const utf16 = utf16WithoutBom(head);
  if (utf16) return utf16;
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
  /** The input started with a byte order mark (the results file then gets a UTF-8 one). */
  bom: boolean;
  /** The input's encoding, as read from its first bytes. */
  encoding?: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
}

/** The encoding a UTF-16 byte order mark announces. */
function utf16Bom(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
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

export function convertHint(label: string, from: string, shell: PasteShell = shellOf()): string {
  const file = label === 'Standard input' ? 'FILE' : label;
  const out = file.replace(/(\.[A-Za-z0-9]+)?$/, '.utf8.csv');
  return `in Excel use File → Save As → "CSV UTF-8 (Comma delimited)", or ${converter(file, out, from, shell)}`;
}

/** The first chunk is UTF-8 (a character cut at its end is fine: the next chunk ends it). */
function startsAsUtf8(chunk: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(chunk, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes a byte stream as strict UTF-8 (or UTF-16 after a UTF-16 byte order
 * mark, or Windows-1252 when the first chunk is not UTF-8), chunk by chunk (a
 * character split across two chunks is fine: the decoder is in streaming
 * mode). Throws a UsageError naming the line of the first invalid byte.
 * `note` hears the one sentence that says a file was read as Windows-1252.
 */
export async function* decodeUtf8(source: AsyncIterable<Buffer | Uint8Array>, label: string, info: DecodeInfo, note?: (text: string) => void): AsyncGenerator<string> {
  // ignoreBOM: false = the decoder drops a leading BOM itself.
  let decoder = new TextDecoder('utf-8', { fatal: true });
  let encoding: NonNullable<DecodeInfo['encoding']> = 'utf-8';
  let first = true;
  let lines = 0;
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    if (first) {
      first = false;
      const utf16 = utf16Bom(chunk);
      if (utf16) {
        // Excel's "Unicode text": UTF-16 with a BOM, tab-separated. The BOM
        // says exactly what it is, so it is decoded rather than refused.
        encoding = utf16;
        decoder = new TextDecoder(utf16, { fatal: true });
        info.bom = true;
      } else {
        const what = sniffNotCsv(chunk);
        if (what) throw new UsageError(`${label} is not a CSV file: it looks like ${what}.`, notCsvHint(what));
        info.bom = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
        if (!startsAsUtf8(chunk)) {
          // Excel's plain "CSV (Comma delimited)": the ANSI code page, Windows-1252 in Western Europe and
          // the Americas. Every byte is a letter there, so it cannot fail; the results file gets a UTF-8 BOM
          // so that Excel reads the names back as they were.
          encoding = 'windows-1252';
          decoder = new TextDecoder('windows-1252');
          info.bom = true;
          note?.(`${label} is not UTF-8: read as Windows-1252, as Excel's "CSV (Comma delimited)" saves it in Western Europe and the Americas. If names look wrong in the results, save it as "CSV UTF-8 (Comma delimited)" instead.`);
        }
      }
      info.encoding = encoding;
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      // Find the line: decode this chunk leniently and look for the replacement character.
      const lenient = new TextDecoder(encoding).decode(chunk);
      const at = lenient.indexOf('\uFFFD');
      const line = lines + 1 + (at > 0 ? countNewlines(lenient.slice(0, at)) : 0);
      if (encoding !== 'utf-8' && encoding !== 'windows-1252') {
        throw new UsageError(`${label} starts as ${encoding.toUpperCase()} text but has invalid ${encoding.toUpperCase()} on line ${line}.`, convertHint(label, encoding));
      }
      throw new UsageError(
        `${label} is not UTF-8 text (invalid bytes on line ${line}): it is probably Windows-1252 or Latin-1, as Excel's plain "CSV" format saves it.`,
        convertHint(label, 'windows-1252'),
      );
    }
    lines += countNewlines(text);
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new UsageError(`${label} is not ${encoding.toUpperCase()} text: it ends inside a character.`, convertHint(label, encoding === 'utf-8' ? 'windows-1252' : encoding));
  }
}
