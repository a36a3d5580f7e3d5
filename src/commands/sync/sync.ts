/**
 * sync --db FILE [--sp a,b] [--full] [--watch 15m]
 *
 * Keeps a database of every result up to date, fetching only what can have
 * changed since the last run (src/sync/run.ts). The database, its schema and
 * its lock: src/sync/store.ts (SQLite file or PostgreSQL URL).
 */
import { resolve } from 'node:path';
import * as z from 'zod';
import { ServiceGoneError } from '../../client/errors.js';
import { heapForSize } from '../../core/heap.js';
import { CancelError, PartialFailureError } from '../../core/errors.js';
import { NUM } from '../../format/number.js';
import { createProgress, formatDuration } from '../../format/progress.js';
import { type SyncReport, SyncStopped, syncOnce } from '../../sync/run.js';
import { DatabaseBusyError, DatabaseGoneError, DatabaseUnwritableError } from '../../sync/store.js';
import { checkSyncTarget, isPostgresUrl, openSyncStore } from '../../sync/open.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { checkOutFile } from '../kit/output-checks.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `15m`, `90s`, `1h`: seconds, at least 10. */
const interval = z.string().transform((text, zctx) => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/i.exec(text);
  if (!m) {
    zctx.addIssue({ code: 'custom', message: `"${text}" is not a duration such as 30s, 15m or 1h` });
    return z.NEVER;
  }
  const secs = Number(m[1]) * UNITS[m[2].toLowerCase()];
  if (secs < 10) {
    zctx.addIssue({ code: 'custom', message: 'the interval must be at least 10 seconds' });
    return z.NEVER;
  }
  return secs;
});

const SyncOptions = z.object({
  db: flag(z.string({ error: 'is required (the database file, e.g. results.sqlite)' }).trim().min(1, 'must not be empty'), {
    flag: '--db <file|url>',
    description: 'the SQLite database file (created when absent), or a postgres://user@host/db URL',
  }),
  sp: flag(
    z
      .string()
      .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
      .refine((a) => a.length > 0, 'give at least one score profile short name')
      .optional(),
    { flag: '--sp <short_names>', description: 'score profiles whose scorecards to keep, comma-separated (remembered by the database)' },
  ),
  full: flag(z.boolean().default(false), { flag: '--full', description: 're-read everything, not only what can have changed' }),
  watch: flag(interval.optional(), { flag: '--watch <interval>', description: 'keep syncing, every interval (30s, 15m, 1h) until Ctrl-C' }),
  concurrency: flag(z.coerce.number().int().min(1).max(64).default(16), { flag: '--concurrency <n>', description: 'requests in flight (default 16)' }),
  errors: flag(z.string().optional(), { flag: '--errors <file>', description: 'write failed items and their errors to FILE as NDJSON (default: stderr)' }),
});
type SyncOptions = z.output<typeof SyncOptions>;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${NUM.format(n)} ${n === 1 ? one : many}`;
}

function summaryLine(db: string, r: SyncReport): string {
  const kinds = Object.entries(r.byKind)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k.replace(/_/g, ' ')} ${NUM.format(n)}`)
    .join(', ');
  return (
    `Synced ${db} in ${formatDuration(r.seconds * 1000)}: ${plural(r.invitations, 'invitation')}, ${plural(r.testTakers, 'test taker')}; ` +
    `${plural(r.requests, 'request')} (${kinds}); ${plural(r.inserted, 'row')} inserted, ${NUM.format(r.updated)} updated, ${NUM.format(r.gone)} marked gone, ${plural(r.errors, 'error')}.`
  );
}

function explainSkips(ctx: Context, r: SyncReport): void {
  const reasons = Object.entries(r.skipped);
  if (reasons.length === 0) return ctx.debug('sync: nothing skipped (first run or --full)');
  ctx.debug('sync: not fetched, and why:');
  for (const [why, n] of reasons.sort((a, b) => b[1] - a[1])) ctx.debug(`  ${NUM.format(n).padStart(8)}  ${why}`);
}

async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await new Promise<void>((done) => {
    const t = setTimeout(finish, ms);
    function finish() {
      clearTimeout(t);
      signal.removeEventListener('abort', finish);
      done();
    }
    signal.addEventListener('abort', finish, { once: true });
  });
}

async function run(o: SyncOptions, ctx: Context): Promise<void> {
  // A sync's live data is small (a few fields per list item, a batch of rows),
  // but it allocates fast, and V8 let the young generation grow to 128 MB on
  // Node 24: 359 MB at 100,000 people. Growing the heap for size keeps it at
  // 16 MB: 137 MB (issue 31's bound: 150). It costs ~40% more CPU, ~18% more
  // wall time at 10,000 on a quiet machine (docs/performance.md, "Sync").
  heapForSize();
  checkSyncTarget(o.db);
  const target = isPostgresUrl(o.db) ? o.db : resolve(o.db);
  if (o.errors !== undefined) checkOutFile(o.errors, '--errors');
  const client = await ctx.client();
  const db = await openSyncStore(target);
  const name = isPostgresUrl(o.db) ? db.label : o.db;
  try {
    await db.acquireLock(() => ctx.io.now());
    for (let round = 1; ; round++) {
      const progress = (total: number) => createProgress(ctx, { label: 'Syncing', noun: 'people', total });
      let report: SyncReport;
      try {
        report = await syncOnce(ctx, client, db, { sp: o.sp, full: o.full && round === 1, concurrency: o.concurrency, errors: o.errors }, progress);
      } catch (err) {
        if (!(err instanceof SyncStopped)) throw err;
        // Stopped before anything was planned (a refused key, say): nothing to resume.
        if (err.progress.total === 0 && !ctx.io.signal.aborted && o.watch === undefined) throw err.reason;
        const done = `${NUM.format(err.progress.done)} of ${NUM.format(err.progress.total)} people were synced and kept`;
        if (ctx.io.signal.aborted) throw new CancelError(`Interrupted: ${done}; run the same command again to finish.`);
        // A watch outlives an outage, and another process holding the database a while: the next round resumes where this one stopped.
        if (o.watch !== undefined && (err.reason instanceof ServiceGoneError || err.reason instanceof DatabaseBusyError)) {
          ctx.warn(`${err.reason.message} ${done}; trying again in ${formatDuration(o.watch * 1000)}.`);
          await sleep(o.watch * 1000, ctx.io.signal);
          if (ctx.io.signal.aborted) throw new CancelError('Stopped watching; the database holds the last sync.');
          continue;
        }
        if (err.reason instanceof DatabaseUnwritableError) {
          ctx.warn(`Stopped: ${done}; run the same command again once the database can be written: it resumes where this run stopped.`);
        } else if (err.reason instanceof DatabaseGoneError) {
          ctx.warn(`Stopped: ${done}; run the same command again once the database is back: it resumes where this run stopped.`);
        } else {
          ctx.warn(`Stopped: ${done}; run the same command again to resume.`);
        }
        throw err.reason;
      }
      explainSkips(ctx, report);
      ctx.info(summaryLine(name, report));
      if (o.watch === undefined) {
        if (report.errors > 0) {
          throw new PartialFailureError(
            `${plural(report.errors, 'item')} could not be fetched; everything else was stored, and the next run tries them again.`,
            o.errors ? `the failures are listed in ${o.errors}` : undefined,
          );
        }
        return;
      }
      if (!ctx.io.signal.aborted) {
        ctx.info(`Next sync in ${formatDuration(o.watch * 1000)} (Ctrl-C stops).`);
        await sleep(o.watch * 1000, ctx.io.signal);
      }
      if (ctx.io.signal.aborted) throw new CancelError('Stopped watching; the database holds the last sync.');
    }
  } finally {
    await db.close();
  }
}

export default defineCommand({
  description: 'Keep a database of every result up to date: the first run reads everything, later runs only what can have changed',
  options: SyncOptions,
  examples: [
    'jobfit sync --db results.sqlite --sp sales-rep,software-engineer',
    'jobfit sync --db results.sqlite                  # the same profiles as last time',
    'jobfit sync --db results.sqlite --watch 15m',
    'jobfit sync --db postgres://jobfit@127.0.0.1:5432/talent --sp sales-rep',
    `sqlite3 results.sqlite "SELECT team_id, AVG(job_fit_percentage) FROM scorecards JOIN test_takers t ON t.id = test_taker_id WHERE score_profile = 'sales-rep' GROUP BY team_id"`,
  ],
  footer:
    '\n\nTables, what a run skips and example queries: docs/sync.md. -v lists what was not fetched and why.\n' +
    'Exit 3 when some items could not be fetched (the next run tries them again); 2 when another sync\n' +
    'holds the database, or it was written by a newer jobfit; 4 when it holds data of the other mode.',
  run,
});
