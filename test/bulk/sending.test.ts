/**
 * The rules of the sending stage (src/bulk/sending.ts): the row breaker, what
 * a row asks the service for, an invalid row's outcome, the progress line of a
 * run without a terminal, and the rows of an earlier run past a shortened
 * file's end. The stage itself runs in run.test.ts, resume.test.ts and
 * signals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { JournalState, RowOutcome } from '../../src/bulk/journal.js';
import { invalidOutcome, keepLostRows, progressLine, RowBreaker, rowAsk } from '../../src/bulk/sending.js';

describe('RowBreaker', () => {
  const transient: RowOutcome = { status: 'failed', error: 'HTTP 503', transient: true };
  it('trips at the bound of unanswered rows in a row, and stays tripped', () => {
    const b = new RowBreaker(3);
    expect([b.trips(transient), b.trips(transient), b.trips(transient), b.trips(transient)]).toEqual([false, false, true, true]);
    expect(b.streak).toBe(4);
  });
  it('any answer starts the count again (a refusal is an answer)', () => {
    const b = new RowBreaker(2);
    b.trips(transient);
    expect(b.trips({ status: 'failed', error: 'HTTP 422' })).toBe(false);
    expect(b.streak).toBe(0);
    expect(b.trips(transient)).toBe(false);
    expect(b.trips({ status: 'created', id: 1 })).toBe(false);
  });
  it('an infinite bound never trips (JOBFIT_BREAKER_SECONDS=0)', () => {
    const b = new RowBreaker(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 100; i++) expect(b.trips(transient)).toBe(false);
  });
});

describe('rowAsk', () => {
  it('the email, the names as sent and the team', () => {
    const r = { ok: true as const, body: { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' } as never, email: 'ann@example.com', teamId: 12, channels: { email: true, sms: false } };
    expect(rowAsk(r)).toEqual({ email: 'ann@example.com', first: 'Ann', last: 'Lee', teamId: 12 });
  });
  it('a name the body lacks is empty, not "undefined"', () => {
    const r = { ok: true as const, body: { email: 'x@example.com' } as never, email: 'x@example.com', channels: { email: true, sms: false } };
    expect(rowAsk(r)).toEqual({ email: 'x@example.com', first: '', last: '', teamId: undefined });
  });
});

describe('invalidOutcome', () => {
  it('every reason, by its field, in order', () => {
    expect(invalidOutcome([{ field: 'email', reason: 'Invalid email' }, { field: 'team', reason: 'Team not found: X' }])).toEqual({
      status: 'invalid',
      error: 'email: Invalid email; team: Team not found: X',
    });
  });
});

describe('progressLine', () => {
  const counts = { created: 1200, exists: 3, invalid: 2, failed: 1, not_sent: 9, unknown: 4 };
  it('rows done (not those left unsent), the outcomes and the rate of this run\'s sends', () => {
    expect(progressLine(counts, 10_000, 600, 2)).toBe('Inviting: 1,206 of 10,000 rows (1,200 created, 3 exists, 1 failed), 300 rows/s sent.\n');
  });
  it('no time yet is no division by zero', () => {
    expect(progressLine(counts, 10, 0, 0)).toContain(' 0 rows/s sent.');
  });
});

describe('keepLostRows', () => {
  const prior = (): JournalState => ({
    done: new Map([
      [1, { status: 'created', id: 1, email: 'a@example.com' }],
      [4, { status: 'created', id: 4, url: 'http://x/4', email: 'd@example.com' }],
    ]),
    inFlight: new Map([[5, 'e@example.com']]),
    ended: false,
  });
  const v = { rows: 3, mapping: { index: { email: 1 } } } as never;

  it('rows past the new end follow the file\'s rows, with their email in its column', () => {
    const put: Array<[number, string[], RowOutcome]> = [];
    expect(keepLostRows(prior(), v, { put: (row, cells, o) => put.push([row, cells, o]) }, 3)).toBe(2);
    expect(put[0]).toEqual([4, ['', 'd@example.com', ''], { status: 'created', id: 4, url: 'http://x/4', error: 'row 4 of the earlier run, no longer in the file' }]);
    expect(put[1][0]).toBe(5);
    expect(put[1][1]).toEqual(['', 'e@example.com', '']);
    expect(put[1][2]).toMatchObject({ status: 'unknown', error: expect.stringContaining('sent by the earlier run as row 5') });
  });
  it('nothing past the end: nothing kept', () => {
    const put: unknown[] = [];
    expect(keepLostRows(prior(), { rows: 10, mapping: { index: {} } } as never, { put: (...a) => put.push(a) }, 3)).toBe(0);
    expect(put).toEqual([]);
  });
});
