/**
 * One sheet's XML, parsed as it is inflated, to the rows of xlsx-rows.ts,
 * within MAX_SHEET_ROWS rows and MAX_SHEET_CELLS cells; and the notes a person
 * is told once it is read.
 */
import type { SaxesTagPlain } from 'saxes';
import { JobfitError, UsageError } from '../core/errors.js';
import type { CsvMeta, CsvRecord } from './reader.js';
import { decodeRef, localName, MAX_SHEET_ROWS, notWorkbook, NUM_ROWS, type Opened, PartFailure, readMerges, type SheetRef, sheetList, short, StringTable, type Styles, type XlsxReadOptions, XmlError, xmlParser } from './xlsx-parts.js';
import { sheetCellText, NoTable, type SheetCell, SheetRowAssembler } from './xlsx-rows.js';

export interface Book {
  wb: Opened;
  label: string;
  styles: Styles;
  strings: StringTable;
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
    const shown = sheetCellText(this.cell, strings, styles.formats, wb.date1904);
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
export async function* sheetRows(
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
