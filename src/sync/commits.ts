/**
 * Whole people's rows, written many to a transaction: one commit per person
 * costs more than the requests (docs/performance.md, "Sync"). A batch is
 * committed when it holds `size` people or `ms` after its first, one
 * transaction after another; `done` counts the people committed, so a run
 * that stops can say what it kept. Tested in test/sync/commits.test.ts.
 */
import type { SyncStore, Writer } from './store.js';

/** One person's rows (or any writes that belong together). */
export type Apply = (w: Writer) => Promise<void>;

export class CommitQueue {
  /** People (Applies) whose rows are committed. */
  done = 0;
  private pending: Apply[] = [];
  private timer: NodeJS.Timeout | undefined;
  // Transactions one after another: a flush waits for the one before it.
  private flushing: Promise<void> = Promise.resolve();

  /**
   * @param onLateError hears the error of a commit started by the timer (no caller awaits it).
   */
  constructor(
    private readonly db: Pick<SyncStore, 'transaction'>,
    private readonly onLateError: (err: unknown) => void,
    private readonly size = 200,
    private readonly ms = 100,
  ) {}

  /** Queues `fn`; resolves once it is queued, or once its batch is committed when the batch is full. */
  async write(fn: Apply): Promise<void> {
    this.pending.push(fn);
    if (this.pending.length >= this.size) await this.flush();
    else this.timer ??= setTimeout(() => this.flush().catch(this.onLateError), this.ms);
  }

  /** Commits what is queued (after any commit under way); resolves when all of it is committed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return this.flushing;
    const batch = this.pending.splice(0);
    this.flushing = this.flushing
      .then(() =>
        this.db.transaction(async (w) => {
          for (const apply of batch) await apply(w);
        }),
      )
      .then(() => {
        this.done += batch.length;
      });
    return this.flushing;
  }
}
