/**
 * Hands items to a consumer strictly one after another, in the order they
 * were found, while the search that finds them runs on: the complete lists
 * (complete-list.ts, guided-list.ts) find items from several requests at once,
 * and an export must write them one by one. The first error of the consumer
 * stops the deliveries after it and is thrown by done(). A search that
 * failed stops them too (stop()): its requests still in flight must not add
 * rows after the export's `#INCOMPLETE EXPORT` line (issue 43, item 6).
 *
 * Back-pressure: a consumer that is slow (its delivery returns a promise that
 * waits, e.g. for stdout to drain) makes deliveries queue up here. The search
 * asks room() before each request and waits while more than BACKLOG of them
 * are queued, so a reader that stops holds the search, not the whole list.
 */
export const BACKLOG = 1024;

export class InOrder {
  private chain: Promise<void> = Promise.resolve();
  private error: unknown;
  private stopped = false;
  /** Deliveries queued and not yet run to their end. */
  private queued = 0;
  private waiters: Array<{ bound: number; wake: () => void }> = [];

  /** Deliveries queued and not yet run to their end (each holds its item). */
  get pending(): number {
    return this.queued;
  }

  /** Queues one delivery; it runs after every earlier one, and not at all after one failed or stop(). */
  add(deliver: () => void | Promise<void>): void {
    this.queued++;
    this.chain = this.chain.then(async () => {
      try {
        if (this.error !== undefined || this.stopped) return;
        await deliver();
      } catch (err) {
        this.error = err;
      } finally {
        this.queued--;
        this.wake();
      }
    });
  }

  /**
   * Undefined when at most `bound` deliveries are queued (the search goes on
   * at once, with no await that would reorder its requests); otherwise a
   * promise that resolves once they are down to `bound`, or the deliveries
   * stopped or failed.
   */
  room(bound = BACKLOG): Promise<void> | undefined {
    if (this.queued <= bound || this.stopped || this.error !== undefined) return undefined;
    return new Promise((wake) => this.waiters.push({ bound, wake }));
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const open = this.stopped || this.error !== undefined;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (open || this.queued <= w.bound) w.wake();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** No delivery runs from now on, queued or not (the search failed: nothing it still finds is written). */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  /** Resolves when every queued delivery has run; rejects with the first error of one. */
  async done(): Promise<void> {
    await this.chain;
    if (this.error !== undefined) throw this.error;
  }
}
