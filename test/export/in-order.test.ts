/** InOrder (src/listing/in-order.ts): deliveries run one at a time, in order, and stop at the first error. */
import { describe, expect, it } from 'vitest';
import { InOrder } from '../../src/listing/in-order.js';

describe('InOrder', () => {
  it('runs deliveries one after another, in the order added, even when earlier ones are slower', async () => {
    const q = new InOrder();
    const log: string[] = [];
    let running = 0;
    for (const [name, ms] of [
      ['a', 30],
      ['b', 0],
      ['c', 10],
    ] as const) {
      q.add(async () => {
        running++;
        expect(running).toBe(1);
        await new Promise((r) => setTimeout(r, ms));
        log.push(name);
        running--;
      });
    }
    await q.done();
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('the first error stops the deliveries after it and is thrown by done()', async () => {
    const q = new InOrder();
    const log: number[] = [];
    q.add(() => void log.push(1));
    q.add(() => {
      throw new Error('disk full');
    });
    q.add(() => void log.push(3));
    await expect(q.done()).rejects.toThrow('disk full');
    expect(log).toEqual([1]);
  });

  it('done() with nothing queued resolves', async () => {
    await expect(new InOrder().done()).resolves.toBeUndefined();
  });
});
