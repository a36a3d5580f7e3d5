/**
 * Bulk invite from .xlsx workbooks written by another program (openpyxl, see
 * helpers/make-workbooks.py), and its results as a workbook read back by that
 * program: cells as a person typed them, merged and hidden rows, other sheets,
 * the formats we refuse, 10,000 rows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { runCli } from '../helpers/cli.js';
import { PYTHON, readWorkbook } from '../helpers/openpyxl.js';
import { INVITER, useBulkStub } from './harness.js';

const { h, invite } = useBulkStub('jobfit-bulk-xlsx-');
const wb = (name: string) => join(h.dir, 'in', name);

function expectRefused(r: { code: number; stderr: string; stdout: string }, message: RegExp) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr.match(/^Error:/gm)).toHaveLength(1);
}

describe.skipIf(skipBecause(!PYTHON && 'the workbook tests need python3 with openpyxl'))('workbooks (.xlsx) in and out', () => {
  beforeAll(() => {
    execFileSync('mkdir', ['-p', join(h.dir, 'in')]);
    execFileSync(PYTHON!, [join(import.meta.dirname, 'helpers/make-workbooks.py'), join(h.dir, 'in')]);
  });

  it('dry run: the mapping, the first sheet named among the others, a title row skipped, a hidden row counted', async () => {
    const r = await invite(['--file', wb('cells.xlsx'), '--created-by', INVITER, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('5 rows, 5 valid, 0 invalid');
    expect(r.stdout).toMatch(/"Notes \(2\)"\s+→ carried through untouched/);
    expect(r.stderr).toContain('Reading sheet "Candidates" (1 of 2)');
    expect(r.stderr).toContain('2 "Archive"');
    expect(r.stderr).toContain('a title row above the header skipped');
    expect(r.stderr).toContain('1 hidden row was read like the others');
  });

  it('sends every row; the results workbook holds the cells as the sheet shows them, typed, with a frozen bold header and a filter', async () => {
    const out = join(h.dir, 'cells.results.xlsx');
    const r = await invite(['--file', wb('cells.xlsx'), '--created-by', INVITER, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const [sheet] = readWorkbook(out);
    expect(sheet.title).toBe('Results');
    expect(sheet.freeze).toBe('A2');
    expect(sheet.filter).toBe('A1:O6');
    const head = sheet.rows[0].map((c) => c.v);
    expect(head).toEqual(['First Name', 'Last Name', 'Email', 'Phone', 'Team', 'Custom ID', 'Start', 'Score', 'Notes', 'Notes (2)', 'row', 'status', 'invitation_id', 'assessment_url', 'error']);
    expect(sheet.rows[0].every((c) => c.bold)).toBe(true);
    const col = (name: string) => head.indexOf(name);
    const rows = sheet.rows.slice(1);
    const text = (name: string) => rows.map((row) => row[col(name)].v);
    expect(text('Phone')).toEqual(['+14155550100', '+447911123456', '+1 415 555 0102', null, null]);
    expect(text('Custom ID')).toEqual(['4711', '00123', '12345678901234', null, null]);
    expect(text('Start')).toEqual(['14/3/2024', '2024-03-14 09:30', null, null, null]);
    expect(text('Score')).toEqual(['1,234.50', '25%', 'TRUE', null, '42']);
    // Text that looks like a formula stays text, without a quote in front.
    expect(text('Notes')).toEqual(['first', '-5', '@home', null, null]);
    expect(text('Team')).toEqual(['Retail Stores', 'Retail Stores', 'Retail Stores', null, null]);
    expect(text('Email')).toEqual(['ana.xl@example.com', 'bo.xl@example.com', 'cy.xl@example.com', 'di.xl@example.com', 'ed.xl@example.com']);
    expect(text('status')).toEqual(['created', 'created', 'created', 'created', 'created']);
    // Our numbers are numbers; the link is a link; no cell anywhere is a formula.
    expect(rows.map((row) => [row[col('row')].v, row[col('row')].t])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 'n']));
    for (const row of rows) {
      expect(row[col('invitation_id')].t).toBe('n');
      expect(row[col('assessment_url')].link).toBe(row[col('assessment_url')].v);
      // Input cells are text, as read (a phone is never turned into a number).
      for (let i = 0; i < col('row'); i++) expect(['s', 'n'].includes(row[i].t) && (row[i].v === null || typeof row[i].v === 'string')).toBe(true);
    }
    expect(sheet.rows.flat().filter((c) => c.t === 'f')).toEqual([]);
    // What reached the service is what the sheet shows.
    const id = rows[1][col('invitation_id')].v as number;
    const got = JSON.parse((await runCli(['invitations', 'get', String(id), '-o', 'json'], { env: h.env })).stdout);
    expect([got.custom_id, got.team?.display_name]).toEqual(['00123', 'Retail Stores']);
    // Nothing left beside it but the journal.
    expect(readdirSync(h.dir).filter((f) => f.startsWith('.cells'))).toEqual([]);
  });

  it('--sheet by name or number; a sheet that is not there is named with the list', async () => {
    for (const sheet of ['Archive', 'archive', '2']) {
      const r = await invite(['--file', wb('cells.xlsx'), '--sheet', sheet, '--created-by', INVITER, '--dry-run', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).rows).toBe(1);
      expect(r.stderr).not.toContain('Reading sheet');
    }
    expectRefused(await invite(['--file', wb('cells.xlsx'), '--sheet', 'People', '--created-by', INVITER, '--dry-run']), /has no sheet "People"; its sheets are: 1 "Candidates", 2 "Archive"\./);
    expectRefused(await invite(['--csv', wb('cells.xlsx'), '--sheet', '3', '--created-by', INVITER, '--dry-run']), /has no sheet "3"/);
  });

  it('an empty first sheet: the sheet with the people is read, and named; --sheet on a CSV is refused', async () => {
    const found = await invite(['--file', wb('second-sheet.xlsx'), '--created-by', INVITER, '--dry-run']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stderr).toContain('sheet "Notes" has no table of people (no row names an email and a name column); reading sheet "People"');
    const ok = await invite(['--file', wb('second-sheet.xlsx'), '--sheet', 'People', '--created-by', INVITER, '--dry-run']);
    expect(ok.code, ok.stderr).toBe(0);
    const csv = join(h.dir, 'plain.csv');
    writeFileSync(csv, 'First Name,Last Name,Email\nA,B,a.b.xlcsv@example.com\n');
    expectRefused(await invite(['--csv', csv, '--sheet', '1', '--created-by', INVITER, '--dry-run']), /--sheet is for a workbook \(\.xlsx\); .* is read as CSV\./);
  });

  it.each([
    ['sheet.ods', /is an OpenDocument spreadsheet \(\.ods\), which is not read: in LibreOffice Calc use File → Save As and save it as "Excel Workbook \(\.xlsx\)"/],
    ['protected.xlsx', /is a password-protected workbook, which cannot be read: open it in Excel, clear the password .* and save it as "Excel Workbook \(\.xlsx\)"/],
    ['old.xls', /is an Excel 97-2003 workbook \(\.xls\), which is not read: open it in Excel and save it as "Excel Workbook \(\.xlsx\)" or "CSV UTF-8/],
  ])('%s is refused with one sentence, and nothing is written', async (name, message) => {
    const out = join(h.dir, `${name}.results.csv`);
    expectRefused(await invite(['--file', wb(name), '--created-by', INVITER, '--dry-run']), message);
    expectRefused(await invite(['--file', wb(name), '--created-by', INVITER, '--out', out]), message);
    expect(existsSync(out)).toBe(false);
  });

  it('10,000 rows: read in one pass, the one invalid row in an --errors workbook with its phone in full', async () => {
    const errors = join(h.dir, 'ten.errors.xlsx');
    const r = await invite(['--file', wb('ten-thousand.xlsx'), '--created-by', INVITER, '--dry-run', '--errors', errors]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain('10,000 rows, 9,999 valid, 1 invalid');
    const [sheet] = readWorkbook(errors);
    expect(sheet.title).toBe('Invalid rows');
    expect(sheet.rows.map((row) => row.map((c) => c.v))).toEqual([
      ['First Name', 'Last Name', 'Email', 'Phone', 'line', 'row', 'error'],
      ['First9999', 'Last9999', 'not-an-email', '14155559999', 10001, 10000, 'email: Invalid email address'],
    ]);
  }, 60_000);
});
