/**
 * Inputs without bounds (issue 26, finding 6): a CSV whose first line never
 * ends, and workbooks built as bombs — a sheet that inflates past the bound
 * (declaring its size, or lying about it), rows past Excel's limit, rows with
 * a cell in the last column — and workbook parts that are broken. Each is
 * refused with one sentence and exit 2, in a time linear in what was read;
 * no XML error exits 1 as a bug, and none is relabelled as another.
 */
import { openSync, closeSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES } from '../../src/bulk/reader.js';
import { MAX_PART_BYTES, MAX_SHEET_ROWS } from '../../src/bulk/xlsx-parts.js';
import { INVITER, useBulkStub } from './harness.js';
import { repeated, row, SHEET_HEAD, SHEET_TAIL, stored, workbookParts, zip } from './helpers/zip.js';

const { h, invite } = useBulkStub('jobfit-bulk-bounds-');

const dryRun = (path: string) => invite(['--csv', path, '--created-by', INVITER, '--dry-run']);
const HEADER = row(1, ['First Name', 'Last Name', 'Email']);

/** One sentence, exit 2, no stack trace, no "bug". */
function expectRefused(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/bug in jobfit|\n\s+at /);
  expect(r.code).toBe(2);
}

async function timed<T>(f: () => Promise<T>): Promise<{ r: T; seconds: number }> {
  const t0 = performance.now();
  const r = await f();
  return { r, seconds: (performance.now() - t0) / 1000 };
}

describe('a CSV whose first line has no end', () => {
  it('30 MB without a newline is refused at the line bound, at once (it was quadratic: 100 MB took 134 s)', async () => {
    const p = join(h.dir, 'one-line.csv');
    const fd = openSync(p, 'w');
    const mb = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 30; i++) writeSync(fd, mb);
    closeSync(fd);
    const { r, seconds } = await timed(() => dryRun(p));
    expectRefused(r, /has a record over 1 MB starting on line 1/);
    expect(MAX_RECORD_BYTES).toBe(1024 * 1024);
    expect(seconds).toBeLessThan(5);
  });
});

describe('workbook bombs', () => {
  const write = (name: string, parts: Parameters<typeof zip>[0]) => {
    const p = join(h.dir, name);
    writeFileSync(p, zip(parts));
    return p;
  };

  it('a sheet that says it inflates past the bound is refused before it is read', async () => {
    const sheet = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, ' '.repeat(1 << 20), 300, SHEET_TAIL);
    expect(sheet.size).toBeGreaterThan(MAX_PART_BYTES);
    const p = write('declared-bomb.xlsx', workbookParts(sheet));
    const { r, seconds } = await timed(() => dryRun(p));
    expectRefused(r, /is refused: its part xl\/worksheets\/sheet1\.xml inflates to more than 256 MB/);
    expect(seconds).toBeLessThan(5);
  });

  it('a sheet that lies about its size is stopped at the bound (a 1 MB workbook inflating to 300 MB)', async () => {
    const sheet = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, ' '.repeat(1 << 20), 300, SHEET_TAIL);
    sheet.size = 4096;
    const p = write('lying-bomb.xlsx', workbookParts(sheet));
    const { r, seconds } = await timed(() => dryRun(p));
    expectRefused(r, /inflates to more than 256 MB, which no participant list needs/);
    expect(seconds).toBeLessThan(30);
  }, 60_000);

  it('a row past Excel\'s limit is refused at once', async () => {
    const body = `${HEADER}${row(2, ['Ann', 'Lee', 'ann.lee.bound@example.com'])}${row(MAX_SHEET_ROWS + 1, ['Bo', 'Ng', 'bo.ng.bound@example.com'])}`;
    const p = write('too-many-rows.xlsx', workbookParts(stored('xl/worksheets/sheet1.xml', SHEET_HEAD + body + SHEET_TAIL)));
    expectRefused(await dryRun(p), /has more than 1,048,576 rows \(Excel's own limit\)/);
  });

  it('100,000 rows with a cell in the last column (XFD) are read in linear time', async () => {
    const wide = '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2" t="inlineStr"><is><t>Lee</t></is></c><c r="XFD2" t="inlineStr"><is><t>x</t></is></c></row>';
    const sheet = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, wide.repeat(1000), 100, SHEET_TAIL);
    const p = write('wide-rows.xlsx', workbookParts(sheet));
    const { r, seconds } = await timed(() => dryRun(p));
    expect(r.stdout).toContain('100,000 rows, 0 valid, 100,000 invalid');
    expect(r.stdout).toMatch(/has 4 fields but the header has 3/);
    // ~1.5 s here; each row used to be padded to 16,384 cells.
    expect(seconds).toBeLessThan(10);
  }, 60_000);
});

describe('broken workbook parts are named for what they are', () => {
  const write = (name: string, parts: Parameters<typeof zip>[0]) => {
    const p = join(h.dir, name);
    writeFileSync(p, zip(parts));
    return p;
  };
  const sheet = () => stored('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER + row(2, ['Ann', 'Lee', 'ann.lee.parts@example.com']) + SHEET_TAIL);

  it('styles that are not XML: exit 2 naming the part, not a bug', async () => {
    const p = write('bad-styles.xlsx', workbookParts(sheet(), stored('xl/styles.xml', '<styleSheet><cellXfs><xf numFmtId="0"></cellXfs>')));
    expectRefused(await dryRun(p), /could not be read as an Excel workbook: its part xl\/styles\.xml is not valid XML/);
  });

  it('a part whose deflate data is damaged: exit 2, damaged', async () => {
    const broken = { name: 'xl/worksheets/sheet1.xml', data: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x13]), method: 8 as const, size: 100 };
    const p = write('bad-deflate.xlsx', workbookParts(broken));
    expectRefused(await dryRun(p), /its part xl\/worksheets\/sheet1\.xml is damaged/);
  });

  it('a sheet without an email column says so, not "not valid XML"', async () => {
    const body = HEADER.replace('Email', 'Phone') + row(2, ['Ann', 'Lee', '+1 415 555 0100']);
    const p = write('no-email.xlsx', workbookParts(stored('xl/worksheets/sheet1.xml', SHEET_HEAD + body + SHEET_TAIL)));
    const r = await dryRun(p);
    expectRefused(r, /has no email column/);
    expect(r.stderr).not.toMatch(/not valid XML/);
  });

  it('a sheet that is not XML is named as the sheet', async () => {
    const p = write('bad-sheet.xlsx', workbookParts(stored('xl/worksheets/sheet1.xml', `${SHEET_HEAD}${HEADER}<row><c></row>${SHEET_TAIL}`)));
    expectRefused(await dryRun(p), /sheet "People" is not valid XML/);
  });
});

describe('a workbook refused for what it says, not for its XML', () => {
  it('no inviter: the inviter sentence and exit 2, as for the same rows in a CSV (it was "not valid XML (No inviter: …)")', async () => {
    const rows = [['First Name', 'Last Name', 'Email'], ['Ann', 'Lee', 'ann.lee.inviter@example.com']];
    const book = join(h.dir, 'no-inviter.xlsx');
    writeFileSync(book, zip(workbookParts(stored('xl/worksheets/sheet1.xml', SHEET_HEAD + rows.map((r, i) => row(i + 1, r)).join('') + SHEET_TAIL))));
    const csv = join(h.dir, 'no-inviter.csv');
    writeFileSync(csv, rows.map((r) => r.join(',')).join('\n'));
    const fromBook = await invite(['--file', book, '--dry-run']);
    const fromCsv = await invite(['--file', csv, '--dry-run']);
    expectRefused(fromBook, /^Error: No inviter: /m);
    expect(fromBook.stderr).not.toMatch(/XML|could not be read as an Excel workbook/);
    expect(fromCsv.code).toBe(2);
    expect(fromBook.stderr.match(/^Error: .*$/m)?.[0]).toBe(fromCsv.stderr.match(/^Error: .*$/m)?.[0]);
  });

  it('the header\'s refusals name the file, never "the CSV" (it said "the CSV has no created_by column" of a workbook)', async () => {
    const book = (name: string, header: string[]) => {
      const p = join(h.dir, name);
      writeFileSync(p, zip(workbookParts(stored('xl/worksheets/sheet1.xml', SHEET_HEAD + row(1, header) + row(2, ['Ann', 'Lee', 'x']) + SHEET_TAIL))));
      return p;
    };
    const noInviter = await invite(['--file', book('names-no-inviter.xlsx', ['First Name', 'Last Name', 'Email']), '--dry-run']);
    const noEmail = await dryRun(book('names-no-email.xlsx', ['First Name', 'Last Name', 'Phone']));
    expectRefused(noInviter, /^Error: No inviter: the file has no created_by column and no --created-by was given/m);
    expectRefused(noEmail, /^Error: The file has no email column \(its header is: "First Name", "Last Name", "Phone"\)\.$/m);
    for (const r of [noInviter, noEmail]) expect(r.stderr.match(/^Error: .*$/m)?.[0]).not.toMatch(/CSV/);
  });
});

describe('a CSV header of 125,000 empty columns (issue 42)', () => {
  it('is read with one sentence per kind of column, never a stack overflow', async () => {
    const p = join(h.dir, 'wide-header.csv');
    const empties = ','.repeat(125_000);
    writeFileSync(p, `First Name,Last Name,Email${empties}\nAda,Lovelace,ada@example.com${empties}\n`);
    const r = await dryRun(p);
    expect(r.stderr).not.toMatch(/bug in jobfit|Maximum call stack|\n\s+at /);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 rows?, 1 valid, 0 invalid/);
    expect(r.stdout).toContain("125,000 columns with no header → carried through untouched");
  });
});
