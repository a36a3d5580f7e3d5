/**
 * untilDrained (src/format/drain.ts): the one wait every writer of src/format
 * makes for its output, including a stdout whose write already failed.
 */
import { describe, expect, it } from 'vitest';
import { untilDrained } from '../../src/format/drain.js';

describe('untilDrained', () => {
  it('at once unless the stream still needs a drain; then on drain, close or error', async () => {
    const { PassThrough } = await import('node:stream');
    await expect(untilDrained({}, true)).resolves.toBeUndefined();
    const idle = new PassThrough();
    // A 'drain' that already fired is not waited for again.
    await expect(untilDrained(idle, true)).resolves.toBeUndefined();
    const busy = new PassThrough({ highWaterMark: 4 });
    busy.write('more than four bytes');
    expect(busy.writableNeedDrain).toBe(true);
    let done = false;
    const waiting = untilDrained(busy, false).then(() => (done = true));
    await new Promise((res) => setImmediate(res));
    expect(done).toBe(false);
    busy.resume();
    await waiting;
    expect(done).toBe(true);
  });

  it('not on a stream whose write already failed (stdout after a full disk still says it needs a drain)', async () => {
    const { PassThrough } = await import('node:stream');
    const stuck = new PassThrough({ highWaterMark: 4 });
    stuck.write('more than four bytes');
    expect(stuck.writableNeedDrain).toBe(true);
    // No reader: no 'drain' ever comes; the earlier failure says not to wait.
    await expect(untilDrained(stuck, true, () => Object.assign(new Error('no space left'), { code: 'ENOSPC' }))).resolves.toBeUndefined();
    let done = false;
    void untilDrained(stuck, true, () => undefined).then(() => (done = true));
    await new Promise((res) => setImmediate(res));
    expect(done).toBe(false);
  });
});
