/**
 * `--retry-failed` for `scorecard` and `job-fit` (src/export/retry-failed.ts):
 * the ids of the last export to --out that failed, fetched into a file of
 * their own and merged into --out; and, after any export to --out, the note
 * of what failed.
 */
import { IdFeed } from '../../export/id-feed.js';
import type { IdSource } from '../../export/ids.js';
import { type FailedNote, mergePart, noteFailures, readFailedNote, retryPartPath, retrySentence } from '../../export/retry-failed.js';
import type { Session } from '../../core/session.js';

export interface RetryPlan {
  /** The ids to fetch, when retrying. */
  source?: IdSource;
  /** Where the run writes: the retry's own file, or --out. */
  out?: string;
  /** Collects the ids that failed in this run. */
  failed: number[];
  asked: number;
}

/** The run's plan: a retry's ids and own file, or the export as asked. */
export function planRetry(o: { out?: string; retryFailed?: boolean }, command: FailedNote['command'], sp: string | undefined, format: string): RetryPlan {
  if (!o.retryFailed || o.out === undefined) return { out: o.out, failed: [], asked: 0 };
  const note = readFailedNote(o.out, command, sp, format);
  return { source: { feed: IdFeed.of(note.ids), done: Promise.resolve(undefined) }, out: retryPartPath(o.out), failed: [], asked: note.ids.length };
}

/** After a run that finished (its output committed): merge a retry, and note what failed beside --out. */
export function finishRetry(ctx: Session, o: { out?: string; retryFailed?: boolean }, plan: RetryPlan, command: FailedNote['command'], sp: string | undefined, format: string): void {
  if (o.out === undefined) return;
  if (o.retryFailed) mergePart(o.out, plan.out!, format);
  noteFailures(o.out, { command, sp, format, ids: plan.failed }, ctx.io.now());
  if (o.retryFailed) ctx.info(retrySentence(o.out, plan.asked, plan.failed.length));
}
