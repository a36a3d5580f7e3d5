/**
 * Number cells as a sheet displays them (the formats a participant list holds).
 * The workbook tests (xlsx.test.ts) check the same through files openpyxl wrote.
 */
import { describe, expect, it } from 'vitest';
import { formatNumber, generalNumber, isDateFormat, serialToDate } from '../../src/bulk/xlsx-numfmt.js';

describe('formatNumber', () => {
  it.each([
    [14155550100, undefined, '14155550100'],
    [14155550100, 'General', '14155550100'],
    [123456789012345, 'General', '123456789012345'],
    [0.1 + 0.2, 'General', '0.3'],
    [14155550100, '"+"0', '+14155550100'],
    [447911123456, '+0', '+447911123456'],
    [123, '00000', '00123'],
    [7911123456, '00000000000', '07911123456'],
    [4155550100, '(000) 000-0000', '(415) 555-0100'],
    [1234.5, '#,##0.00', '1,234.50'],
    [1234567, '#,##0', '1,234,567'],
    [0.25, '0%', '25%'],
    [0.256, '0.0%', '25.6%'],
    [-5, '0', '-5'],
    [-5, '0;(0)', '(5)'],
    [3.5, '0.##', '3.5'],
    [42, '@', '42'],
    [1234.5, '[$€-2] #,##0.00', '€ 1,234.50'],
    [45365, 'd/m/yyyy', '14/3/2024'],
    [45365, 'yyyy-mm-dd', '2024-03-14'],
    [45365.395833333336, 'yyyy-mm-dd hh:mm', '2024-03-14 09:30'],
    [45365, 'dd mmm yyyy', '14 Mar 2024'],
    [45365, 'dddd, mmmm d', 'Thursday, March 14'],
    [0.75, 'h:mm AM/PM', '6:00 PM'],
    [1.5, '[h]:mm', '36:00'],
  ])('%s with %s → %s', (v, fmt, want) => {
    expect(formatNumber(v, fmt)).toBe(want);
  });

  it('dates: the 1900 system (with its 29 February 1900) and the 1904 system', () => {
    expect(serialToDate(1).toISOString().slice(0, 10)).toBe('1900-01-01');
    expect(serialToDate(61).toISOString().slice(0, 10)).toBe('1900-03-01');
    expect(serialToDate(0, true).toISOString().slice(0, 10)).toBe('1904-01-01');
    expect(formatNumber(43903, 'yyyy-mm-dd', true)).toBe('2024-03-14');
  });

  it('tells date formats from number formats', () => {
    expect(['d/m/yyyy', 'h:mm', 'mmm-yy', '[h]:mm:ss', 'yyyy-mm-dd hh:mm'].every(isDateFormat)).toBe(true);
    expect(['0', '0.00E+00', '"+"0', '#,##0', 'General', '@', '[Red]0'].some(isDateFormat)).toBe(false);
    expect(generalNumber(1e21)).toBe('1e+21');
  });
});
