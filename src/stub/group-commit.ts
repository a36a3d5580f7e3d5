/**
 * Group commit for the stub's creating writes (POST /invitations): the jobs
 * that arrive within one turn of the event loop run in ONE `BEGIN IMMEDIATE`
 * transaction, in arrival order, and each request is answered only after that
 * commit. A commit (and the WAL append behind it) was the largest single cost
 * of a POST; under load it is now paid once per batch instead of per request.
 *
 * A job has two steps so that one job's refusal cannot leave half a write in
 * the shared transaction:
 * - `check()` reads (duplicate checks) and may throw (a refusal: that job
 *   alone is rejected); it must not write;
 * - `apply()` writes and returns the job's result; it is not expected to
 *   throw. If it does (a real fault), the whole batch is rolled back and every
 *   job runs again on its own, as if there had been no batching.
 *
 * Checks run after the writes of the jobs before them, so two requests for the
 * same email in one batch behave as if sent one after the other.
 */
import type { Store } from './store.js';

export interface WriteJob<T> {
  check(): void;
  apply(): T;
}

interface Pending {
  job: WriteJob<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** Batches are capped so that one huge burst does not hold the write lock (and the event loop) for long. */
const MAX_BATCH = 256;

export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  /**
   * Rows this committer has changed (SQLite's total_changes() counts them
   * too). The app subtracts them to tell "only new invitations were written"
   * from other writes on this connection, which may touch keys or configuration.
   */
  ownChanges = 0;

  constructor(private readonly store: Store) {}

  /** Runs the job in the next group transaction; settles after its commit. */
  submit<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate runs after the poll phase: every request whose body
        // arrived in this turn has been queued by then.
        setImmediate(() => this.flush());
      }
    });
  }

  private totalChanges(): number {
    return this.store.get<{ c: number }>('SELECT total_changes() AS c')!.c;
  }

  private flush(): void {
    this.scheduled = false;
    const before = this.totalChanges();
    try {
      this.drain();
    } finally {
      this.ownChanges += this.totalChanges() - before;
    }
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.length <= MAX_BATCH ? this.queue : this.queue.slice(0, MAX_BATCH);
      this.queue = this.queue.length <= MAX_BATCH ? [] : this.queue.slice(MAX_BATCH);
      this.runBatch(batch);
    }
  }

  private runBatch(batch: Pending[]): void {
    // A caller already inside a transaction (or a single job) gains nothing from grouping.
    if (batch.length === 1 || this.store.db.inTransaction) {
      for (const p of batch) this.runAlone(p);
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.store.write(() => {
        outcomes.length = 0;
        for (const p of batch) {
          try {
            p.job.check();
          } catch (err) {
            outcomes.push({ ok: false, value: err });
            continue;
          }
          outcomes.push({ ok: true, value: p.job.apply() });
        }
      });
    } catch (err) {
      // A full or read-only disk refuses every job alike: no need to try each alone.
      if (this.store.diskError(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // apply() or the commit failed: nothing of this batch is stored. Each job
      // runs alone, so a fault stays with the request that caused it.
      for (const p of batch) this.runAlone(p);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.value);
    });
  }

  private runAlone(p: Pending): void {
    try {
      p.resolve(
        this.store.write(() => {
          p.job.check();
          return p.job.apply();
        }),
      );
    } catch (err) {
      p.reject(err);
    }
  }
}

const perStore = new WeakMap<Store, GroupCommit>();

/** The group committer of a store (one per open store, shared by every app on it). */
export function groupCommitOf(store: Store): GroupCommit {
  let g = perStore.get(store);
  if (!g) {
    g = new GroupCommit(store);
    perStore.set(store, g);
  }
  return g;
}
