/**
 * The stages of a bulk run (src/bulk/run.ts) as functions: the options that
 * do not go together, the plan a journal makes of a new run or a resume, the
 * summary of the validation pass, the rows a resume may send. The whole run
 * is in run.test.ts (a fake context and an in-memory service).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalState } from '../../src/bulk/journal.js';
import { baseSummary, checkRunOptions, planRun, sendableRows } from '../../src/bulk/run.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../src/bulk/types.js';
import { UsageError } from '../../src/core/errors.js';

describe('checkRunOptions', () => {
  it('the default concurrency, or the one given', () => {
    expect(checkRunOptions({})).toBe(DEFAULT_CONCURRENCY);
    expect(checkRunOptions({ concurrency: MAX_CONCURRENCY })).toBe(MAX_CONCURRENCY);
  });
  it.each([0, MAX_CONCURRENCY + 1, 1.5, Number.NaN])('concurrency %s is refused', (concurrency) => {
    expect(() => checkRunOptions({ concurrency })).toThrow(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  });
  it('a dry run does not resume or retry', () => {
    expect(() => checkRunOptions({ dryRun: true, resume: true })).toThrow('--dry-run and --resume do not go together.');
    expect(() => checkRunOptions({ dryRun: true, retryFailed: true })).toThrow('--dry-run and --retry-failed do not go together.');
  });
  it('--resume and --retry-failed are one or the other', () => {
    expect(() => checkRunOptions({ resume: true, retryFailed: true })).toThrow(UsageError);
  });
});

describe('planRun', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-run-stages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'people.csv');
  const out = join(dir, 'people.results.csv');
  const journalPath = `${out}.journal.ndjson`;
  const none = (): JournalState => ({ done: new Map(), inFlight: new Map(), ended: false });
  const earlier = (of: string, ended: boolean): JournalState => ({
    ...none(),
    begin: { t: 'begin', v: 1, input: of, header: ['email'], rows: 2, at: '2026-11-20T10:00:00.000Z' },
    done: new Map([[1, { status: 'created', email: 'a@example.com' }]]),
    ended,
  });

  it('a new run without a journal starts from nothing', () => {
    expect(planRun(none(), { csv: input }, out, journalPath)).toEqual(none());
  });
  it('a new run of the same file after a finished one starts from nothing (its rows come back as "exists")', () => {
    expect(planRun(earlier(input, true), { csv: input }, out, journalPath)).toEqual(none());
  });
  it('a resume continues the journal', () => {
    const j = earlier(input, false);
    expect(planRun(j, { csv: input, resume: true }, out, journalPath)).toBe(j);
  });
  it('a resume or a retry without a journal has nothing to continue', () => {
    expect(() => planRun(none(), { csv: input, resume: true }, out, journalPath)).toThrow(`Nothing to resume: there is no journal at ${journalPath}.`);
    expect(() => planRun(none(), { csv: input, retryFailed: true }, out, journalPath)).toThrow(`Nothing to retry: there is no journal at ${journalPath}.`);
  });
  it('a new run into an unfinished one is refused and says how to continue it', () => {
    try {
      planRun(earlier(input, false), { csv: input }, out, journalPath);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toBe(`An earlier run into ${out} did not finish (journal ${journalPath}); nothing was sent.`);
      expect((err as UsageError).hint).toContain('--resume');
    }
  });
  it('a new run into the results of another input is refused while they exist', () => {
    const other = join(dir, 'other.csv');
    expect(planRun(earlier(other, true), { csv: input }, out, journalPath)).toEqual(none());
    writeFileSync(out, 'email,row,status\n');
    expect(() => planRun(earlier(other, true), { csv: input }, out, journalPath)).toThrow(`${out} holds the results of ${other} (run 2026-11-20T10:00:00.000Z)`);
  });
});

describe('baseSummary', () => {
  const mapping = { columns: [] } as never;
  it('the validation pass in numbers; nothing sent yet', () => {
    const s = baseSummary({ rows: 5, invalidCount: 2, invalid: [] }, { dryRun: true }, mapping);
    expect(s).toMatchObject({ rows: 5, valid: 3, invalid: 2, created: 0, sent: 0, dryRun: true, interrupted: false, errorsFile: undefined });
    expect(s.mapping).toBe(mapping);
  });
  it('--errors is named by its full path', () => {
    expect(baseSummary({ rows: 1, invalidCount: 0, invalid: [] }, { errors: 'bad.csv' }, mapping).errorsFile).toBe(join(process.cwd(), 'bad.csv'));
  });
});

describe('sendableRows', () => {
  it('rows the earlier run settled are not sent again; its failed rows are', () => {
    const done = new Map([
      [1, { status: 'created' as const, email: 'a@example.com' }],
      [2, { status: 'failed' as const, email: 'b@example.com' }],
      [3, { status: 'exists' as const, email: 'c@example.com' }],
    ]);
    expect(sendableRows({ done }, 10)).toBe(8);
    expect(sendableRows({ done: new Map() }, 10)).toBe(10);
  });
});
