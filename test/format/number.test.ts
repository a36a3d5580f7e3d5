import { describe, expect, it } from 'vitest';
import { NUM } from '../../src/format/number.js';

describe('NUM.format', () => {
  const intl = new Intl.NumberFormat('en-US');
  it.each([0, 1, 12, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 10_000_000, 2 ** 40, -1, -1234, -1_000_000, 1.5, 1234.5678, 0.0004, -0.0004, 1500.25])(
    'writes %d as en-US does',
    (n) => {
      expect(NUM.format(n)).toBe(intl.format(n));
    },
  );
  it('writes non-finite numbers as en-US does', () => {
    for (const n of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) expect(NUM.format(n)).toBe(intl.format(n));
  });
});
