/**
 * Names that differ only in case (issue 40: Windows and macOS file systems do
 * not tell them apart). Under Wine (JOBFIT_E2E_WINE=1) a missing name is looked
 * up without case, as NTFS does: `--out PEOPLE.CSV` beside `people.csv` is the
 * input itself and is refused, and `--resume --out RESULTS.CSV` finds the journal
 * of `results.csv`. On Linux (case-sensitive) the same commands name other
 * files. Either way nothing the user gave is overwritten.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli, spawnedOnWindows } from './built.js';

const INVITER = 'dana.whitfield@northwind-talent.example';
let cli: BuiltCli;
let dir: string;
let people: string;

beforeAll(() => {
  cli = buildCli();
  dir = join(cli.dir, 'cases');
  mkdirSync(dir);
  people = readFileSync(join(cli.dir, 'fixtures/csv/sample.csv'), 'utf8');
  writeFileSync(join(dir, 'people.csv'), people);
}, 120_000);
afterAll(() => cli?.close());

const invite = (...more: string[]) =>
  cli.runAsync(['invite', '--csv', 'people.csv', '--created-by', INVITER, '--yes', ...more], { env: { JOBFIT_CONFIG_DIR: join(dir, 'config') }, cwd: dir });

describe(`names that differ only in case (${spawnedOnWindows ? 'Windows, under Wine: one file' : 'a case-sensitive file system: two files'})`, () => {
  it('--out PEOPLE.CSV beside people.csv', async () => {
    const r = await invite('--out', 'PEOPLE.CSV');
    if (spawnedOnWindows) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/PEOPLE\.CSV is the input file itself; writing it would destroy the input\./);
      expect(readdirSync(dir).filter((f) => /people/i.test(f))).toEqual(['people.csv']);
    } else {
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(['people.csv', 'PEOPLE.CSV']));
    }
    expect(readFileSync(join(dir, 'people.csv'), 'utf8')).toBe(people);
  }, 120_000);

  it('--resume --out RESULTS.CSV after a run with --out results.csv', async () => {
    const first = await invite('--out', 'results.csv');
    expect(first.code, first.stderr).toBe(0);
    const again = await invite('--out', 'RESULTS.CSV', '--resume');
    if (spawnedOnWindows) {
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/from the earlier run/);
    } else {
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('Nothing to resume: there is no journal at');
    }
  }, 120_000);
});
