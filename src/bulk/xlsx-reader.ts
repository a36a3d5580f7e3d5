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
import { UsageError } from '../core/errors.js';
import type { CsvMeta, CsvRecord } from './reader.js';
import { bounded, localName, notWorkbook, type Opened, parseXml, partError, PartFailure, partStream, readRels, readSharedStrings, readStyles, type SheetRef, sheetList, short, type XlsxReadOptions, type ZipEntry } from './xlsx-parts.js';
import { NoTable } from './xlsx-rows.js';
import { type Book, sheetRows } from './xlsx-sheet.js';

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

