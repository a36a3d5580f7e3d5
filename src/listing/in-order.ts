/**
 * Hands items to a consumer strictly one after another, in the order they
 * were found, while the search that finds them runs on: the complete lists
 * (complete-list.ts, guided-list.ts) find items from several requests at once,
 * and an export must write them one by one. The first error of the consumer
 * stops the deliveries after it and is thrown by done(). A search that
 * failed stops them too (stop()): its requests still in flight must not add
 * rows after the export's `#INCOMPLETE EXPORT` line (issue 43, item 6).
 */
export class InOrder {
  private chain: Promise<void> = Promise.resolve();
  private error: unknown;
  private stopped = false;

  /** Queues one delivery; it runs after every earlier one, and not at all after one failed or stop(). */
  add(deliver: () => void | Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.error !== undefined || this.stopped) return;
      try {
        await deliver();
      } catch (err) {
        this.error = err;
      }
    });
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
