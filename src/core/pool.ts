/**
 * A bounded pool: at most `limit` calls of `withSlot` (or slots taken with
 * `acquire`) run at once; the rest wait in order. The bound may change while
 * it runs, for a pool that slows down on a 429 and creeps back: give a
 * function read at every grant, or set `limit`. Lowering it lets the calls
 * running finish and starts no new one until they are under it; raising it
 * starts waiting calls at once.
 */
export interface Limiter {
  <R>(fn: () => Promise<R>): Promise<R>;
  /** Waits for a slot and returns its release, to be called once (later calls do nothing): for work that is not one function. */
  acquire(): Promise<() => void>;
  /** Slots held now. */
  readonly active: number;
  /** The bound now (at least 1); setting it replaces a function given at creation. */
  limit: number;
}

export function limiter(limit: number | (() => number)): Limiter {
  let max = typeof limit === 'number' ? () => limit : limit;
  const bound = () => Math.max(1, Math.floor(max()));
  let active = 0;
  const waiting: Array<() => void> = [];
  // A freed slot is handed to the first waiter at once, so a newcomer cannot take it in between.
  const grant = () => {
    while (waiting.length > 0 && active < bound()) {
      active++;
      waiting.shift()!();
    }
  };
  async function acquire(): Promise<() => void> {
    if (waiting.length === 0 && active < bound()) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      active--;
      grant();
    };
  }
  async function withSlot<R>(fn: () => Promise<R>): Promise<R> {
    const release = await acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
  return Object.defineProperties(withSlot as Limiter, {
    acquire: { value: acquire },
    active: { get: () => active },
    limit: {
      get: bound,
      set: (n: number) => {
        max = () => n;
        grant();
      },
    },
  });
}
