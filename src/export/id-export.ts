/**
 * An export of one result per test taker (scorecard, job-fit): the ids from
 * an IdSource, fetched in order by bulkFetch, each given exactly one outcome
 * in the tally (written, skipped with a reason, failed), a progress bar, the
 * --errors file, and the end that commits the output only when it adds up.
 * The command says how to fetch one, which values to keep and how to write them.
 */
import type { Session } from '../core/session.js';
import type { ListWriter } from '../format/output.js';
import { createProgress } from '../format/progress.js';
import { type BulkResult, bulkFetch, waitingNotice } from './bulk-fetch.js';
import { createErrorSink } from './error-sink.js';
import { finishExport, isServiceGone } from './finish.js';
import type { IdSource } from './ids.js';
import { ExportTally } from './tally.js';
import type { ExportTarget } from './target.js';

export interface IdExportOptions<R> {
  source: IdSource;
  target: ExportTarget;
  /** The progress bar's label, e.g. "Scorecards". */
  label: string;
  /** --all: the total is known only once the listing is done. */
  all: boolean;
  concurrency?: number;
  /** --errors FILE. */
  errors?: string;
  /** The command to run again, for the hint when the service is gone. */
  rerun: string;
  fetch(id: number, signal?: AbortSignal): Promise<R>;
  /** A fetch error that is not a failure but a reason to skip the test taker. */
  skipWhen?: (err: unknown) => string | undefined;
  /** The writer, opened inside the run (an error there ends the export like any other). */
  openWriter(): Promise<ListWriter | undefined>;
  /** A reason to skip a fetched value, or undefined to keep it. */
  skipValue?(value: R): string | undefined;
  /** Writes a kept value; false when the output is full (the next value waits for it to drain), as ListWriter.write says. */
  write(value: R, writer: ListWriter | undefined): boolean | void;
  onSkipped?(id: number): void;
  /** A test taker whose fetch failed (for --retry-failed's note, retry-failed.ts). */
  onFailed?(id: number): void;
  /** After the last fetch, before the export is committed (`error`: what stopped it, if anything). */
  beforeFinish?(error: unknown): void;
}

export async function runIdExport<R>(ctx: Session, o: IdExportOptions<R>): Promise<{ result?: BulkResult; listing?: Awaited<IdSource['done']> }> {
  const started = performance.now();
  const tally = new ExportTally('test takers');
  let sink: ReturnType<typeof createErrorSink>;
  try {
    sink = createErrorSink(ctx, o.errors, 'test taker');
  } catch (err) {
    // A refused --errors file: the run never began, and --out leaves nothing behind.
    o.target.discard();
    throw err;
  }
  const count = o.source.feed.count;
  // A bar for one item is noise.
  const progress = createProgress(o.all || count > 1 ? ctx : { io: ctx.io, globals: { ...ctx.globals, quiet: true } }, { label: o.label, noun: 'test takers', total: o.all ? undefined : count });
  o.source.done.then((r) => r && progress.setTotal(r.items)).catch(() => {});
  let writer: ListWriter | undefined;
  let listing: Awaited<IdSource['done']>;
  let result: BulkResult | undefined;
  let error: unknown;
  try {
    writer = await o.openWriter();
    const w = writer;
    result = await bulkFetch(o.source.feed, o.fetch, {
      concurrency: o.concurrency,
      signal: ctx.io.signal,
      skipWhen: o.skipWhen,
      stopWhen: isServiceGone,
      onWaiting: waitingNotice(ctx, 'test taker'),
      onSettled: (out) => progress.tick({ error: out.kind === 'failed' }),
      onResult: async (id, out) => {
        if (out.kind === 'failed') {
          tally.fail();
          o.onFailed?.(id);
          return sink.failed(id, out.error);
        }
        if (out.kind === 'skipped') {
          tally.skip(out.reason);
          o.onSkipped?.(id);
          return sink.skipped(id, out.reason);
        }
        const skip = o.skipValue?.(out.value);
        if (skip !== undefined) return tally.skip(skip);
        tally.write();
        // Back-pressure: a full output holds the fetches back (bulkFetch waits for this promise) instead of growing in memory.
        if (o.write(out.value, w) === false && w) await w.drained();
      },
    });
    listing = await o.source.done;
  } catch (err) {
    error = err;
  }
  try {
    await sink.close({ stopped: error !== undefined });
  } catch (err) {
    // The --errors file could not be written: the run cannot pass for a finished one.
    error ??= err;
  }
  o.beforeFinish?.(error);
  await finishExport(
    ctx,
    {
      target: o.target,
      writer,
      tally,
      listed: listing?.items ?? o.source.feed.count,
      totalCount: listing?.total,
      created: listing?.created,
      elapsedMs: performance.now() - started,
      stopProgress: () => progress.stop(),
      rerun: o.rerun,
    },
    error,
  );
  return { result, listing };
}
