/**
 * The rules of the validation pass (src/bulk/check.ts) that apply to a row
 * beyond its own cells: a row wider than the header, a duplicate email in the
 * file (named by the first row that has it, found on the first pass only),
 * a row fitted back into the header's width for the results file, and the
 * check that a resume is of the same columns.
 */
import { describe, expect, it } from 'vitest';
import { againOptions, checkResumable, checkRow, fitCells } from '../../src/bulk/check.js';
import { EmailIndex } from '../../src/bulk/email-index.js';
import type { RowCheck } from '../../src/bulk/row-check.js';

/** A validator that passes every row, its email the first cell (the row's own rules are validate.test.ts's). */
const validator = {
  check: (cells: string[]): RowCheck =>
    cells[0].includes('@')
      ? { ok: true, body: {} as never, email: cells[0], channels: { email: true, sms: false } }
      : { ok: false, email: cells[0], errors: [{ field: 'email', reason: 'Invalid email' }] },
} as never;
const meta = { delimiter: ',', bom: false, header: ['email', 'name'] };
const pass = () => ({ validator, meta, firstRowOfEmail: new EmailIndex() });

describe('checkRow', () => {
  it('a row with cells past the header is refused as such, before its fields', () => {
    expect(checkRow(pass(), { row: 1, line: 2, cells: ['a@example.com', 'Ann', 'x'] }, true)).toEqual({
      ok: false,
      errors: [{ field: '(row)', reason: 'has 3 fields but the header has 2 (a delimiter inside an unquoted field?)' }],
    });
  });
  it('empty cells past the header are no refusal', () => {
    expect(checkRow(pass(), { row: 1, line: 2, cells: ['a@example.com', 'Ann', '', ''] }, true).ok).toBe(true);
  });
  it('a duplicate email (in any case) names the first row that has it', () => {
    const v = pass();
    expect(checkRow(v, { row: 1, line: 2, cells: ['ann@example.com', 'Ann'] }, true).ok).toBe(true);
    expect(checkRow(v, { row: 2, line: 3, cells: ['ANN@example.com', 'Ann'] }, true)).toEqual({
      ok: false,
      email: 'ANN@example.com',
      errors: [{ field: 'email', reason: 'Duplicate email in the file (first on row 1)' }],
    });
  });
  it('the first row itself, checked again on a later pass, is no duplicate', () => {
    const v = pass();
    checkRow(v, { row: 1, line: 2, cells: ['ann@example.com', 'Ann'] }, true);
    expect(checkRow(v, { row: 1, line: 2, cells: ['ann@example.com', 'Ann'] }, false).ok).toBe(true);
  });
  it('a later pass finds duplicates but records no first rows', () => {
    const v = pass();
    checkRow(v, { row: 5, line: 6, cells: ['bo@example.com', 'Bo'] }, false);
    expect(v.firstRowOfEmail.get('bo@example.com')).toBeUndefined();
  });
  it('an invalid row that is also a duplicate keeps both reasons', () => {
    const v = pass();
    checkRow(v, { row: 1, line: 2, cells: ['not-an-email', ''] }, true);
    expect(checkRow(v, { row: 2, line: 3, cells: ['not-an-email', ''] }, true)).toMatchObject({
      ok: false,
      errors: [{ field: 'email', reason: 'Invalid email' }, { field: 'email', reason: 'Duplicate email in the file (first on row 1)' }],
    });
  });
});

describe('fitCells', () => {
  it('a row no wider than the header is as it is', () => {
    const cells = ['a', 'b'];
    expect(fitCells(cells, 2, ',')).toBe(cells);
  });
  it('empty cells past the header are dropped', () => {
    expect(fitCells(['a', 'b', '', ''], 2, ',')).toEqual(['a', 'b']);
  });
  it('cells past the header are joined into its last column with their delimiter', () => {
    expect(fitCells(['a', 'Lee', 'Jr', 'x', ''], 2, ';')).toEqual(['a', 'Lee;Jr;x']);
  });
});

describe('againOptions and checkResumable', () => {
  it('a later pass reads the sheet and the header line the first pass found', () => {
    expect(againOptions({ meta: { ...meta, sheet: 'People', headerLine: 3 } }, { sheet: '2' })).toEqual({ sheet: 'People', headerRow: 3 });
    expect(againOptions({ meta }, { sheet: undefined })).toEqual({ sheet: undefined, headerRow: undefined });
  });
  it('a resume of other columns is refused', () => {
    const journal = { begin: { t: 'begin' as const, v: 1 as const, input: 'f.csv', header: ['email', 'name'], rows: 1, at: '' }, done: new Map(), inFlight: new Map(), ended: false };
    expect(() => checkResumable(journal, 'j', meta)).not.toThrow();
    expect(() => checkResumable(journal, 'j', { ...meta, header: ['email', 'first'] })).toThrow("The file's columns differ from the interrupted run's (j)");
  });
});
