/**
 * The sending stage of a bulk run (run.ts is the pipeline): every checked
 * row, in file order, is recorded as invalid, resumed from the journal, or
 * sent with bounded concurrency; Ctrl-C finishes the rows in flight and
 * records the rest as not sent; a service that stops answering trips the
 * row breaker. What it decides per row lives here as named rules
 * (RowBreaker, rowAsk, invalidOutcome, progressLine, keepLostRows).
 */
import { setMaxListeners } from 'node:events';
import { JobfitError } from '../core/errors.js';
import { limiter } from '../core/pool.js';
import { NUM } from '../format/number.js';
import { safeLine } from '../format/sanitize.js';
import { againOptions, checkRow, fitCells, type Validated } from './check.js';
import { isFileError } from './output-files.js';
import { resumeCommand, bulkSummaryLine, writeFailure } from './finish.js';
import { readInputBatches } from './input.js';
import type { JournalState, JournalWriter, RowOutcome, RowStatus } from './journal.js';
import type { CsvRecord } from './reader.js';
import type { ResultsWriter } from './results.js';
import { Pace } from './row-retry.js';
import { CreatedBatch } from './confirm-batch.js';
import { NOT_SENT, resolveInFlight, type RowAsk, rowBreakerBound, sendRow, UNANSWERED } from './send.js';
import type { BulkDeps, BulkRunOptions, BulkSummary, ProgressLike } from './types.js';
import type { RowCheck } from './row-check.js';

/** How often a run without a terminal says where it is (stderr). */
export const PROGRESS_LINE_MS = 5_000;

type Counts = Record<RowStatus, number>;
/** A row the earlier run recorded. */
type Done = RowOutcome & { email: string };

/**
 * Rows the service did not answer, one after another (a transient failure
 * through every retry): at `bound` in a row the run stops. Any other outcome
 * starts the count again.
 */
export class RowBreaker {
  streak = 0;
  constructor(private readonly bound: number) {}

  /** Counts an outcome; true when the streak has reached the bound. */
  trips(o: RowOutcome): boolean {
    if (!o.transient) {
      this.streak = 0;
      return false;
    }
    return ++this.streak >= this.bound;
  }
}

/** What a valid row asks the service for, to tell its own invitation from someone else's (send.ts). */
export function rowAsk(r: Extract<RowCheck, { ok: true }>): RowAsk {
  const body = r.body as unknown as Record<string, unknown>;
  return { email: r.email, first: String(body.first_name ?? ''), last: String(body.last_name ?? ''), teamId: r.teamId };
}

/** An invalid row's outcome: its reasons, `field: reason` joined by `; `. */
export function invalidOutcome(errors: ReadonlyArray<{ field: string; reason: string }>): RowOutcome {
  return { status: 'invalid', error: errors.map((e) => `${e.field}: ${e.reason}`).join('; ') };
}

/** The line a run without a terminal writes every few seconds. */
export function progressLine(counts: Counts, rows: number, sent: number, seconds: number): string {
  const done = counts.created + counts.exists + counts.failed + counts.invalid;
  return `Inviting: ${NUM.format(done)} of ${NUM.count(rows, 'row')} (${NUM.format(counts.created)} created, ${NUM.format(counts.exists)} exists, ${NUM.format(counts.failed)} failed), ${NUM.format(Math.round(sent / Math.max(0.001, seconds)))} rows/s sent.\n`;
}

/**
 * A --resume of a file that lost rows at its end: the rows the earlier run
 * sent (or was sending) past the new end keep their results, after the
 * file's own rows, with the email the journal has; never dropped without a
 * word. Returns how many were kept.
 */
export function keepLostRows(prior: JournalState, v: Pick<Validated, 'rows' | 'mapping'>, results: Pick<ResultsWriter, 'put'>, width: number): number {
  const past = new Set<number>();
  for (const row of prior.done.keys()) if (row > v.rows) past.add(row);
  for (const row of prior.inFlight.keys()) if (row > v.rows) past.add(row);
  const emailCol = v.mapping.index.email;
  let next = v.rows + 1;
  for (const row of [...past].sort((a, b) => a - b)) {
    const done = prior.done.get(row);
    const email = done?.email ?? prior.inFlight.get(row) ?? '';
    const cells: string[] = Array(width).fill('');
    if (emailCol !== undefined && emailCol < width) cells[emailCol] = email;
    const o: RowOutcome = done
      ? { status: done.status, id: done.id, url: done.url, error: done.error }
      : { status: 'unknown', error: `sent by the earlier run as row ${row}, which is no longer in the file; check with \`jobfit invitations list --email ${email}\`` };
    // The row number is the earlier run's, so the line says which row it was.
    results.put(next++, cells, { ...o, error: o.error ?? `row ${row} of the earlier run, no longer in the file` });
  }
  return past.size;
}

/** What the sending stage is given: the run's options and seams, the validation pass, the earlier run's journal and the files it writes. */
export interface SendingSetup {
  opts: BulkRunOptions;
  deps: BulkDeps;
  v: Validated;
  prior: JournalState;
  /** The file read again when the validation pass did not keep the rows (standard input's spool). */
  input: string;
  label: string;
  concurrency: number;
  /** When the run started (ms), for the rate. */
  started: number;
  results: ResultsWriter;
  journal: JournalWriter;
  out: string;
  journalPath: string;
}

/** One sending pass over the checked rows; run() then finish(). */
export class SendingPass {
  readonly counts: Counts = { created: 0, exists: 0, invalid: 0, failed: 0, not_sent: 0, unknown: 0 };
  resumed = 0;
  sent = 0;
  /** Rows the earlier run sent that are past the end of the file now (a shortened CSV): kept in the results. */
  lost = 0;
  /** Where the assessment links point (the command says when nothing serves them there). */
  linkOrigin: string | undefined;
  fatal: unknown;
  interrupted = false;
  private stopping = false;
  private readonly inflight = new Set<Promise<void>>();
  // Requests in flight when Ctrl-C comes are finished, not aborted: our own signal, not io.signal.
  private readonly hard = new AbortController();
  private readonly pace: Pace;
  private readonly slots: ReturnType<typeof limiter>;
  private readonly breaker: RowBreaker;
  private readonly maxWindow: number;
  private readonly progress: ProgressLike | undefined;
  /** The 201s' ids confirmed in batches (undefined at a concurrency too high for a batch to pay). */
  private readonly batch: CreatedBatch | undefined;

  constructor(private readonly s: SendingSetup) {
    this.batch = CreatedBatch.forRun(s.deps.api, s.concurrency);
    this.progress = s.deps.progress?.(s.v.rows);
    this.pace = new Pace(s.concurrency);
    this.slots = limiter(() => this.pace.limit);
    // Every request in flight listens on it.
    setMaxListeners(0, this.hard.signal);
    this.maxWindow = Math.max(2000, s.concurrency * 64);
    this.breaker = new RowBreaker(rowBreakerBound(s.concurrency, s.deps.ctx.io.env ?? {}));
  }

  /** Every row to its outcome, then the files closed (the journal ended when the run is complete). */
  async run(): Promise<void> {
    const { io } = this.s.deps.ctx;
    const onAbort = () => {
      this.interrupted = true;
    };
    io.signal.addEventListener('abort', onAbort, { once: true });
    if (io.signal.aborted) this.interrupted = true;
    const ticker = this.startTicker();
    try {
      for await (const batch of this.checkedRows()) for (const { rec, r } of batch) await this.row(rec, r);
      await Promise.all(this.inflight);
      if (!this.stopping) this.lost = keepLostRows(this.s.prior, this.s.v, this.s.results, this.s.v.meta.header.length);
    } catch (err) {
      this.fatal ??= err;
      await Promise.all(this.inflight);
    } finally {
      if (ticker) clearInterval(ticker);
      io.signal.removeEventListener('abort', onAbort);
      this.progress?.stop();
      await this.closeFiles();
    }
  }

  /** The run's summary; a run that stopped on an error throws it (after saying how to resume). */
  finish(base: BulkSummary): BulkSummary {
    const { ctx } = this.s.deps;
    const { counts, lost, s } = this;
    const summary: BulkSummary = {
      ...base,
      created: counts.created,
      exists: counts.exists,
      failed: counts.failed,
      notSent: counts.not_sent + counts.unknown,
      unknown: counts.unknown,
      sent: this.sent,
      resumed: this.resumed,
      seconds: (ctx.io.now().getTime() - s.started) / 1000,
      results: s.out,
      journal: s.journalPath,
      interrupted: this.interrupted && !this.fatal,
      linkOrigin: this.linkOrigin,
    };
    if (lost > 0) {
      ctx.warn(
        `${s.label} has ${NUM.format(s.v.rows)} rows, fewer than the earlier run's ${NUM.format(s.prior.begin?.rows ?? s.v.rows + lost)}: the results of the ${NUM.format(lost)} row${lost === 1 ? '' : 's'} it sent past the end are kept at the end of ${s.out} (their email, status and invitation id; the other cells are no longer in the file).`,
      );
    }
    const fatal = this.fatal;
    if (!fatal) return summary;
    if (isFileError(fatal)) {
      const file = s.journal.failed ? s.journal.path : s.results.failed ? s.out : ((fatal as NodeJS.ErrnoException).path ?? s.out);
      throw writeFailure(fatal, file, s.opts, s.out, this.sent);
    }
    if (fatal instanceof JobfitError) {
      ctx.io.stderr.write(`${bulkSummaryLine(summary)}\nStopped. Results: ${safeLine(s.out)} (journal ${safeLine(s.journalPath)}). Resume with:\n  ${resumeCommand(s.opts, s.out)}\n`);
    }
    throw fatal;
  }

  /** Without a terminal (no bar), a line every few seconds says the run is alive. */
  private startTicker(): ReturnType<typeof setInterval> | undefined {
    const { ctx } = this.s.deps;
    if (ctx.io.stderrIsTTY || ctx.globals.quiet) return undefined;
    const ticker = setInterval(() => {
      ctx.io.stderr.write(progressLine(this.counts, this.s.v.rows, this.sent, (ctx.io.now().getTime() - this.s.started) / 1000));
    }, this.s.opts.progressEveryMs ?? PROGRESS_LINE_MS);
    ticker.unref();
    return ticker;
  }

  /** The rows and their checks: kept from the validation pass, or read again. */
  private async *checkedRows(): AsyncGenerator<Array<{ rec: CsvRecord; r: RowCheck }>> {
    const { v, input, label, opts } = this.s;
    if (v.kept) {
      yield v.kept;
      return;
    }
    for await (const batch of readInputBatches(input, label, () => {}, againOptions(v, opts))) yield batch.map((rec) => ({ rec, r: checkRow(v, rec, false) }));
  }

  private record(rec: CsvRecord, o: RowOutcome): void {
    this.counts[o.status]++;
    if (this.linkOrigin === undefined && o.url && URL.canParse(o.url)) this.linkOrigin = new URL(o.url).origin;
    const { meta } = this.s.v;
    this.s.results.put(rec.row, fitCells(rec.cells, meta.header.length, meta.delimiter), o);
    if (o.status !== 'not_sent' && o.status !== 'unknown') this.progress?.tick({ error: o.status === 'failed', invalid: o.status === 'invalid' });
  }

  /** A row the run stopped before: "unknown" when the earlier run had it in flight, else "not_sent". */
  private unsent(rec: CsvRecord): RowOutcome {
    return this.s.prior.inFlight.has(rec.row) ? UNANSWERED : NOT_SENT;
  }

  /** Stop sending; the rest of the file is still written (recorded outcomes, or "not_sent"). */
  private async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.inflight);
    this.progress?.stop();
  }

  /** One row: recorded as it is, or launched (returns once it holds a slot). */
  private async row(rec: CsvRecord, r: RowCheck): Promise<void> {
    if ((this.interrupted || this.fatal) && !this.stopping) await this.stop();
    const { results, prior } = this.s;
    if (results.failed) throw results.failed;
    const done = prior.done.get(rec.row);
    if (!r.ok) return this.record(rec, invalidOutcome(r.errors));
    // An earlier run's row left "unknown" (a 201 without an id) is looked up again below, never sent again.
    if (done && done.status !== 'failed' && done.status !== 'unknown') {
      this.resumed++;
      return this.record(rec, done);
    }
    if (this.stopping) return this.record(rec, this.unsent(rec));
    const held = await this.slot();
    if (this.interrupted || this.fatal) {
      held();
      await this.stop();
      return this.record(rec, this.unsent(rec));
    }
    this.launch(rec, r, done, held);
  }

  /** Wait for a slot (and keep the out-of-order window bounded). */
  private async slot(): Promise<() => void> {
    let release = await this.slots.acquire();
    while (this.s.results.window > this.maxWindow && this.inflight.size > 0) {
      release();
      await Promise.race(this.inflight);
      release = await this.slots.acquire();
    }
    return release;
  }

  /** Sends a row (or looks up the earlier run's), in flight until it has an outcome. */
  private launch(rec: CsvRecord, r: Extract<RowCheck, { ok: true }>, done: Done | undefined, held: () => void): void {
    const { deps, prior, journal, results } = this.s;
    const ask = rowAsk(r);
    const wasInFlight = prior.inFlight.has(rec.row);
    const answered = done?.status === 'unknown' ? done : undefined;
    let journalled = wasInFlight || answered !== undefined;
    const task = (async () => {
      let o: RowOutcome | undefined;
      if (wasInFlight || answered) o = await resolveInFlight(deps.api, ask, this.hard.signal);
      // The service answered 201 for it: made, never sent again, still unknown when not found.
      if (!o && answered) o = answered;
      if (!o) {
        // No request leaves without its "send" line on disk (a full disk stops the run here).
        journal.sending([{ row: rec.row, email: r.email }]);
        journalled = true;
        this.sent++;
        o = await sendRow(deps.api, r.body, ask, this.pace, this.hard.signal, this.batch && { check: this.batch.check, answered: held });
      } else this.resumed++;
      this.onOutcome(o);
      journal.done(rec.row, r.email, o);
      this.record(rec, o);
    })()
      .catch((err) => {
        this.fatal ??= err;
        // The row's outcome is not known (or it never left): --resume settles it.
        if (!results.failed) this.record(rec, journalled ? UNANSWERED : NOT_SENT);
      })
      .finally(() => {
        held();
        this.inflight.delete(task);
      });
    this.inflight.add(task);
  }

  private onOutcome(o: RowOutcome): void {
    if (!this.breaker.trips(o) || this.fatal) return;
    this.fatal = new JobfitError(`The service at ${this.s.deps.target.baseUrl} did not answer ${NUM.format(this.breaker.streak)} rows in a row (last: ${String(o.error).replace(/\.$/, '')}); stopped.`, {
      hint: 'check that the service is up; the failed rows are sent again by --resume',
    });
    // The requests still in flight are abandoned (their rows are "unknown": --resume looks them up).
    this.hard.abort();
  }

  /** The results file renamed into place, the journal ended when every row has its outcome, then closed. */
  private async closeFiles(): Promise<void> {
    const { results, journal, v, deps } = this.s;
    const c = this.counts;
    const complete = !this.interrupted && !this.fatal && c.not_sent + c.unknown === 0 && results.written === v.rows + this.lost;
    try {
      await results.close(!results.failed);
    } catch (err) {
      this.fatal ??= err;
    }
    try {
      if (complete && !this.fatal) journal.end(deps.ctx.io.now().toISOString(), { ...c });
    } catch (err) {
      this.fatal ??= err;
    }
    try {
      journal.close();
    } catch (err) {
      this.fatal ??= err;
    }
  }
}
