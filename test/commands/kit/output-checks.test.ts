/**
 * kit/output-checks.ts refuses, before any request, what the run would refuse
 * later, in the same sentence: an --out the writer (core/files.ts
 * createPrivateOutput) would not open, and a -o the printer
 * (format/output.ts resolveFormat) would not print.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOutFile, checkOutputOptions } from '../../../src/commands/kit/output-checks.js';
import { createPrivateOutput } from '../../../src/core/files.js';
import type { GlobalOptions, Session } from '../../../src/core/session.js';
import { memoryIO } from '../../helpers/io.js';

const dir = mkdtempSync(join(tmpdir(), 'jobfit-output-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const messageOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

function session(globals: Partial<GlobalOptions>, tty = false): Session {
  const { io } = memoryIO({ tty });
  return { io, globals: { color: false, quiet: false, verbose: false, ...globals }, info() {}, warn() {}, debug() {} } as Session;
}

describe('checkOutFile', () => {
  it.each([
    ['a folder', () => dir],
    ['a path in a folder that does not exist', () => join(dir, 'missing', 'x.csv')],
    ['a path under a regular file', () => {
      writeFileSync(join(dir, 'plain'), '');
      return join(dir, 'plain', 'x.csv');
    }],
  ])('refuses %s with the writer\'s sentence', (_what, pathOf) => {
    const path = pathOf();
    const early = messageOf(() => checkOutFile(path, '--out'));
    expect(early).toBeDefined();
    expect(early).toBe(messageOf(() => createPrivateOutput(path, '--out')));
  });

  it('lets a new file and an existing file of ours through', () => {
    mkdirSync(join(dir, 'ok'), { recursive: true });
    writeFileSync(join(dir, 'ok', 'old.csv'), 'x');
    expect(messageOf(() => checkOutFile(join(dir, 'ok', 'new.csv')))).toBeUndefined();
    expect(messageOf(() => checkOutFile(join(dir, 'ok', 'old.csv')))).toBeUndefined();
  });
});

describe('checkOutputOptions', () => {
  it('refuses a format the command cannot print, and xlsx to a terminal, but not xlsx to --out', () => {
    expect(messageOf(() => checkOutputOptions(session({ output: 'html' }), {}))).toBe('This command cannot print -o html.');
    expect(messageOf(() => checkOutputOptions(session({ output: 'html' }), { formats: ['json', 'html'] }))).toBeUndefined();
    expect(messageOf(() => checkOutputOptions(session({ output: 'xlsx' }, true), {}))).toMatch(/^-o xlsx writes a workbook/);
    expect(messageOf(() => checkOutputOptions(session({ output: 'xlsx' }, true), { out: join(dir, 'list.xlsx') }))).toBeUndefined();
  });

  it('checks --fields first, then --out, then -o', () => {
    const fields = { fieldNames: ['id'] };
    const all = session({ output: 'html', fields: ['nope'] });
    expect(messageOf(() => checkOutputOptions(all, { fields, out: dir }))).toMatch(/^Unknown field for --fields: "nope"/);
    expect(messageOf(() => checkOutputOptions(session({ output: 'html' }), { fields, out: dir }))).toMatch(/is a folder/);
  });
});
