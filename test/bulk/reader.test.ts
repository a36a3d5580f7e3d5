/**
 * The CSV reader of src/bulk/reader.ts as steps: the delimiter of the first
 * lines (a sep= line, a title line above a `;` header), and the records
 * assembled from parsed cells (lines counted across quoted line breaks, blank
 * lines skipped, the header found under a preamble); then files read
 * in-process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvRecordAssembler, type CsvMeta, delimiterOf, type HeaderOptions, PREAMBLE_RECORDS, readCsv } from '../../src/bulk/reader.js';

const isHeader = (cells: string[]) => cells.some((c) => /e-?mail/i.test(c));

describe('delimiterOf', () => {
  it('the delimiter that splits the header the most', () => {
    expect(delimiterOf('First;Last;Email\nA;B;a@example.com\n', 'f.csv', {})).toEqual({ delimiter: ';', skipSep: false });
    expect(delimiterOf('First\tLast\tEmail\n', 'f.csv', {})).toEqual({ delimiter: '\t', skipSep: false });
  });
  it('Excel\'s sep= line names it, and is dropped', () => {
    expect(delimiterOf('sep=|\nFirst|Email\n', 'f.csv', {})).toEqual({ delimiter: '|', skipSep: true });
  });
  it('a title line with commas above a ";" header does not make it a comma file', () => {
    expect(delimiterOf('Staff, exported 20 Nov 2026\nFirst;Last;Email\n', 'f.csv', { isHeader })).toEqual({ delimiter: ';', skipSep: false });
    expect(delimiterOf('Staff, exported 20 Nov 2026\nFirst;Last;Email\n', 'f.csv', { headerRow: 2 }).delimiter).toBe(';');
  });
  it('a file of blank lines is empty', () => {
    expect(() => delimiterOf('\n  \n', 'f.csv', {})).toThrow('f.csv is empty: there is no header line.');
  });
});

describe('CsvRecordAssembler', () => {
  function assemble(parsed: string[][], how: HeaderOptions = {}, skipSep = false) {
    const headers: Array<{ header: string[]; line: number }> = [];
    const notes: string[] = [];
    const a = new CsvRecordAssembler('f.csv', { ...how, note: (t) => notes.push(t) }, skipSep, (header, line) => headers.push({ header, line }));
    const records = [...a.add(parsed), ...a.end()];
    return { a, headers, notes, records };
  }

  it('the first record is the header; rows are numbered, blank and delimiter-only lines skipped but counted', () => {
    const { headers, records } = assemble([['Email'], [''], ['a@example.com'], ['', ''], ['b@example.com']]);
    expect(headers).toEqual([{ header: ['Email'], line: 1 }]);
    expect(records).toEqual([
      { row: 1, line: 3, cells: ['a@example.com'] },
      { row: 2, line: 5, cells: ['b@example.com'] },
    ]);
  });
  it('a record with line breaks in its cells moves the next record\'s line (CRLF counts once)', () => {
    const { a, records } = assemble([['Email', 'Notes'], ['a@example.com', 'one\r\ntwo\nthree'], ['b@example.com', '']]);
    expect(records.map((r) => r.line)).toEqual([2, 5]);
    expect(a.nextLine).toBe(6);
  });
  it('the sep= line is dropped once', () => {
    const { headers } = assemble([['sep=;'], ['Email']], {}, true);
    expect(headers[0]).toEqual({ header: ['Email'], line: 2 });
  });
  it('a preamble above the header is skipped and named', () => {
    const { headers, notes, records } = assemble([['Notes:'], ['Exported 20 Nov 2026'], ['Email'], ['a@example.com']], { isHeader });
    expect(headers[0].line).toBe(3);
    expect(notes).toEqual(['f.csv: the header is on line 3; the 2 lines above it skipped (line 1: "Notes:").']);
    expect(records).toEqual([{ row: 1, line: 4, cells: ['a@example.com'] }]);
  });
  it(`no header within ${PREAMBLE_RECORDS} records: the first is the header, the others rows`, () => {
    const parsed = Array.from({ length: PREAMBLE_RECORDS + 1 }, (_, i) => [`x${i}`]);
    const { headers, records } = assemble(parsed, { isHeader: () => false });
    expect(headers[0]).toEqual({ header: ['x0'], line: 1 });
    expect(records).toHaveLength(PREAMBLE_RECORDS);
    expect(records[0]).toEqual({ row: 1, line: 2, cells: ['x1'] });
  });
  it('a file that ends before a header: the first record is it', () => {
    const { headers, records } = assemble([['a'], ['b']], { isHeader: () => false });
    expect(headers[0].header).toEqual(['a']);
    expect(records).toEqual([{ row: 1, line: 2, cells: ['b'] }]);
  });
  it('--header-row: that line; a blank one is refused', () => {
    expect(assemble([['title'], ['Email'], ['a@example.com']], { headerRow: 2 }).headers[0].line).toBe(2);
    expect(() => assemble([['title'], [''], ['Email']], { headerRow: 2 })).toThrow('--header-row 2: line 2 of f.csv is blank or inside a quoted field.');
  });
});

describe('readCsv (files in-process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-reader-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  async function read(text: string | Buffer, how: HeaderOptions = {}) {
    const p = join(dir, `f${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(p, text);
    const metas: CsvMeta[] = [];
    const records = [];
    for await (const r of readCsv(p, 'f.csv', (m) => metas.push(m), how)) records.push(r);
    return { metas, records };
  }

  it('a BOM, CRLF and a quoted field with the delimiter and a line break', async () => {
    const { metas, records } = await read('\uFEFFFirst;Email\r\n"Ann; ""Bo""\r\nLee";a@example.com\r\nCy;c@example.com\r\n');
    expect(metas).toEqual([{ delimiter: ';', bom: true, header: ['First', 'Email'], headerLine: 1 }]);
    expect(records).toEqual([
      { row: 1, line: 2, cells: ['Ann; "Bo"\r\nLee', 'a@example.com'] },
      { row: 2, line: 4, cells: ['Cy', 'c@example.com'] },
    ]);
  });
  it('a quote never closed names the line its record starts on', async () => {
    await expect(read('Email,Name\na@example.com,Ann\n"b@example.com,Bo\nc@example.com,Cy\n')).rejects.toThrow('f.csv has a quoted field that is never closed (it opens in the record starting on line 3).');
  });
  it('an empty file has no header line', async () => {
    await expect(read('')).rejects.toThrow('f.csv is empty: there is no header line.');
  });
});
