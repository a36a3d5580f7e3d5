import { describe, expect, it } from 'vitest';
import { limiter } from '../../src/core/pool.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('limiter', () => {
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
