/**
 * A bounded pool: at most `limit` calls of `withSlot` (or slots taken with
 * `acquire`) run at once; the rest wait in order. The limit may be a function
 * read at every grant, for a pool whose width changes while it runs (bulk
 * invite halves it on a 429 and lets it creep back).
 */
export interface Limiter {
  <R>(fn: () => Promise<R>): Promise<R>;
  /** Waits for a slot and holds it until the returned release is called (once; later calls do nothing). */
  acquire(): Promise<() => void>;
  /** Slots held now. */
  readonly active: number;
}

export function limiter(limit: number | (() => number)): Limiter {
  const max = typeof limit === 'number' ? () => limit : limit;
  let active = 0;
  const waiting: Array<() => void> = [];
  // A freed slot is handed to the first waiter at once, so a newcomer cannot take it in between.
  const grant = () => {
    while (waiting.length > 0 && active < max()) {
      active++;
      waiting.shift()!();
    }
  };
  async function acquire(): Promise<() => void> {
    if (waiting.length === 0 && active < max()) active++;
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
  });
}
