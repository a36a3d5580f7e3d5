/**
 * docs/faults.md's interrupt matrix is test/faults/interrupt-table.ts, the
 * table interrupt-matrix.test.ts derives its cases from: a cell in the page
 * is a case in the test, and the reverse (issue 43, item 4).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MATRIX, SIGNALS, TRANSPORTS, cells, matrixMarkdown } from './interrupt-table.js';

const doc = readFileSync(new URL('../../docs/faults.md', import.meta.url), 'utf8');

/** The table lines under the page's "The interrupt matrix" heading. */
function docTable(): string[] {
  const from = doc.indexOf('### The interrupt matrix');
  expect(from, 'docs/faults.md has the interrupt matrix').toBeGreaterThan(-1);
  const lines = doc.slice(from).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rest = lines.slice(first);
  const end = rest.findIndex((l) => !l.startsWith('|'));
  return end === -1 ? rest : rest.slice(0, end);
}

describe("docs/faults.md's interrupt matrix", () => {
  it('is the table the test runs, row for row', () => {
    expect(docTable()).toEqual(matrixMarkdown());
  });

  it('has 48 cells: 8 commands × 2 transports × 3 signals, each once', () => {
    const all = cells();
    expect([MATRIX.length, TRANSPORTS.length, SIGNALS.length]).toEqual([8, 2, 3]);
    expect(all).toHaveLength(48);
    expect(new Set(all.map((c) => `${c.row.name}|${c.transport}|${c.signal}`)).size).toBe(48);
  });

  it('names every long command of the issue', () => {
    const names = MATRIX.map((r) => r.name);
    for (const n of ['invitations list --all', 'test-takers list --all', 'scorecard --all', 'job-fit --all', 'report', 'sync', 'sync --watch', 'invite --csv']) expect(names).toContain(n);
  });
});
