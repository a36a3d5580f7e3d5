/**
 * The end of a bulk export (scorecard, job-fit, report, --all lists): one
 * summary line that adds up, the output committed only when it is complete,
 * and a run that stopped early (the service gone, a count that does not add
 * up, Ctrl-C) said so in a few lines, never one per id. A failed write (a
 * full disk) is said in the summary: it never claims rows were written then.
 */
import type { Session } from '../core/session.js';
import { CancelError, JobfitError } from '../core/errors.js';
import { ServiceGoneError } from '../client/errors.js';
import type { ListWriter } from '../format/output.js';
import type { ExportTally } from './tally.js';
import type { ExportTarget } from './target.js';

/** The client's circuit breaker gave up on the service: the run ends at once. */
export function isServiceGone(err: unknown): boolean {
  return err instanceof ServiceGoneError;
}

export interface FinishOptions {
  target: ExportTarget;
  writer?: ListWriter;
  tally: ExportTally;
  /** Items the run had to work through (ids given, or found by --all). */
  listed: number;
  /** The service's total_count, for --all. */
  totalCount?: number;
  /** Items among `listed` created during the run, after the service counted (--all). */
  created?: number;
  /** ms since the run started (performance clock of the caller). */
  elapsedMs?: number;
  /** Stops the progress bar before anything is printed. */
  stopProgress?: () => void;
  /** How to re-run, for the stop message. */
  rerun?: string;
}

/**
 * Commits the export when it is complete and adds up; otherwise abandons it
 * and throws (the original error, or the count's). `error`: what ended the
 * run early, if anything.
 */
export async function finishExport(ctx: Session, o: FinishOptions, error?: unknown): Promise<void> {
  o.stopProgress?.();
  let err = error;
  if (err === undefined) {
    try {
      o.tally.check(o.listed, o.totalCount, o.created);
    } catch (e) {
      err = e;
    }
  }
  if (err === undefined) {
    await o.target.commit(o.writer);
    // One item asked for by id needs no summary; every longer run gets one.
    if (o.listed !== 1 || o.totalCount !== undefined) {
      // A full disk behind `> FILE`: the rows were handed to the output, not all written (cli/main.ts names the file and exits 1).
      const writeFailed = await o.target.writeFailed();
      ctx.info(o.tally.line({ listed: o.listed, totalCount: o.totalCount, created: o.created, elapsedMs: o.elapsedMs, writeFailed }));
    }
    return;
  }
  const notDone = Math.max(0, o.listed - o.tally.accounted);
  const writeFailed = await o.target.writeFailed();
  const line = o.tally.line({ listed: o.listed, totalCount: o.totalCount, created: o.created, elapsedMs: o.elapsedMs, notDone, writeFailed });
  // Said even with --quiet: an export that stopped short must never pass for a finished one.
  ctx.io.stderr.write(`Stopped after ${line.charAt(0).toLowerCase()}${line.slice(1)}\n`);
  const why = err instanceof Error && err.message ? err.message : String(err);
  await o.target.abandon(o.writer, err instanceof CancelError ? 'interrupted' : why);
  if (err instanceof ServiceGoneError && o.rerun) {
    throw new JobfitError(err.message, { hint: `run \`${o.rerun} …\` again once the service answers (an export starts over; nothing is resumed)`, cause: err });
  }
  // Interrupted (Ctrl-C, SIGTERM, SIGHUP): the same exit (130, 143, 129), and how to run it again.
  if (err instanceof CancelError && o.rerun) {
    throw new JobfitError(err.message, { exitCode: err.exitCode, hint: `run \`${o.rerun} …\` again to export (an export starts over; nothing is resumed)`, cause: err });
  }
  throw err;
}
