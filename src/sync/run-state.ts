/**
 * What one sync run carries from step to step (src/sync/run.ts takes the
 * steps): the session, client, database and options; the counts of requests
 * (by kind), rows, skips and item errors; the stop (what ends every request);
 * the error sink, the request slots and the commit queue. The steps are
 * functions of a RunState in their own files: accept.ts (whose data, which
 * profiles, the small lists), fetch-people.ts (plan and fetch), gone.ts (what
 * the service no longer has, the count checks), taker-check.ts (the
 * invitation list against the test-taker list).
 */
import type { Session } from '../core/session.js';
import type { JobfitError } from '../core/errors.js';
import { type Limiter, limiter } from '../core/pool.js';
import type { JobfitClient } from '../client/client.js';
import { AuthenticationError, ServiceGoneError } from '../client/errors.js';
import { type ErrorSink, createErrorSink } from '../export/error-sink.js';
import type { Progress } from '../format/progress.js';
import { type Counts, DatabaseGoneError, type Row, type SyncStore } from './store.js';
import { CommitQueue } from './commits.js';
import { wholeListCheck } from './plan.js';
import type { Json } from './rows.js';

export interface SyncOptions {
  /** Score profile short names; undefined: the ones the database remembers. */
  sp?: string[];
  full: boolean;
  concurrency: number;
  errors?: string;
  /**
   * Only these invitations (list items, or invitation objects: the same
   * fields), instead of the complete list; teams and users are left alone.
   * For `webhook listen --sync`.
   */
  items?: Json[];
}

/** What a sync needs of the run: a Session, the client, and the mode it connected in. */
export interface SyncSession extends Session {
  client(opts?: { announce?: boolean }): Promise<JobfitClient>;
  readonly connection?: { mode?: 'live' | 'test' };
}

/** The counts a run's record (sync_runs) and its report share. */
export interface RunTally {
  requests: number;
  byKind: Record<string, number>;
  inserted: number;
  updated: number;
  /** Rows marked gone this run (the service no longer lists them). */
  gone: number;
  errors: number;
}

export class RunState {
  readonly sink: ErrorSink;
  readonly started: Date;
  readonly signal: AbortSignal;
  readonly byKind: Record<string, number> = {};
  readonly counts: Counts = { inserted: 0, updated: 0, gone: 0 };
  readonly skipped: Record<string, number> = {};
  readonly commits: CommitQueue;
  errors = 0;
  /** Lists whose items did not add up to their total_count: the run fails at its end, with the first. */
  readonly listProblems: JobfitError[] = [];
  /** What ends every request (service gone, key refused, database gone, Ctrl-C), once it happened. */
  stop: unknown;
  // Recorded once the run is accepted: a refused run (other mode, unknown profile) writes nothing.
  runId: number | undefined;
  /** The key's mode, once accept() has read it. */
  mode: 'live' | 'test' | undefined;
  /** People to look at (the plan's work). */
  total = 0;
  bar: Progress | undefined;
  private readonly slot: Limiter;

  constructor(
    readonly ctx: SyncSession,
    readonly client: JobfitClient,
    readonly db: SyncStore,
    readonly o: SyncOptions,
    readonly progress?: (total: number) => Progress,
  ) {
    this.started = ctx.io.now();
    this.signal = ctx.io.signal;
    this.slot = limiter(o.concurrency);
    // One sink (one --errors file): "Error: sync of test taker 500160 (scorecard sales-rep): ...".
    this.sink = createErrorSink(ctx, o.errors, 'sync of');
    this.commits = new CommitQueue(db, (err) => {
      this.stop ??= err;
    });
  }

  skip(reason: string): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
  }

  itemFailed(what: string, err: unknown): void {
    this.errors++;
    this.sink.failed(what, err);
  }

  /** What the run did so far: requests (in all and by kind), rows written, item errors. The run's record and its report both read it. */
  tally(): RunTally {
    return {
      requests: Object.values(this.byKind).reduce((a, b) => a + b, 0),
      byKind: this.byKind,
      inserted: this.counts.inserted,
      updated: this.counts.updated,
      gone: this.counts.gone,
      errors: this.errors,
    };
  }

  /** One request, counted by kind; a stop ends every request after it. */
  req<T>(kind: string, fn: () => Promise<T>): Promise<T> {
    return this.slot(async () => {
      if (this.stop !== undefined) throw this.stop;
      this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
      try {
        return await fn();
      } catch (err) {
        const signal = this.signal;
        if (err instanceof ServiceGoneError || err instanceof AuthenticationError || err instanceof DatabaseGoneError || signal.aborted) this.stop ??= signal.aborted ? (signal.reason ?? err) : err;
        throw err;
      }
    });
  }

  /** A row built from what the service sent; one it cannot be built from (an id that is not one) is an item error. */
  rowOr(build: () => Row, what: string, id: unknown): Row | undefined {
    try {
      return build();
    } catch (err) {
      this.itemFailed(`${what} ${typeof id === 'string' || typeof id === 'number' ? id : JSON.stringify(id) ?? '(no id)'}`, err);
      return undefined;
    }
  }

  /** Whether a list read whole adds up to its total_count; one that does not is kept as a problem (the run fails at its end). */
  checkList(answer: Json, noun: string): boolean {
    const problem = wholeListCheck(answer, noun);
    if (problem) this.listProblems.push(problem);
    return problem === undefined;
  }

  /** Records how the run ended (nothing before it was accepted). */
  async finish(status: string, message?: string): Promise<void> {
    if (this.runId === undefined) return;
    await this.db.finishRun(this.runId, { finishedAt: this.ctx.io.now().toISOString(), status, ...this.tally(), message });
  }
}
