/**
 * docs/faults.md's hostile matrix is test/faults/hostile-table.ts, the table
 * hostile-matrix.test.ts takes its cases from (issue 43, item 1).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { BEHAVIOURS, HOSTILE_MATRIX, hostileMarkdown } from './hostile-table.js';

const doc = readFileSync(new URL('../../docs/faults.md', import.meta.url), 'utf8');

it("docs/faults.md's hostile matrix is the table the test runs, row for row", () => {
  const from = doc.indexOf('### The hostile matrix');
  expect(from, 'docs/faults.md has the hostile matrix').toBeGreaterThan(-1);
  const lines = doc.slice(from).split('\n');
  const rest = lines.slice(lines.findIndex((l) => l.startsWith('|')));
  const end = rest.findIndex((l) => !l.startsWith('|'));
  expect(end === -1 ? rest : rest.slice(0, end)).toEqual(hostileMarkdown());
});

it('every cell is filled: a test, or why the behaviour cannot reach the command', () => {
  expect(HOSTILE_MATRIX).toHaveLength(11);
  for (const r of HOSTILE_MATRIX) for (const b of BEHAVIOURS) expect(r.cells[b], `${r.name} × ${b}`).toMatch(/^(HM|— \(.+\)|[a-z-]+.*)$/);
});
