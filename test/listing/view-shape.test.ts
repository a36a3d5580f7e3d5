/**
 * What src/listing/seen-table.ts's `keptView` relies on: under
 * --optimize-for-size (src/core/heap.ts) V8 drops the shape of objects made
 * and dropped in a hot loop at its memory-reducing collections, and with it
 * the code optimized for them ("embedded weak objects cleared"); one object
 * of that shape kept alive stops it. The script is the table and its views
 * in miniature. When the first expectation fails (a V8 that keeps shapes),
 * the kept view has become useless; when the second fails, it no longer works.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const SCRIPT = `
const keep = process.argv[1] === 'keep';
class Table { constructor() { this.ats = new Float64Array(1000).fill(1); this.kept = keep ? new View(this, -1) : undefined; } }
class View { constructor(table, row) { this.table = table; this.row = row; } get at() { return this.table.ats[this.row]; } }
const t = new Table();
function view(row) { return new View(t, row); }
let last;
function sumAt(n) { let s = 0; for (let i = 0; i < n; i++) { const v = view(i % 1000); last = v; s += v.at; } last = undefined; return s; }
let total = 0;
let ballast = [];
for (let round = 0; round < 30; round++) {
  for (let k = 0; k < 100; k++) total += sumAt(1000);
  ballast = Array.from({ length: 100000 }, (_, i) => ({ i, s: 'x' + i }));
}
console.log('done', total, ballast.length);
`;

function deopts(mode: 'keep' | 'drop'): number {
  const r = spawnSync(process.execPath, ['--optimize-for-size', '--trace-deopt', '-e', SCRIPT, mode], { encoding: 'utf8', maxBuffer: 1 << 26 });
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('done 3000000 100000');
  return r.stdout.split('\n').filter((l) => l.includes('embedded weak objects cleared')).length;
}

const major = Number(process.versions.node.split('.')[0]);

describe("the view SeenTable keeps (V8's shapes under --optimize-for-size)", () => {
  it.runIf(major >= 24)('views made and dropped lose their shape and their optimized code at the collections', () => {
    expect(deopts('drop')).toBeGreaterThan(5);
  });

  it('one view of the shape kept alive keeps the code', () => {
    expect(deopts('keep')).toBe(0);
  });
});
