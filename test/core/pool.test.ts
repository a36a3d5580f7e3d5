import { describe, expect, it } from 'vitest';
import { limiter } from '../../src/core/pool.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('limiter', () => {
  it('runs at most `limit` calls at once, the rest in the order they came', async () => {
    const slot = limiter(3);
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        slot(async () => {
          started.push(i);
          peak = Math.max(peak, ++inFlight);
          await tick();
          inFlight--;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('a lowered bound lets running calls finish and starts none until under it; a raised one starts waiters at once', async () => {
    const slot = limiter(4);
    const releases = await Promise.all([slot.acquire(), slot.acquire(), slot.acquire(), slot.acquire()]);
    let fifth = false;
    const waiting = slot.acquire().then((r) => {
      fifth = true;
      return r;
    });
    slot.limit = 2;
    releases[0]();
    releases[1]();
    await tick();
    expect(fifth).toBe(false);
    releases[2]();
    await tick();
    expect(fifth).toBe(true);
    let sixth = false;
    void slot.acquire().then(() => (sixth = true));
    await tick();
    expect(sixth).toBe(false);
    slot.limit = 3;
    await tick();
    expect(sixth).toBe(true);
    (await waiting)();
    expect(slot.limit).toBe(3);
  });

  it('a release called twice frees one slot, and the bound never drops below 1', async () => {
    const slot = limiter(1);
    const release = await slot.acquire();
    release();
    release();
    const a = await slot.acquire();
    let b = false;
    void slot.acquire().then(() => (b = true));
    await tick();
    expect(b).toBe(false);
    slot.limit = 0;
    expect(slot.limit).toBe(1);
    a();
    await tick();
    expect(b).toBe(true);
  });
});
