/**
 * Bulk invite: parse (stream) → map columns → validate every row → (dry run
 * stops here) → confirm in live mode → send with bounded concurrency →
 * journal → results file in input order.
 *
 * The file is read twice (validation, then sending) rather than held in
 * memory; standard input is first spooled to a temporary file for that.
 *
 * This file is the pipeline; its steps live beside it: check.ts (the
 * validation pass), live-guard.ts, send.ts (one row, with the row retry of
 * retry.ts), journal.ts and results.ts (what is written), finish.ts (the
 * summary, the exit and the resume command).
 */
import { setMaxListeners } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { JobfitError, UsageError } from '../core/errors.js';
import { acquireLock } from '../core/lock.js';
import { limiter } from '../core/pool.js';
import { NUM } from '../format/number.js';
import { safeLine, safeText } from '../format/sanitize.js';
import { loadAccountData } from './account.js';
import { checkResumable, checkRow, validatePass, writeErrorsFile, fitCells } from './check.js';
import { checkWritablePath, fileErrorCause, isFileError } from './files.js';
import { resumeCommand, summaryLine, writeFailure } from './finish.js';
import { readInputBatches } from './input.js';
import { type JournalBegin, journalPathFor, type JournalState, JournalWriter, type Outcome, readJournal, type RowStatus } from './journal.js';
import { guardLive } from './live-guard.js';
import type { CsvRecord } from './reader.js';
import { describeMapping, formatReport } from './report.js';
import type { ResultsWriter } from './results.js';
import { Pace } from './retry.js';
import { NOT_SENT, resolveInFlight, type RowAsk, rowBreakerBound, sendRow, UNANSWERED } from './send.js';
import { type BulkDeps, type BulkOptions, type BulkSummary, DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './types.js';
import { createResultsWriter } from './xlsx-results.js';
import type { RowCheck } from './validate.js';

export function defaultResultsPath(csv: string): string {
  if (csv === '-') return resolve('invite-results.csv');
  const ext = extname(csv);
  // A workbook's results are a workbook.
  return join(dirname(resolve(csv)), `${basename(csv, ext)}.results.${ext.toLowerCase() === '.xlsx' ? 'xlsx' : 'csv'}`);
}

/** Standard input → a temporary file, so the two passes can read it. */
async function spoolStdin(ctx: BulkDeps['ctx']): Promise<{ path: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-invite-'));
  const path = join(dir, 'stdin.csv');
  await pipeline(ctx.io.stdin, createWriteStream(path));
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// What the invite command needs, in one import.
export { formatMapping, formatReport } from './report.js';
export { finishBulk, summaryLine } from './finish.js';

/**
 * A new run into results that belong to another input is refused (exit 2),
 * never a silent replacement: the journal's `begin` names the input of the
 * run that wrote them. Standard input cannot be told apart from another
 * standard input, so a second `--csv -` run into the same results is refused
 * too. The same file run again replaces its own results (rows already sent
 * come back as "exists").
 */
function refuseAnotherInputsResults(begin: JournalBegin, opts: BulkOptions, out: string, journalPath: string): void {
  const input = opts.csv === '-' ? '-' : resolve(opts.csv);
  if (input !== '-' && begin.input === input) return;
  // The results file is gone: there is nothing to replace (the journal keeps its history).
  if (!existsSync(out)) return;
  const theirs = begin.input === '-' ? 'standard input' : begin.input;
  const ours = input === '-' ? 'standard input' : input;
  const same = input === '-' && begin.input === '-' ? ' (one standard input cannot be told from another)' : '';
  throw new UsageError(
    `${out} holds the results of ${theirs}${begin.at ? ` (run ${begin.at})` : ''}${same}; a run of ${ours} into it would replace them. Nothing was sent.`,
    `give this run its own --out, or move ${out} and ${journalPath} away first`,
  );
}

/** How often a run without a terminal says where it is (stderr). */
export const PROGRESS_LINE_MS = 5_000;

export async function runBulkInvite(opts: BulkOptions, deps: BulkDeps): Promise<BulkSummary> {
  const { ctx, api } = deps;
  const started = ctx.io.now().getTime();
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  if (opts.dryRun && (opts.resume || opts.retryFailed)) throw new UsageError(`--dry-run and ${opts.resume ? '--resume' : '--retry-failed'} do not go together.`);
  if (opts.resume && opts.retryFailed) throw new UsageError('--resume and --retry-failed do not go together.', '--retry-failed also finishes an interrupted run');
  const again = Boolean(opts.resume || opts.retryFailed);

  let input = opts.csv;
  let cleanup = () => {};
  if (input === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError('--csv - reads the CSV from standard input, but it is a terminal.', 'pipe a file in: jobfit invite --csv - < people.csv');
  } else {
    if (!existsSync(input)) throw new UsageError(`No such file: ${input}.`);
    if (statSync(input).isDirectory()) throw new UsageError(`${input} is a directory, not a CSV file.`);
  }
  const label = opts.csv === '-' ? 'Standard input' : opts.csv;

  // Where the run writes, checked (and taken) before anything is read or sent.
  const out = resolve(opts.out ?? defaultResultsPath(opts.csv));
  const journalPath = journalPathFor(out);
  let lock: { release(): void } | undefined;
  let journal: JournalState | undefined;
  if (!opts.dryRun) {
    const inputPath = opts.csv === '-' ? undefined : resolve(opts.csv);
    if (inputPath && (out === inputPath || journalPath === inputPath)) {
      throw new UsageError(`--out ${out} is the input CSV itself; writing it would destroy the input.`, 'choose another --out (the default is FILE.results.csv beside the input)');
    }
    checkWritablePath(out, 'results file', inputPath);
    checkWritablePath(journalPath, 'journal', inputPath);
    // One writer per results file and journal: a second run is refused at once, naming the first.
    try {
      lock = acquireLock(out, { command: `jobfit invite --csv ${opts.csv}` });
    } catch (err) {
      if (isFileError(err)) throw new UsageError(`Cannot write the results file ${out}: ${fileErrorCause(err)}; nothing was sent.`, 'choose a writable --out');
      throw err;
    }
  }

  try {
    if (!opts.dryRun) {
      journal = await readJournal(journalPath);
      if (again && !journal.begin) {
        throw new UsageError(`Nothing to ${opts.resume ? 'resume' : 'retry'}: there is no journal at ${journalPath}.`, 'run without --resume to start');
      }
      if (!again && journal.begin) refuseAnotherInputsResults(journal.begin, opts, out, journalPath);
      if (!again && journal.begin && !journal.ended) {
        // It is continued with its own input, which may not be this run's.
        const theirs = journal.begin.input;
        const own = theirs === '-' ? opts.csv === '-' : opts.csv !== '-' && resolve(opts.csv) === theirs;
        throw new UsageError(
          `An earlier run${own ? '' : ` of ${theirs === '-' ? 'standard input' : theirs}`} into ${out} did not finish (journal ${journalPath}); nothing was sent.`,
          `continue it with: ${resumeCommand(own ? opts : { ...opts, csv: theirs }, out)}\n      or choose another --out to start over (rows already sent then come back as "exists")`,
        );
      }
      if (!again) journal = { done: new Map(), inFlight: new Map(), ended: false };
    }
    if (opts.csv === '-') {
      const s = await spoolStdin(ctx);
      input = s.path;
      cleanup = s.cleanup;
    }
    const account = await loadAccountData(api);
    const v = await validatePass(input, label, opts, deps, account, journal);
    const valid = v.rows - v.invalidCount;
    const base: BulkSummary = {
      rows: v.rows,
      valid,
      invalid: v.invalidCount,
      created: 0,
      exists: 0,
      failed: 0,
      notSent: 0,
      unknown: 0,
      sent: 0,
      resumed: 0,
      seconds: 0,
      interrupted: false,
      dryRun: Boolean(opts.dryRun),
      invalidRows: v.invalid,
      mapping: describeMapping(v.mapping, v.validator, account),
      errorsFile: opts.errors ? resolve(opts.errors) : undefined,
    };
    // A dry run too: "0 rows, exit 0" would pass a check that the real run then refuses.
    if (v.rows === 0) throw new UsageError(`${label} has a header but no rows.`, 'add one line per participant under the header');
    if (opts.errors && v.invalidCount > 0) await writeErrorsFile(opts.errors, input, label, v, opts);
    if (opts.dryRun) {
      base.seconds = (ctx.io.now().getTime() - started) / 1000;
      return base;
    }
    if (v.invalidCount > 0 && !opts.skipInvalid) {
      ctx.io.stderr.write(safeText(formatReport(base, label)));
      throw new UsageError(
        `${NUM.format(v.invalidCount)} of ${NUM.format(v.rows)} rows are invalid; nothing was sent.`,
        'fix them, or pass --skip-invalid to send the valid rows only (the invalid ones go to the results file)',
      );
    }
    const prior = journal!;
    checkResumable(prior, journalPath, v);
    const sendable = valid - [...prior.done.values()].filter((o) => o.status !== 'failed').length;
    if (opts.retryFailed) ctx.info(`Retrying: ${NUM.format(Math.max(0, sendable))} rows failed or were not sent in the earlier run.`);
    await guardLive(opts, deps, account, v, Math.max(0, sendable));

    // The results file first: refused (a planted file, a link), it leaves nothing behind, no journal either.
    // (A neutralised cell is first reported by put(), after the journal is open.)
    let jw: JournalWriter;
    const results: ResultsWriter = createResultsWriter(out, v.meta.header, v.meta.delimiter, v.meta.bom, (row, col, text) => jw.cell(row, col, text));
    try {
      jw = new JournalWriter(journalPath);
    } catch (err) {
      await results.close(false);
      throw err;
    }
    try {
      if (again) jw.resume(ctx.io.now().toISOString());
      else jw.begin({ input: opts.csv === '-' ? '-' : resolve(opts.csv), header: v.meta.header, rows: v.rows, at: ctx.io.now().toISOString() });
    } catch (err) {
      await results.close(false);
      if (again) jw.close();
      else jw.remove();
      throw writeFailure(err, jw.path, opts, out, 0);
    }
    const progress = deps.progress?.(v.rows);

    const counts: Record<RowStatus, number> = { created: 0, exists: 0, invalid: 0, failed: 0, not_sent: 0, unknown: 0 };
    let resumed = 0;
    let sent = 0;
    const width = v.meta.header.length;
    const delimiter = v.meta.delimiter;
    const record = (rec: CsvRecord, o: Outcome) => {
      counts[o.status]++;
      results.put(rec.row, fitCells(rec.cells, width, delimiter), o);
      if (o.status !== 'not_sent' && o.status !== 'unknown') progress?.tick({ error: o.status === 'failed' || o.status === 'invalid' });
    };

    const pace = new Pace(concurrency);
    const slots = limiter(() => pace.limit);
    const inflight = new Set<Promise<void>>();
    // Requests in flight when Ctrl-C comes are finished, not aborted: our own signal, not io.signal.
    const hard = new AbortController();
    // Every request in flight listens on it.
    setMaxListeners(0, hard.signal);
    let fatal: unknown;
    let interrupted = false;
    const onAbort = () => {
      interrupted = true;
    };
    ctx.io.signal.addEventListener('abort', onAbort, { once: true });
    if (ctx.io.signal.aborted) interrupted = true;
    const maxWindow = Math.max(2000, concurrency * 64);
    const streakBound = rowBreakerBound(concurrency, ctx.io.env ?? {});
    let streak = 0;
    const onOutcome = (o: Outcome) => {
      if (!o.transient) {
        streak = 0;
        return;
      }
      if (++streak < streakBound || fatal) return;
      fatal = new JobfitError(`The service at ${deps.target.baseUrl} did not answer ${NUM.format(streak)} rows in a row (last: ${String(o.error).replace(/\.$/, '')}); stopped.`, {
        hint: 'check that the service is up; the failed rows are sent again by --resume',
      });
      // The requests still in flight are abandoned (their rows are "unknown": --resume looks them up).
      hard.abort();
    };
    // Without a terminal (no bar), a line every few seconds says the run is alive.
    const ticker =
      ctx.io.stderrIsTTY || ctx.globals.quiet
        ? undefined
        : setInterval(() => {
            const done = counts.created + counts.exists + counts.failed + counts.invalid;
            ctx.io.stderr.write(
              `Inviting: ${NUM.format(done)} of ${NUM.format(v.rows)} rows (${NUM.format(counts.created)} created, ${NUM.format(counts.exists)} exists, ${NUM.format(counts.failed)} failed), ${NUM.format(Math.round(sent / Math.max(0.001, (ctx.io.now().getTime() - started) / 1000)))} rows/s sent.\n`,
            );
          }, opts.progressEveryMs ?? PROGRESS_LINE_MS);
    ticker?.unref();

    try {
      // The rows and their checks: kept from the validation pass, or read again.
      async function* checkedRows(): AsyncGenerator<Array<{ rec: CsvRecord; r: RowCheck }>> {
        if (v.kept) {
          yield v.kept;
          return;
        }
        for await (const batch of readInputBatches(input, label, () => {}, { sheet: opts.sheet })) yield batch.map((rec) => ({ rec, r: checkRow(v, rec, false) }));
      }
      let stopping = false;
      for await (const batch of checkedRows()) for (const { rec, r } of batch) {
        if ((interrupted || fatal) && !stopping) {
          // Stop sending; the rest of the file is still written (recorded outcomes, or "not_sent").
          stopping = true;
          await Promise.all(inflight);
          progress?.stop();
        }
        if (results.failed) throw results.failed;
        const done = prior.done.get(rec.row);
        if (!r.ok) {
          record(rec, { status: 'invalid', error: r.errors.map((e) => `${e.field}: ${e.reason}`).join('; ') });
          continue;
        }
        if (done && done.status !== 'failed') {
          resumed++;
          record(rec, done);
          continue;
        }
        if (stopping) {
          record(rec, prior.inFlight.has(rec.row) ? UNANSWERED : NOT_SENT);
          continue;
        }
        // Wait for a slot (and keep the out-of-order window bounded).
        let release = await slots.acquire();
        while (results.window > maxWindow && inflight.size > 0) {
          release();
          await Promise.race(inflight);
          release = await slots.acquire();
        }
        const held = release;
        if (interrupted || fatal) {
          held();
          stopping = true;
          await Promise.all(inflight);
          progress?.stop();
          record(rec, prior.inFlight.has(rec.row) ? UNANSWERED : NOT_SENT);
          continue;
        }
        const body = r.body as unknown as Record<string, unknown>;
        const ask: RowAsk = { email: r.email, first: String(body.first_name ?? ''), last: String(body.last_name ?? ''), teamId: r.teamId };
        const wasInFlight = prior.inFlight.has(rec.row);
        let journalled = wasInFlight;
        const task = (async () => {
          let o: Outcome | undefined;
          if (wasInFlight) o = await resolveInFlight(api, ask, hard.signal);
          if (!o) {
            // No request leaves without its "send" line on disk (a full disk stops the run here).
            jw.sending([{ row: rec.row, email: r.email }]);
            journalled = true;
            sent++;
            o = await sendRow(api, body, ask, pace, hard.signal);
          } else resumed++;
          onOutcome(o);
          jw.done(rec.row, r.email, o);
          record(rec, o);
        })()
          .catch((err) => {
            fatal ??= err;
            // The row's outcome is not known (or it never left): --resume settles it.
            if (!results.failed) record(rec, journalled ? UNANSWERED : NOT_SENT);
          })
          .finally(() => {
            held();
            inflight.delete(task);
          });
        inflight.add(task);
      }
      await Promise.all(inflight);
    } catch (err) {
      fatal ??= err;
      await Promise.all(inflight);
    } finally {
      if (ticker) clearInterval(ticker);
      ctx.io.signal.removeEventListener('abort', onAbort);
      progress?.stop();
      const complete = !interrupted && !fatal && counts.not_sent + counts.unknown === 0 && results.written === v.rows;
      try {
        await results.close(!results.failed);
      } catch (err) {
        fatal ??= err;
      }
      try {
        if (complete && !fatal) jw.end(ctx.io.now().toISOString(), { ...counts });
      } catch (err) {
        fatal ??= err;
      }
      try {
        jw.close();
      } catch (err) {
        fatal ??= err;
      }
    }

    const summary: BulkSummary = {
      ...base,
      created: counts.created,
      exists: counts.exists,
      failed: counts.failed,
      notSent: counts.not_sent + counts.unknown,
      unknown: counts.unknown,
      sent,
      resumed,
      seconds: (ctx.io.now().getTime() - started) / 1000,
      results: out,
      journal: journalPath,
      interrupted: interrupted && !fatal,
    };
    if (fatal) {
      if (isFileError(fatal)) {
        const file = jw.failed ? jw.path : results.failed ? out : ((fatal as NodeJS.ErrnoException).path ?? out);
        throw writeFailure(fatal, file, opts, out, sent);
      }
      if (fatal instanceof JobfitError) {
        ctx.io.stderr.write(`${summaryLine(summary)}\nStopped. Results: ${safeLine(out)} (journal ${safeLine(journalPath)}). Resume with:\n  ${resumeCommand(opts, out)}\n`);
      }
      throw fatal;
    }
    return summary;
  } finally {
    lock?.release();
    cleanup();
  }
}

export type { Outcome, RowStatus };
