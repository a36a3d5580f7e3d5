/** A bounded pool: at most `limit` calls of `withSlot` run at once; the rest wait in order. */
export function limiter(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function withSlot<R>(fn: () => Promise<R>): Promise<R> {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
