/**
 * The steps of the library's bulkInvite (src/lib/invite.ts): rows as a CSV's
 * lines, the pipeline's options from the library's defaults, the invalid rows
 * by their place in the array given, and the totals. The whole function runs
 * against the stub in library.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { invalidRowsOf, type InviteRowResult, pipelineOptions, rowsAsLines, tally } from '../../src/lib/invite.js';

describe('rowsAsLines', () => {
  it('every key once, in the order first seen; cells as text, lists joined by ";"', () => {
    const { lines, indexOfRow } = rowsAsLines([
      { email: 'a@example.com', first_name: 'Ann' },
      { last_name: 'Lee', email: 'b@example.com', assessments: ['personality', 'thinking'], team: 12, send_via_sms: false },
    ]);
    expect(lines).toEqual([
      ['email', 'first_name', 'last_name', 'assessments', 'team', 'send_via_sms'],
      ['a@example.com', 'Ann', '', '', '', ''],
      ['b@example.com', '', 'Lee', 'personality;thinking', '12', 'false'],
    ]);
    expect(indexOfRow).toEqual([0, 1]);
  });
  it('a row with no cell is left out (the pipeline would skip it as a blank line); the others keep their places', () => {
    const { lines, indexOfRow } = rowsAsLines([{ email: ' ' }, { email: 'a@example.com', team: null }, {}, { email: 'b@example.com', team: undefined }]);
    expect(lines).toHaveLength(3);
    expect(indexOfRow).toEqual([1, 3]);
  });
  it('a row that is not an object is refused by its position', () => {
    expect(() => rowsAsLines([{ email: 'a@example.com' }, null as never])).toThrow('bulkInvite: row 1 is not an object.');
  });
});

describe('pipelineOptions', () => {
  it('the defaults as the CLI\'s flags: lists joined, ids as text; never a prompt', () => {
    expect(pipelineOptions('/t/rows.csv', '/t/results.csv', 8, { team: 12, assessments: ['personality', 'thinking'], template: 'Welcome', sendVia: 'email', createdBy: 'boss@example.com', phoneCountry: 'GB' })).toEqual({
      csv: '/t/rows.csv',
      out: '/t/results.csv',
      yes: true,
      concurrency: 8,
      team: '12',
      assessments: 'personality;thinking',
      template: 'Welcome',
      sendVia: 'email',
      createdBy: 'boss@example.com',
      phoneCountry: 'GB',
    });
  });
  it('no defaults: none passed on', () => {
    expect(pipelineOptions('a', 'b', 1)).toMatchObject({ team: undefined, assessments: undefined, createdBy: undefined });
  });
});

describe('invalidRowsOf', () => {
  it('rows of the CSV by their place in the array, blank rows "is empty", in order', () => {
    const invalid = invalidRowsOf([{ row: 2, errors: [{ field: 'email', reason: 'Invalid email' }] }], [0, 2, 3], 4);
    expect(invalid).toEqual([
      { index: 1, errors: [{ field: '(row)', reason: 'is empty' }] },
      { index: 2, errors: [{ field: 'email', reason: 'Invalid email' }] },
    ]);
  });
});

describe('tally', () => {
  it('counts each status; not_sent and unknown together', () => {
    const rows: InviteRowResult[] = (['created', 'created', 'exists', 'invalid', 'failed', 'not_sent', 'unknown'] as const).map((status, index) => ({ index, status }));
    expect(tally(rows, true, 1.5)).toEqual({ created: 2, exists: 1, invalid: 1, failed: 1, notSent: 2, interrupted: true, seconds: 1.5, rows });
  });
});
