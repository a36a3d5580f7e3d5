/**
 * Hands items to a consumer strictly one after another, in the order they
 * were found, while the search that finds them runs on: the complete lists
 * (complete-list.ts, guided-list.ts) find items from several requests at once,
 * and an export must write them one by one. The first error of the consumer
 * stops the deliveries after it and is thrown by done(). A search that
 * failed stops them too (stop()): its requests still in flight must not add
 * rows after the export's `#INCOMPLETE EXPORT` line (issue 43, item 6).
 */
/**
 * Items found and not yet delivered past which a search waits for its
 * consumer before it asks for more: 2,000 items (13 full answers), so the
 * queue's memory does not grow with the list.
 */
export const BACKLOG = 2000;

export class InOrder {
  private chain: Promise<void> = Promise.resolve();
  private error: unknown;
  private stopped = false;
  /** Deliveries queued and not yet run: each holds its item. */
  private pending = 0;
  /** Resolves a room() wait once the backlog is down to its low mark. */
  private waiter: { low: number; promise: Promise<void>; resolve: () => void } | undefined;

  /** Queues one delivery; it runs after every earlier one, and not at all after one failed or stop(). */
  add(deliver: () => void | Promise<void>): void {
    this.pending++;
    this.chain = this.chain.then(async () => {
      try {
        if (this.error === undefined && !this.stopped) await deliver();
      } catch (err) {
        this.error = err;
      } finally {
        this.pending--;
        if (this.waiter && this.pending <= this.waiter.low) {
          this.waiter.resolve();
          this.waiter = undefined;
        }
      }
    });
  }

  /**
   * Nothing (at once) while at most `high` deliveries wait; else a promise
   * that resolves when half of them have run. A search that asks before each
   * request holds at most `high` items plus the answers in flight, however
   * slow its consumer (a file on a slow disk, a pipe read by `head`): the
   * queue no longer grows with the list (issue 47, item 3).
   */
  room(high: number): Promise<void> | undefined {
    if (this.pending <= high || this.error !== undefined || this.stopped) return undefined;
    if (!this.waiter) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      this.waiter = { low: Math.floor(high / 2), promise, resolve };
    }
    return this.waiter.promise;
  }

  /** No delivery runs from now on, queued or not (the search failed: nothing it still finds is written). */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves when every queued delivery has run; rejects with the first error of one. */
  async done(): Promise<void> {
    await this.chain;
    if (this.error !== undefined) throw this.error;
  }
}
