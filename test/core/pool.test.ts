import { describe, expect, it } from 'vitest';
import { limiter } from '../../src/core/pool.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('limiter: a slot per call, or held with acquire', () => {
  it('runs at most `limit` at once, the rest in order', async () => {
    const slot = limiter(3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        slot(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await tick();
          running--;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(order).toEqual([...Array(20).keys()]);
  });

  it('acquire holds a slot until released (once), and follows a limit that changes', async () => {
    let width = 2;
    const slot = limiter(() => width);
    const a = await slot.acquire();
    const b = await slot.acquire();
    let third = false;
    const c = slot.acquire().then((release) => {
      third = true;
      return release;
    });
    await tick();
    expect(third).toBe(false);
    expect(slot.active).toBe(2);
    width = 1;
    a();
    a();
    await tick();
    // Released twice counts once; at width 1 with one held, the third still waits.
    expect(slot.active).toBe(1);
    expect(third).toBe(false);
    b();
    await tick();
    expect(third).toBe(true);
    expect(slot.active).toBe(1);
    (await c)();
    expect(slot.active).toBe(0);
  });
});

const pause = () => new Promise((r) => setTimeout(r, 1));

describe('limiter: a bound that changes', () => {
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
          await pause();
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
    await pause();
    expect(fifth).toBe(false);
    releases[2]();
    await pause();
    expect(fifth).toBe(true);
    let sixth = false;
    void slot.acquire().then(() => (sixth = true));
    await pause();
    expect(sixth).toBe(false);
    slot.limit = 3;
    await pause();
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
    await pause();
    expect(b).toBe(false);
    slot.limit = 0;
    expect(slot.limit).toBe(1);
    a();
    await pause();
    expect(b).toBe(true);
  });
});
