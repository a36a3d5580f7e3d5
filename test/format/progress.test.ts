/** The steps of createProgress (src/format/progress.ts): the bar's fields, the summary line, durations, and the first frame. */
import { describe, expect, it } from 'vitest';
import { colorsFor } from '../../src/format/color.js';
import { createProgress, formatDuration, progressPayload, summaryLine } from '../../src/format/progress.js';
import { memoryIO } from '../helpers/io.js';

const plain = colorsFor(false);

describe('progress lines', () => {
  it('progressPayload groups every number alike and names invalid rows only when there are some', () => {
    expect(progressPayload({ done: 1592, errors: 0, invalid: 0, total: 3130 }, 1234.6, plain)).toEqual({ count: '1,592', of: '3,130', rate: '1,235', errors: '0 failed' });
    expect(progressPayload({ done: 5, errors: 1200, invalid: 3 }, 0, plain)).toEqual({ count: '5', of: '0', rate: '0', errors: '1,200 failed, 3 invalid' });
  });

  it('summaryLine: "of N" only when the total differs from what was done; invalid rows are neither done nor failed', () => {
    expect(summaryLine({ done: 1000, errors: 3, invalid: 0, total: 1000 }, 'invitations', 2100, 476.2)).toBe('1,000 invitations: 997 done, 3 failed, in 2.1s (476/s)');
    expect(summaryLine({ done: 40, errors: 2, invalid: 5, total: 100 }, 'rows', 65_000, 0.6)).toBe('40 of 100 rows: 33 done, 2 failed, 5 invalid, in 1m05s (1/s)');
  });

  it('formatDuration: seconds, minutes, hours', () => {
    expect(formatDuration(2100)).toBe('2.1s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatDuration(3_725_000)).toBe('1h02m');
  });

  it('the bar waits for the real total before its first frame', () => {
    const m = memoryIO({ tty: true, columns: 100 });
    const p = createProgress({ io: m.io, globals: { color: false, quiet: false, verbose: false } }, { label: 'Fetching', clock: () => 0 });
    p.tick();
    expect(m.stderr()).toBe('');
    p.setTotal(10);
    p.stop();
    expect(m.stderr()).toContain('1/10');
  });

  it('--quiet: no bar and no summary, but the counts', () => {
    const m = memoryIO({ tty: true });
    const p = createProgress({ io: m.io, globals: { color: false, quiet: true, verbose: false } }, { total: 2, clock: () => 0 });
    p.tick({ invalid: true });
    p.tick({ error: true });
    p.finish();
    expect(p.active).toBe(false);
    expect(m.stderr()).toBe('');
    expect([p.done, p.errors]).toEqual([2, 1]);
  });
});
