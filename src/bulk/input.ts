/**
 * The participant list of a bulk run: a CSV (reader.ts) or an .xlsx workbook
 * (xlsx-reader.ts), told apart by the file's first bytes, not its name. The
 * spreadsheet formats we do not read (.xls, .ods, a password-protected
 * workbook) are refused here with one sentence that says how to save them.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { type CsvMeta, type CsvRecord, type HeaderOptions, readCsvBatches } from './reader.js';

export interface InputOptions extends HeaderOptions {
  /** `--sheet NAME|N` (workbooks only). */
  sheet?: string;
}

function head(path: string, bytes: number, at = 0): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const b = Buffer.alloc(bytes);
    const n = readSync(fd, b, 0, bytes, at);
    return b.subarray(0, n);
  } catch {
    // Unreadable: the CSV reader says why, in its words.
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The names in the first directory sector of an OLE compound file (UTF-16LE, 128-byte entries). */
function oleNames(path: string, h: Buffer): string[] {
  if (h.length < 0x40) return [];
  const sectorSize = 1 << h.readUInt16LE(0x1e);
  const firstDir = h.readUInt32LE(0x30);
  if (sectorSize < 128 || sectorSize > 4096 || firstDir >= 0xfffffffa) return [];
  const dir = head(path, sectorSize, (firstDir + 1) * sectorSize);
  const names: string[] = [];
  for (let off = 0; off + 128 <= dir.length; off += 128) {
    const len = dir.readUInt16LE(off + 64);
    if (len >= 2 && len <= 64) names.push(dir.toString('utf16le', off, off + len - 2));
  }
  return names;
}

const SAVE_AS = 'save it as "Excel Workbook (.xlsx)" or "CSV UTF-8 (Comma delimited)"';

/** What the file is, by its first bytes: a workbook we read, or text for the CSV reader. Throws for the formats we refuse. */
export function inputKind(path: string, label: string): 'xlsx' | 'csv' {
  const h = head(path, 512);
  if (h.length >= 4 && h[0] === 0x50 && h[1] === 0x4b && h[2] === 0x03 && h[3] === 0x04) {
    // OpenDocument puts an uncompressed "mimetype" entry first.
    const nameLen = h.readUInt16LE(26);
    const name = h.toString('latin1', 30, 30 + nameLen);
    if (name === 'mimetype' && h.toString('latin1', 30, 200).includes('opendocument.spreadsheet')) {
      throw new UsageError(`${label} is an OpenDocument spreadsheet (.ods), which is not read: in LibreOffice Calc use File → Save As and ${SAVE_AS}.`);
    }
    return 'xlsx';
  }
  if (h.length >= 8 && h.readUInt32BE(0) === 0xd0cf11e0 && h.readUInt32BE(4) === 0xa1b11ae1) {
    const names = oleNames(path, h);
    if (names.some((n) => n === 'EncryptedPackage' || n === 'EncryptionInfo')) {
      throw new UsageError(
        `${label} is a password-protected workbook, which cannot be read: open it in Excel, clear the password (File → Info → Protect Workbook → Encrypt with Password) and ${SAVE_AS}.`,
      );
    }
    throw new UsageError(`${label} is an Excel 97-2003 workbook (.xls), which is not read: open it in Excel and ${SAVE_AS} (File → Save As).`);
  }
  return 'csv';
}

/**
 * The records of a CSV or of a workbook's sheet, a chunk's worth at a time;
 * `onHeader` once before the first (see readCsvBatches).
 */
export async function* readInputBatches(path: string, label: string, onHeader: (meta: CsvMeta) => void, opts: InputOptions = {}): AsyncGenerator<CsvRecord[]> {
  if (checkInputKind(path, label, opts.sheet) === 'xlsx') {
    const { readXlsxBatches } = await import('./xlsx-reader.js');
    yield* readXlsxBatches(path, label, onHeader, opts);
    return;
  }
  yield* readCsvBatches(path, label, onHeader, opts);
}

/** inputKind, and --sheet refused for a CSV: what the file's first bytes settle, before anything connects (run.ts). */
export function checkInputKind(path: string, label: string, sheet: string | undefined): 'xlsx' | 'csv' {
  const kind = inputKind(path, label);
  if (kind === 'csv' && sheet !== undefined) throw new UsageError(`--sheet is for a workbook (.xlsx); ${label} is read as CSV.`, 'drop --sheet, or give the .xlsx file');
  return kind;
}
