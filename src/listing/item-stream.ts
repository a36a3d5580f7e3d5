/**
 * The way of an item from a listing engine to its reader, as a loop:
 *
 *     const listing = streamListing((put, signal) => listComplete(fetch, base, put, { signal }));
 *     for await (const item of listing) if (!out.write(item)) await out.drained();
 *     const figures = await listing.result;
 *
 * The engine hands each item to `put`, in order (in-order.ts); `put` returns
 * a promise while `bound` items wait for the reader, so a reader that stops
 * stops the deliveries, and the engine's search waits for room before its
 * next request (InOrder.room): what is held ahead of the reader is bounded,
 * not the whole list. Leaving the loop early (break, a throw) aborts the
 * engine through `signal` and waits for it to end.
 */
export const HELD_AHEAD = 64;

export interface Listing<T, R> extends AsyncIterable<T> {
  /** The engine's figures once the loop has ended; rejects with its error (thrown by the loop too). */
  readonly result: Promise<R>;
}

export type ListingEngine<T, R> = (put: (item: T) => void | Promise<void>, signal: AbortSignal) => Promise<R>;

/** Runs `engine` and yields what it puts, at most `bound` items ahead of the reader. */
export function streamListing<T, R>(engine: ListingEngine<T, R>, o: { signal?: AbortSignal; bound?: number } = {}): Listing<T, R> {
  const bound = Math.max(1, o.bound ?? HELD_AHEAD);
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  const held: T[] = [];
  let head = 0;
  let ended = false;
  let left = false;
  let reader: (() => void) | undefined;
  let writer: (() => void) | undefined;
  const wakeReader = () => {
    reader?.();
    reader = undefined;
  };
  const put = (item: T): void | Promise<void> => {
    if (left) return;
    held.push(item);
    wakeReader();
    if (held.length - head < bound) return;
    return new Promise<void>((resolve) => {
      writer = resolve;
    });
  };
  const result = engine(put, signal).finally(() => {
    ended = true;
    wakeReader();
  });
  // The loop throws the engine's error; `result` is for the figures.
  result.catch(() => {});
  async function* items(): AsyncGenerator<T, void, undefined> {
    try {
      for (;;) {
        if (head < held.length) {
          const item = held[head++];
          if (head >= 1024 && head * 2 > held.length) {
            held.splice(0, head);
            head = 0;
          }
          writer?.();
          writer = undefined;
          yield item;
          continue;
        }
        if (ended) {
          await result;
          return;
        }
        await new Promise<void>((resolve) => {
          reader = resolve;
        });
      }
    } finally {
      if (!ended) {
        left = true;
        writer?.();
        stop.abort(new Error('the loop ended before the list did'));
        await result.catch(() => {});
      }
    }
  }
  return { result, [Symbol.asyncIterator]: items };
}
