/**
 * One name, one meaning (issue 48, item 3): no two files of src/ export a
 * function, class, type, interface, enum or variable of the same name. The
 * same check as CI's `npm run duplicate-exports` (scripts/duplicate-exports.mjs),
 * run in this process on src/ and, to show it is not vacuous, on a planted
 * pair of files that do share a name.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { exportedNamesIn } from '../../scripts/duplicate-exports.mjs';

const names = exportedNamesIn as (root: string, dir?: string) => Map<string, string[]>;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the exported names of src/', () => {
  it('are each declared by one file', () => {
    const where = names(ROOT);
    expect(where.size).toBeGreaterThan(1000);
    const twice = [...where].filter(([, files]) => files.length > 1).map(([n, files]) => `${n}: ${files.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('a name exported by two files is found, a re-export and a NAME.sea.ts are not counted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobfit-names-'));
    try {
      mkdirSync(join(dir, 'src/a'), { recursive: true });
      writeFileSync(join(dir, 'src/a/one.ts'), 'export function listAll() {}\nexport type ListOptions = { a: 1 };\n');
      writeFileSync(join(dir, 'src/two.ts'), "export const listAll = 1;\nexport { ListOptions } from './a/one.js';\n");
      writeFileSync(join(dir, 'src/a/one.sea.ts'), 'export function listAll() {}\n');
      const where = names(dir);
      expect(where.get('listAll')).toEqual(expect.arrayContaining(['src/a/one.ts', 'src/two.ts']));
      expect(where.get('listAll')).toHaveLength(2);
      expect(where.get('ListOptions')).toEqual(['src/a/one.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
