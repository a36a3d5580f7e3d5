/**
 * The sheet-row reader of src/bulk/xlsx-reader.ts as steps: a cell reference
 * decoded, a cell's text as the sheet displays it, the shared strings packed,
 * a header merged across columns named, and the rows assembled from cells
 * (the header found, a title skipped, values merged down, extra cells, hidden
 * rows); then whole workbooks read in-process, built by test/bulk/helpers/zip.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CsvMeta, type CsvRecord } from '../../src/bulk/reader.js';
import { decodeRef, type Merge, StringTable } from '../../src/bulk/xlsx-parts.js';
import { readXlsxBatches } from '../../src/bulk/xlsx-reader.js';
import { sheetCellText, nameMergedHeader, type RowAssembly, SheetRowAssembler } from '../../src/bulk/xlsx-rows.js';
import { UsageError } from '../../src/core/errors.js';
import { row, SHEET_HEAD, SHEET_TAIL, stored, workbookParts, zip } from './helpers/zip.js';

describe('decodeRef', () => {
  it('letters are the column, digits the row (1-based)', () => {
    expect(decodeRef('A1')).toEqual({ col: 1, row: 1 });
    expect(decodeRef('AB12')).toEqual({ col: 28, row: 12 });
    expect(decodeRef('xfd1048576')).toEqual({ col: 16_384, row: 1_048_576 });
    expect(decodeRef('C')).toEqual({ col: 3, row: 0 });
  });
});

describe('StringTable', () => {
  it('keeps each text, whatever its script, by its index', () => {
    const t = new StringTable();
    const texts = ['Ann', '', 'Zoë Ünal', '李', 'x'.repeat(100_000)];
    for (const s of texts) t.push(s);
    expect(t.size).toBe(texts.length);
    texts.forEach((s, i) => expect(t.get(i)).toBe(s));
    expect(t.get(-1)).toBeUndefined();
    expect(t.get(texts.length)).toBeUndefined();
  });
  it('grows past its first offsets', () => {
    const t = new StringTable();
    for (let i = 0; i < 5000; i++) t.push(`s${i}`);
    expect(t.get(4999)).toBe('s4999');
  });
});

describe('cellText', () => {
  const strings = new StringTable();
  strings.push('shared');
  const formats = [undefined, '0', '@', 'yyyy-mm-dd'];
  const text = (c: Partial<Parameters<typeof sheetCellText>[0]>, date1904 = false) => sheetCellText({ type: 'n', style: 0, formula: false, value: undefined, ...c }, strings, formats, date1904);

  it('a shared string by its index; a missing one is empty', () => {
    expect(text({ type: 's', value: '0' })).toBe('shared');
    expect(text({ type: 's', value: '7' })).toBe('');
  });
  it('text, inline text, an error and an ISO date as written', () => {
    expect(text({ type: 'str', value: 'a' })).toBe('a');
    expect(text({ type: 'inlineStr', value: 'b' })).toBe('b');
    expect(text({ type: 'e', value: '#N/A' })).toBe('#N/A');
    expect(text({ type: 'd', value: '2026-11-24' })).toBe('2026-11-24');
  });
  it('TRUE and FALSE', () => {
    expect(text({ type: 'b', value: '1' })).toBe('TRUE');
    expect(text({ type: 'b', value: '0' })).toBe('FALSE');
  });
  it('a number by its style\'s format: no scientific notation, a date by its format', () => {
    expect(text({ value: '447911123456', style: 1 })).toBe('447911123456');
    expect(text({ value: '46350', style: 3 })).toBe('2026-11-24');
  });
  it('a value that is not a number is kept as written', () => {
    expect(text({ value: 'n/a' })).toBe('n/a');
  });
  it('no value is empty; a formula without a saved value is null (counted), with one its value', () => {
    expect(text({})).toBe('');
    expect(text({ formula: true })).toBeNull();
    expect(text({ formula: true, value: '' })).toBeNull();
    expect(text({ formula: true, type: 'str', value: '' })).toBe('');
    expect(text({ formula: true, type: 'str', value: 'x' })).toBe('x');
  });
});

describe('nameMergedHeader', () => {
  const m = (r1: number, c1: number, r2: number, c2: number): Merge => ({ r1, c1, r2, c2 });
  it('a header cell merged across columns names each of them', () => {
    expect(nameMergedHeader(['Email', 'Notes'], [m(1, 2, 1, 4)], 1)).toEqual(['Email', 'Notes', 'Notes (2)', 'Notes (3)']);
  });
  it('merges of other rows, merges down only, and empty merged cells name nothing; holes are empty', () => {
    const rec: string[] = ['Email'];
    rec[3] = 'Phone';
    expect(nameMergedHeader(rec, [m(2, 1, 2, 3), m(1, 1, 3, 1), m(1, 2, 1, 3)], 1)).toEqual(['Email', '', '', 'Phone']);
  });
});

describe('SheetRowAssembler', () => {
  function assemble(rows: Array<{ line: number; cells: Array<[number, string]>; hidden?: boolean }>, setup: Partial<RowAssembly> = {}) {
    const headers: Array<{ header: string[]; line: number }> = [];
    const a = new SheetRowAssembler({ merges: [], probe: false, label: 'people.xlsx', where: 'sheet "People"', onHeader: (header, line) => headers.push({ header: [...header], line }), ...setup });
    for (const r of rows) {
      a.startRow(r.line, r.hidden ?? false);
      for (const [col, text] of r.cells) a.cell(col, text);
      a.endRow();
    }
    a.end();
    return { a, headers, records: a.take() };
  }
  const HEAD: Array<[number, string]> = [[1, 'First'], [2, 'Last'], [3, 'Email']];

  it('the first row with a cell is the header; rows are as wide as it; empty rows are no rows', () => {
    const { headers, records } = assemble([{ line: 2, cells: HEAD }, { line: 3, cells: [] }, { line: 4, cells: [[1, 'Ann']] }]);
    expect(headers).toEqual([{ header: ['First', 'Last', 'Email'], line: 2 }]);
    expect(records).toEqual([{ row: 1, line: 4, cells: ['Ann', '', ''] }]);
  });
  it('cells right of the header are kept at the row\'s end', () => {
    const { records } = assemble([{ line: 1, cells: HEAD }, { line: 2, cells: [[1, 'Ann'], [9, 'stray']] }]);
    expect(records[0].cells).toEqual(['Ann', '', '', 'stray']);
  });
  it('a title merged across columns is skipped, the next row is the header', () => {
    const { a, headers } = assemble([{ line: 1, cells: [[1, 'Staff 2026']] }, { line: 2, cells: HEAD }], { merges: [{ r1: 1, c1: 1, r2: 1, c2: 3 }] });
    expect(headers[0].line).toBe(2);
    expect(a.above).toEqual([{ line: 1, cells: ['Staff 2026'], hidden: false }]);
  });
  it('a value merged down is given to each row under it, and no further', () => {
    const { records } = assemble(
      [{ line: 1, cells: HEAD }, { line: 2, cells: [[1, 'Ann'], [2, 'Lee']] }, { line: 3, cells: [[1, 'Bo']] }, { line: 4, cells: [[1, 'Cy']] }],
      { merges: [{ r1: 2, c1: 2, r2: 3, c2: 2 }] },
    );
    expect(records.map((r) => r.cells[1])).toEqual(['Lee', 'Lee', '']);
  });
  it('hidden rows are read and counted', () => {
    const { a, records } = assemble([{ line: 1, cells: HEAD }, { line: 2, cells: [[1, 'Ann']], hidden: true }]);
    expect(records).toHaveLength(1);
    expect(a.hidden).toBe(1);
  });
  it('the header test: rows above the header are set aside', () => {
    const isHeader = (cells: string[]) => cells.includes('Email');
    const { a, headers, records } = assemble([{ line: 1, cells: [[1, 'Exported today']] }, { line: 2, cells: HEAD }, { line: 3, cells: [[3, 'a@example.com']] }], { isHeader });
    expect(headers[0].line).toBe(2);
    expect(a.above.map((r) => r.line)).toEqual([1]);
    expect(records).toEqual([{ row: 1, line: 3, cells: ['', '', 'a@example.com'] }]);
  });
  it('no row passes the header test: the first is the header, the others rows', () => {
    const { headers, records } = assemble([{ line: 1, cells: [[1, 'a']] }, { line: 2, cells: [[1, 'b']] }], { isHeader: () => false });
    expect(headers[0]).toEqual({ header: ['a'], line: 1 });
    expect(records).toEqual([{ row: 1, line: 2, cells: ['b'] }]);
  });
  it('a probe without a header throws instead of taking the first row', () => {
    expect(() => assemble([{ line: 1, cells: [[1, 'a']] }], { isHeader: () => false, probe: true })).toThrow();
  });
  it('--header-row: that row, the rows above it set aside; an empty one is refused', () => {
    const { headers } = assemble([{ line: 1, cells: [[1, 'title']] }, { line: 3, cells: HEAD }], { headerRow: 3 });
    expect(headers[0].line).toBe(3);
    expect(() => assemble([{ line: 1, cells: [[1, 'title']] }, { line: 4, cells: HEAD }], { headerRow: 3 })).toThrow('--header-row 3: row 3 of sheet "People" is empty.');
  });
});

describe('readXlsxBatches (in-process workbooks)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-xlsx-reader-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const book = (name: string, rows: string) => {
    const p = join(dir, name);
    writeFileSync(p, zip(workbookParts(stored('xl/worksheets/sheet1.xml', SHEET_HEAD + rows + SHEET_TAIL))));
    return p;
  };
  async function read(path: string, onHeader: (meta: CsvMeta) => void = () => {}): Promise<CsvRecord[]> {
    const out: CsvRecord[] = [];
    for await (const batch of readXlsxBatches(path, 'people.xlsx', onHeader)) out.push(...batch);
    return out;
  }

  it('the header and the rows, by the sheet\'s row numbers', async () => {
    const metas: CsvMeta[] = [];
    const records = await read(book('plain.xlsx', row(1, ['First Name', 'Last Name', 'Email']) + row(3, ['Ann', 'Lee', 'ann@example.com'])), (m) => metas.push(m));
    expect(metas).toEqual([{ delimiter: ',', bom: false, header: ['First Name', 'Last Name', 'Email'], headerLine: 1, sheet: 'People' }]);
    expect(records).toEqual([{ row: 1, line: 3, cells: ['Ann', 'Lee', 'ann@example.com'] }]);
  });

  it('an error of the header\'s check (no inviter) is itself, never "not valid XML"', async () => {
    const p = book('no-inviter.xlsx', row(1, ['First Name', 'Last Name', 'Email']) + row(2, ['Ann', 'Lee', 'ann@example.com']));
    const noInviter = new UsageError('No inviter: the file has no created_by column and no --created-by was given.');
    await expect(
      read(p, () => {
        throw noInviter;
      }),
    ).rejects.toBe(noInviter);
  });

  it('a sheet that is not XML is named as such', async () => {
    await expect(read(book('broken.xlsx', row(1, ['Email']) + '<row r="2"><c r="A2" t="inlineStr"><is><t>x</is></c></row>'))).rejects.toThrow(/sheet "People" is not valid XML/);
  });
});
