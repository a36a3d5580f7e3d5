/**
 * report.ts's damagedNames: the one sentence, for the dry run's note and the
 * real run's warning alike, about names whose letters were lost. Its advice
 * depends on the input: a CSV is saved again as CSV UTF-8; a workbook keeps
 * every letter, so saving it again would fix nothing.
 */
import { describe, expect, it } from 'vitest';
import { damagedNames } from '../../src/bulk/report.js';

describe('damagedNames', () => {
  it('a CSV: the code page it was saved in, and "CSV UTF-8"', () => {
    expect(damagedNames({ damaged: 1, damagedExamples: ['?ukasz Nowak'] }, {})).toBe(
      '1 row has a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak"): the file was saved in a code page without those letters; save it again as "CSV UTF-8".',
    );
  });

  it('a workbook (a sheet was read): damaged before it, by the program that exported it; never "CSV UTF-8"', () => {
    const text = damagedNames({ damaged: 1234, damagedExamples: ['?ukasz Nowak', 'Anna Mu\uFFFDoz'] }, { sheet: 'People' });
    expect(text).toBe(
      '1,234 rows have a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak", "Anna Mu\uFFFDoz"): the workbook itself holds them so (a workbook stores every letter): they were damaged before it was written, by the program that exported it; fix the names there and export again.',
    );
    expect(text).not.toContain('CSV UTF-8');
  });
});
