/**
 * A results file that belongs to another input is never replaced silently: a
 * new run of another file (or a second run from standard input) into the same
 * --out is refused with exit 2, naming the input the results belong to and
 * the way out, and leaves the results and the journal as they were. The same
 * file run again replaces its own results.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVITER, useBulkStub } from './harness.js';
import { writePeople } from './helpers/data.js';

const { h, invite } = useBulkStub('jobfit-results-owner-');

const created = (out: string) => readFileSync(out, 'utf8').split('\n').filter((l) => l.includes(',created,')).length;

describe('a results file of another input', () => {
  it('is refused (exit 2, naming its input and the way out); the results and journal are left as they were; nothing is sent', async () => {
    const a = join(h.dir, 'owner-a.csv');
    const b = join(h.dir, 'owner-b.csv');
    writePeople(a, 3, 'ownera');
    writePeople(b, 4, 'ownerb');
    const out = join(h.dir, 'shared.results.csv');
    const journal = `${out}.journal.ndjson`;
    const first = await invite(['--csv', a, '--out', out, '--created-by', INVITER]);
    expect(first.code, first.stderr).toBe(0);
    const results = readFileSync(out);
    const journalBytes = readFileSync(journal);

    const second = await invite(['--csv', b, '--out', out, '--created-by', INVITER]);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`Error: ${out} holds the results of ${a}`);
    expect(second.stderr).toContain(`a run of ${b} into it would replace them. Nothing was sent.`);
    expect(second.stderr).toContain(`Hint: give this run its own --out, or move ${out} and ${journal} away first`);
    expect(readFileSync(out).equals(results)).toBe(true);
    expect(readFileSync(journal).equals(journalBytes)).toBe(true);

    // Nothing of b was sent: run into its own results, every row is created now.
    const own = join(h.dir, 'owner-b.results.csv');
    const third = await invite(['--csv', b, '--out', own, '--created-by', INVITER]);
    expect(third.code, third.stderr).toBe(0);
    expect(created(own)).toBe(4);
  });

  it('the same file run again replaces its own results (rows already sent come back as "exists")', async () => {
    const a = join(h.dir, 'again.csv');
    writePeople(a, 3, 'again');
    const out = join(h.dir, 'again.results.csv');
    expect((await invite(['--csv', a, '--out', out, '--created-by', INVITER])).code).toBe(0);
    const r = await invite(['--csv', a, '--out', out, '--created-by', INVITER]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n').filter((l) => l.includes(',exists,'))).toHaveLength(3);
  });

  it('a second run from standard input into the same results is refused: one standard input cannot be told from another', async () => {
    const out = join(h.dir, 'stdin.results.csv');
    const rows = (tag: string) => `First Name,Last Name,Email\nAna,Diaz,ana.${tag}@example.com\n`;
    const first = await invite(['--csv', '-', '--out', out, '--created-by', INVITER], { stdin: rows('stdin1') });
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(out);
    const second = await invite(['--csv', '-', '--out', out, '--created-by', INVITER], { stdin: rows('stdin2') });
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`Error: ${out} holds the results of standard input`);
    expect(second.stderr).toContain('(one standard input cannot be told from another)');
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it('once the results file is gone there is nothing to replace: another input may use the --out', async () => {
    const a = join(h.dir, 'gone-a.csv');
    const b = join(h.dir, 'gone-b.csv');
    writePeople(a, 2, 'gonea');
    writePeople(b, 2, 'goneb');
    const out = join(h.dir, 'gone.results.csv');
    expect((await invite(['--csv', a, '--out', out, '--created-by', INVITER])).code).toBe(0);
    rmSync(out);
    const r = await invite(['--csv', b, '--out', out, '--created-by', INVITER]);
    expect(r.code, r.stderr).toBe(0);
    expect(created(out)).toBe(2);
  });

  it('an unfinished run of another input is named, and its resume command is of that input', async () => {
    const a = join(h.dir, 'unfinished-a.csv');
    const b = join(h.dir, 'unfinished-b.csv');
    writePeople(a, 2, 'unfa');
    writePeople(b, 2, 'unfb');
    const out = join(h.dir, 'unfinished.results.csv');
    const journal = `${out}.journal.ndjson`;
    // As a run of a killed before it wrote its results leaves it.
    const header = readFileSync(a, 'utf8').split('\n')[0].split(',');
    writeFileSync(journal, `${JSON.stringify({ t: 'begin', v: 1, input: a, header, rows: 2, at: '2026-01-01T00:00:00.000Z' })}\n`, { mode: 0o600 });
    const r = await invite(['--csv', b, '--out', out, '--created-by', INVITER]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`Error: An earlier run of ${a} into ${out} did not finish`);
    expect(r.stderr).toContain(`continue it with: jobfit invite --csv ${a} --out ${out} --resume`);
  });
});
