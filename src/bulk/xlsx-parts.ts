/**
 * The parts of an .xlsx workbook, each read through its bounds (xlsx-reader.ts
 * says why): the zip's entries inflated to at most MAX_PART_BYTES, the XML
 * parser, relationships, styles, shared strings and merged ranges, and the
 * one sentence a damaged part is named with.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { JobfitError, UsageError } from '../core/errors.js';
import type { HeaderOptions } from './reader.js';
import { builtinFormat } from './xlsx-numfmt.js';

export interface ZipEntry {
  path: string;
  stream(): Readable;
}

/** The most bytes one part of a workbook may inflate to (a 100,000-row sheet is ~40 MB). */
export const MAX_PART_BYTES = 256 * 1024 * 1024;
/** The most rows a sheet may have (Excel's own limit). */
export const MAX_SHEET_ROWS = 1_048_576;

/** A part's XML is not well formed (saxes). */
export class XmlError extends Error {}
/** A part inflates past MAX_PART_BYTES. */
class TooBig extends Error {}
/** An error met while reading one part (turned into a sentence by partError). */
export class PartFailure extends Error {
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
export function bounded(stream: Readable, declared: number): Readable {
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
export function partStream(file: string, e: import('unzipper').Entry): Readable {
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

export interface SheetRef {
  name: string;
  hidden: boolean;
  /** Path of the sheet part inside the zip. */
  part?: string;
}

export interface XlsxReadOptions extends HeaderOptions {
  /** `--sheet`: a sheet's name, or its 1-based position in the workbook. */
  sheet?: string;
}

export const localName = (name: string) => {
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

export function notWorkbook(label: string, why: string): UsageError {
  return new UsageError(`${label} could not be read as an Excel workbook: ${why}.`, 'open it in Excel and save it again as "Excel Workbook (.xlsx)", or as "CSV UTF-8"');
}

export const short = (err: unknown) => String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 120);

/**
 * An error met while reading a part, as what it is: ours (a usage error from
 * the header's check) as is; a part past the bound, a part that is not XML,
 * a damaged zip stream each in their words; anything else is a bug and stays one.
 */
export function partError(label: string, part: string, err: unknown): unknown {
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

export const NUM_ROWS = MAX_SHEET_ROWS.toLocaleString('en-US');

/** A saxes parser whose XML errors are XmlError (never a handler's own error). */
export function xmlParser(): SaxesParser {
  const parser = new SaxesParser();
  parser.on('error', (e) => {
    throw new XmlError(e.message);
  });
  return parser;
}

/** Parses a (small or large) XML part with saxes, chunk by chunk. */
export function parseXml(
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

export async function readRels(entry: ZipEntry | undefined, base: string): Promise<Map<string, { target: string; type: string }>> {
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

export interface Styles {
  /** Number format code of each cell style (index = the cell's `s`). */
  formats: Array<string | undefined>;
}

export async function readStyles(entry: ZipEntry | undefined): Promise<Styles> {
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
export async function readSharedStrings(entry: ZipEntry | undefined): Promise<StringTable> {
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
export async function readMerges(entry: ZipEntry): Promise<Merge[]> {
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

export interface Opened {
  files: Map<string, ZipEntry>;
  sheets: SheetRef[];
  date1904: boolean;
  /** The styles and shared strings parts, by the workbook's relationships. */
  styles?: ZipEntry;
  strings?: ZipEntry;
}

/** The sheets of a workbook as a person picks one: `1 "People", 2 "Notes" (hidden)`. */
export function sheetList(sheets: SheetRef[]): string {
  return sheets.map((s, i) => `${i + 1} "${s.name}"${s.hidden ? ' (hidden)' : ''}`).join(', ');
}
