/**
 * A bounded pool: at most `limit` calls of `withSlot` run at once; the rest
 * wait in order. The bound may change while it runs (a pool that slows down
 * on a 429): lowering it lets the calls running finish and starts no new one
 * until they are under it; raising it starts waiting calls at once.
 */
export interface Limiter {
  <R>(fn: () => Promise<R>): Promise<R>;
  /** Waits for a slot and returns its release, to be called exactly once (for work that is not one function). */
  acquire(): Promise<() => void>;
  /** The bound now (at least 1). */
  limit: number;
}

export function limiter(limit: number): Limiter {
  let bound = Math.max(1, limit);
  let active = 0;
  const waiting: Array<() => void> = [];
  // A released slot goes straight to the next waiter, so no newcomer slips in between.
  const pump = () => {
    while (active < bound && waiting.length > 0) {
      active++;
      waiting.shift()!();
    }
  };
  const release = () => {
    active--;
    pump();
  };
  const acquire = async (): Promise<() => void> => {
    if (active < bound && waiting.length === 0) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  const withSlot = async <R>(fn: () => Promise<R>): Promise<R> => {
    const done = await acquire();
    try {
      return await fn();
    } finally {
      done();
    }
  };
  return Object.defineProperties(withSlot, {
    acquire: { value: acquire },
    limit: {
      get: () => bound,
      set: (n: number) => {
        bound = Math.max(1, Math.floor(n));
        pump();
      },
    },
  }) as Limiter;
}
