/**
 * Golden files: output pinned byte for byte under test/golden/files/. A
 * change to one is a change a person or a script sees, so it is made on
 * purpose: `UPDATE_GOLDENS=1 npx vitest run test/golden` writes the files
 * anew, and the diff is reviewed with the change (docs/testing.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const DIR = fileURLToPath(new URL('./files/', import.meta.url));

/** Compares `actual` with the golden file `name`, or writes it with UPDATE_GOLDENS=1. */
export function expectGolden(name: string, actual: string): void {
  const file = join(DIR, name);
  if (process.env.UPDATE_GOLDENS === '1') {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`No golden file test/golden/files/${name}: run UPDATE_GOLDENS=1 npx vitest run test/golden, and review it.`);
  // Line endings as written: a checkout that turned \n into \r\n still compares.
  expect(actual, `output differs from test/golden/files/${name} (UPDATE_GOLDENS=1 rewrites it, on purpose)`).toBe(readFileSync(file, 'utf8').replace(/\r\n/g, '\n'));
}
