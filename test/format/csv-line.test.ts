import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvLine, neutraliseCell } from '../../src/format/csv.js';
import type { Cell } from '../../src/format/field-paths.js';

// csvLine joins plain cells itself and leaves every other line to csv-stringify:
// both must give the same bytes, whatever the cells.
const SAMPLES: Cell[] = ['', 'plain', 'two words', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', 'crlf\r\n', ' padded ', "'quoted'", 'ünïcödé', '=SUM(A1)', '+1415', '-3', '@x', '\ttab', 0, 1, -1, 2.5, -0.25, 1e21, Number.NaN];

describe('csvLine', () => {
  it('writes every line as csv-stringify does, plain or not', () => {
    const reference = (cells: Cell[]) => stringify([cells.map(neutraliseCell)], { eof: true, record_delimiter: '\n' });
    for (const a of SAMPLES) {
      for (const b of SAMPLES) {
        const cells = [a, b, 42, 'x'];
        expect(csvLine(cells)).toBe(reference(cells));
      }
    }
    expect(csvLine(SAMPLES)).toBe(reference(SAMPLES));
    expect(csvLine([])).toBe(reference([]));
  });
  it('quotes what needs quoting and neutralises formulas', () => {
    expect(csvLine(['a,b', 'say "hi"', '=1+1', 7])).toBe('"a,b","say ""hi""",\'=1+1,7\n');
  });
});
