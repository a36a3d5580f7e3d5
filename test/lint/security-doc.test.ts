/**
 * docs/security.md's last table names, for each promise, the test that holds
 * it (issue 42, item 7). This keeps the table true: every test file it names
 * exists, and every test name it quotes (after ›) is in that file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const doc = readFileSync(`${root}docs/security.md`, 'utf8');
const table = doc.slice(doc.indexOf('## Each promise, and the test that holds it'), doc.indexOf('## Reporting a problem'));

/** Each `test/…` file of the table's second column, with the names quoted after it. */
function references(): Array<{ file: string; names: string[] }> {
  const out: Array<{ file: string; names: string[] }> = [];
  for (const line of table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| promise') && !l.startsWith('| **'))) {
    const cell = line.split(' | ').at(-1)!.replace(/ \|$/, '');
    for (const part of cell.split(/;\s*/)) {
      const m = /^`(test\/[^`]+)`(.*)$/.exec(part.trim());
      if (!m) continue;
      const names = m[2]
        .split(' › ')
        .slice(1)
        .map((n) => n.replace(/\s*\(([^)]*\*[^)]*|a real terminal)\)$/, '').trim())
        .filter((n) => n && n !== 'every case');
      out.push({ file: m[1], names });
    }
  }
  return out;
}

describe("docs/security.md's table of promises and tests", () => {
  it('has a row for each promise of issue 42, and names at least 30 tests', () => {
    expect(references().length).toBeGreaterThanOrEqual(30);
    for (const file of ['test/security/html-payloads.test.ts', 'test/security/sqlite-sides.test.ts', 'test/bulk/stdin-spool.test.ts', 'test/client/proxy-connect.test.ts', 'test/security/passwords-never-printed.test.ts']) {
      expect(table).toContain(file);
    }
  });

  it.each(references().map((r) => [r.file, r.names] as const))('%s exists and holds the names quoted', (file, names) => {
    expect(existsSync(root + file), file).toBe(true);
    // A name as its source writes it: an apostrophe may be escaped there.
    const text = readFileSync(root + file, 'utf8').replaceAll("\\'", "'");
    for (const name of names) expect(text, `${file} › ${name}`).toContain(name);
  });
});
