/**
 * Bulk invite: parse (stream) → map columns → validate every row → (dry run
 * stops here) → confirm in live mode → send with bounded concurrency →
 * journal → results file in input order.
 *
 * The file is read twice (validation, then sending) rather than held in
 * memory; standard input is first spooled to a temporary file for that.
 *
 * This file is the pipeline, as named stages: what needs no service first
 * (prepareRun: the options and the input checked, the results claimed
 * (claimResults), the journal planned (planRun), the input's header and
 * first rows read (head.ts)),
 * the validation pass (check.ts), the live guard (live-guard.ts), the files
 * opened (openRunFiles), the sending stage (sending.ts; one row in send.ts,
 * with the row retry of retry.ts), what is written (journal.ts, results.ts)
 * and finish.ts (the summary, the exit and the resume command).
 */
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../core/errors.js';
import { INPUT_MAX_BYTES, tooLarge } from '../core/input.js';
import { acquireLock } from '../core/lock.js';
import { NUM } from '../format/number.js';
import { safeText } from '../format/sanitize.js';
import { loadAccountData } from './account.js';
import { checkResumable, validatePass, type Validated, writeErrorsFile } from './check.js';
import { parseMaps } from './columns.js';
import { checkWritablePath, fileErrorCause, isFileError, theInputItself } from './output-files.js';
import { type InputHead, readHead } from './head.js';
import { checkInputKind } from './input.js';
import { resumeCommand, writeFailure } from './finish.js';
import { type JournalBegin, journalPathFor, type JournalState, JournalWriter, type RowOutcome, readJournal, type RowStatus } from './journal.js';
import { guardLive } from './live-guard.js';
import { describeMapping, formatReport } from './report.js';
import type { ResultsWriter } from './results.js';
import { SendingPass } from './sending.js';
import { type BulkDeps, type BulkRunOptions, type BulkSummary, DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './types.js';
import { phoneCountryFlag, sendViaFlag } from './row-defaults.js';
import { createResultsWriter } from './xlsx-results.js';

export function defaultResultsPath(csv: string): string {
  if (csv === '-') return resolve('invite-results.csv');
  const ext = extname(csv);
  // A workbook's results are a workbook.
  return join(dirname(resolve(csv)), `${basename(csv, ext)}.results.${ext.toLowerCase() === '.xlsx' ? 'xlsx' : 'csv'}`);
}

/**
 * Standard input → a temporary file, so the two passes can read it. Bounded
 * as every other standard input (INPUT_MAX_BYTES, refused with a sentence);
 * Ctrl-C and SIGTERM end the copy at once; the file (0600, in a 0700 folder
 * of its own) is removed on every way out: a refusal, an interruption, the
 * run's end (release), and the process exiting (a second Ctrl-C) before any.
 */
async function spoolStdin(ctx: BulkDeps['ctx']): Promise<{ path: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-invite-'));
  const path = join(dir, 'stdin.csv');
  const cleanup = () => {
    process.off('exit', cleanup);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  let size = 0;
  const bound = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > INPUT_MAX_BYTES ? tooLarge('Standard input') : null, chunk);
    },
  });
  try {
    await pipeline(ctx.io.stdin, bound, createWriteStream(path, { flags: 'wx', mode: 0o600 }), { signal: ctx.io.signal });
  } catch (err) {
    cleanup();
    if (ctx.io.signal.aborted) throw ctx.io.signal.reason;
    throw err;
  }
  return { path, cleanup };
}

// What the invite command needs, in one import.
export { formatMapping, formatReport } from './report.js';
export { finishBulk, bulkSummaryLine } from './finish.js';

/**
 * A new run into results that belong to another input is refused (exit 2),
 * never a silent replacement: the journal's `begin` names the input of the
 * run that wrote them. Standard input cannot be told apart from another
 * standard input, so a second `--csv -` run into the same results is refused
 * too. The same file run again replaces its own results (rows already sent
 * come back as "exists").
 */
function refuseAnotherInputsResults(begin: JournalBegin, opts: BulkRunOptions, out: string, journalPath: string): void {
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

/**
 * What a run settles before it connects: every check that needs no service
 * (the options, the input, the files it writes and their journal, the
 * input's header and first rows: head.ts), the results claimed (the lock)
 * and standard input spooled. `jobfit invite`
 * prepares before its first ctx.client(), so a refusal starts no embedded
 * stub and resolves no key; runBulkInvite prepares itself when not given one.
 * release() (once is enough; runBulkInvite calls it) lets go of the reader,
 * the lock and the spooled input. `known.haveInviter: false` (the caller
 * knows neither --created-by nor a profile default names one) refuses a file
 * without a created_by column here too.
 */
export interface PreparedRun {
  concurrency: number;
  label: string;
  /** The file read: the input, or standard input spooled. */
  input: string;
  /** Its header and first rows, read (the validation pass goes on from there). */
  head: InputHead;
  out: string;
  journalPath: string;
  /** The journal this run continues or begins (undefined for --dry-run). */
  journal?: JournalState;
  /** Milliseconds preparing took: counted in the run's seconds, as before the split. */
  tookMs: number;
  release(): void;
}

export async function prepareRun(opts: BulkRunOptions, ctx: BulkDeps['ctx'], known: { haveInviter?: boolean } = {}): Promise<PreparedRun> {
  const started = ctx.io.now().getTime();
  const concurrency = checkRunOptions(opts);
  checkInputPath(opts, ctx);
  checkFlagValues(opts);
  const label = opts.csv === '-' ? 'Standard input' : opts.csv;
  // Where the run writes, checked (and taken) before anything is read or sent.
  const out = resolve(opts.out ?? defaultResultsPath(opts.csv));
  const journalPath = journalPathFor(out);
  if (opts.errors !== undefined) checkErrorsPath(opts, out, journalPath);
  const lock = opts.dryRun ? undefined : claimResults(opts, out, journalPath);
  let cleanup = () => {};
  let head: InputHead | undefined;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    head?.close();
    lock?.release();
    cleanup();
  };
  try {
    const journal = opts.dryRun ? undefined : planRun(await readJournal(journalPath), opts, out, journalPath);
    let input = opts.csv;
    if (opts.csv === '-') ({ path: input, cleanup } = await spoolStdin(ctx));
    // The formats refused by their first bytes (.xls, .ods, a password), and --sheet for a CSV.
    checkInputKind(input, label, opts.sheet);
    // The header and the first rows (head.ts): empty, not UTF-8, no such sheet, the columns, no rows.
    head = await readHead(input, label, { sheet: opts.sheet, headerRow: opts.headerRow }, parseMaps(opts.maps), (t) => ctx.info(safeText(t)), known.haveInviter ?? true);
    // A resume of a file with other columns than the interrupted run's.
    if (journal) checkResumable(journal, journalPath, head.meta);
    return { concurrency, label, input, head, out, journalPath, journal, tookMs: ctx.io.now().getTime() - started, release };
  } catch (err) {
    release();
    throw err;
  }
}

export async function runBulkInvite(opts: BulkRunOptions, deps: BulkDeps, prepared?: PreparedRun): Promise<BulkSummary> {
  const { ctx, api } = deps;
  const p = prepared ?? (await prepareRun(opts, ctx));
  const started = ctx.io.now().getTime() - p.tookMs;
  const { concurrency, label, input, out, journalPath, journal } = p;
  try {
    const account = await loadAccountData(api);
    // A header with no rows was refused with the head (head.ts).
    const v = await validatePass(p.head, opts, deps, account, journal);
    const base = baseSummary(v, opts, describeMapping(v.mapping, v.validator, account, v.meta));
    if (opts.errors && v.invalidCount > 0) await writeErrorsFile(opts.errors, input, label, v, opts);
    if (opts.dryRun) return { ...base, seconds: (ctx.io.now().getTime() - started) / 1000 };
    refuseInvalidRows(base, opts, label, ctx);
    const prior = journal!;
    const sendable = Math.max(0, sendableRows(prior, base.valid));
    if (opts.retryFailed) ctx.info(`Retrying: ${NUM.count(sendable, 'row')} that failed or ${sendable === 1 ? 'was' : 'were'} not sent in the earlier run.`);
    await guardLive(opts, deps, account, v, sendable);
    const files = await openRunFiles(opts, v, out, journalPath, ctx.io.now().toISOString());
    const pass = new SendingPass({ opts, deps, v, prior, input, label, concurrency, started, ...files, out, journalPath });
    await pass.run();
    return pass.finish(base);
  } finally {
    p.release();
  }
}

/** The flags read without the account (--map, --header-row, --phone-country, --send-via): refused before anything connects. */
function checkFlagValues(opts: BulkRunOptions): void {
  parseMaps(opts.maps);
  if (opts.headerRow !== undefined && !(Number.isInteger(opts.headerRow) && opts.headerRow >= 1)) throw new UsageError('--header-row must be a line number from 1.');
  if (opts.phoneCountry) phoneCountryFlag(opts.phoneCountry);
  if (opts.sendVia) sendViaFlag(opts.sendVia);
}

/** The options that do not go together, and the concurrency (returned): refused before anything is read. */
export function checkRunOptions(opts: Pick<BulkRunOptions, 'concurrency' | 'dryRun' | 'resume' | 'retryFailed'>): number {
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  if (opts.dryRun && (opts.resume || opts.retryFailed)) throw new UsageError(`--dry-run and ${opts.resume ? '--resume' : '--retry-failed'} do not go together.`);
  if (opts.resume && opts.retryFailed) throw new UsageError('--resume and --retry-failed do not go together.', '--retry-failed also finishes an interrupted run');
  return concurrency;
}

/** The input exists and is a file; standard input is not a terminal. */
function checkInputPath(opts: BulkRunOptions, ctx: BulkDeps['ctx']): void {
  const input = opts.csv;
  if (input === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError('--csv - reads the file from standard input, but it is a terminal.', 'pipe a file in: jobfit invite --csv - < people.csv');
    return;
  }
  if (!existsSync(input)) throw new UsageError(`No such file: ${input}.`);
  if (statSync(input).isDirectory()) throw new UsageError(`${input} is a directory, not a CSV file or a workbook.`);
}

/**
 * The --errors file, refused before the first request although it is written
 * only when rows are invalid: not the input, not the results or the journal
 * of a run that writes them (one would replace the other), and a path the
 * run may write (files.ts).
 */
function checkErrorsPath(opts: BulkRunOptions, out: string, journalPath: string): void {
  const file = resolve(opts.errors!);
  if (!opts.dryRun && (file === out || file === journalPath)) {
    const which = file === out ? 'the results file' : 'the journal';
    throw new UsageError(`--errors ${file} is ${which} of this run; the one would replace the other.`, 'give --errors a file of its own');
  }
  checkWritablePath(file, 'errors file', opts.csv === '-' ? undefined : resolve(opts.csv));
}

/** The results file and the journal: never the input, writable, and this run's alone (the lock, returned). */
function claimResults(opts: BulkRunOptions, out: string, journalPath: string): { release(): void } {
  const inputPath = opts.csv === '-' ? undefined : resolve(opts.csv);
  if (inputPath && (out === inputPath || journalPath === inputPath)) {
    throw theInputItself(`--out ${out}`);
  }
  checkWritablePath(out, 'results file', inputPath);
  checkWritablePath(journalPath, 'journal', inputPath);
  // One writer per results file and journal: a second run is refused at once, naming the first.
  try {
    return acquireLock(out, { command: `jobfit invite --csv ${opts.csv}` });
  } catch (err) {
    if (isFileError(err)) throw new UsageError(`Cannot write the results file ${out}: ${fileErrorCause(err)}; nothing was sent.`, 'choose a writable --out');
    throw err;
  }
}

/**
 * What the journal at the results' side says this run is: a --resume or
 * --retry-failed continues it (there must be one); a new run starts from an
 * empty one, refused when the results are another input's or when an
 * earlier run into them did not finish (it says how to continue that one).
 */
export function planRun(journal: JournalState, opts: BulkRunOptions, out: string, journalPath: string): JournalState {
  const again = Boolean(opts.resume || opts.retryFailed);
  if (again) {
    if (!journal.begin) throw new UsageError(`Nothing to ${opts.resume ? 'resume' : 'retry'}: there is no journal at ${journalPath}.`, 'run without --resume to start');
    return journal;
  }
  if (journal.begin) refuseAnotherInputsResults(journal.begin, opts, out, journalPath);
  if (journal.begin && !journal.ended) {
    // It is continued with its own input, which may not be this run's.
    const theirs = journal.begin.input;
    const own = theirs === '-' ? opts.csv === '-' : opts.csv !== '-' && resolve(opts.csv) === theirs;
    throw new UsageError(
      `An earlier run${own ? '' : ` of ${theirs === '-' ? 'standard input' : theirs}`} into ${out} did not finish (journal ${journalPath}); nothing was sent.`,
      `continue it with: ${resumeCommand(own ? opts : { ...opts, csv: theirs }, out)}\n      or choose another --out to start over (rows already sent then come back as "exists")`,
    );
  }
  return { done: new Map(), inFlight: new Map(), ended: false };
}

/** The summary of the validation pass (what a dry run reports); the sending stage fills in the rest. */
export function baseSummary(v: Pick<Validated, 'rows' | 'invalidCount' | 'invalid'>, opts: Pick<BulkRunOptions, 'dryRun' | 'errors'>, mapping: BulkSummary['mapping']): BulkSummary {
  return {
    rows: v.rows,
    valid: v.rows - v.invalidCount,
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
    mapping,
    errorsFile: opts.errors ? resolve(opts.errors) : undefined,
  };
}

/** A live run with invalid rows sends nothing unless --skip-invalid: the report, then the refusal. */
function refuseInvalidRows(base: BulkSummary, opts: BulkRunOptions, label: string, ctx: BulkDeps['ctx']): void {
  if (base.invalid === 0 || opts.skipInvalid) return;
  ctx.io.stderr.write(safeText(formatReport(base, label)));
  throw new UsageError(
    `${NUM.format(base.invalid)} of ${NUM.count(base.rows, 'row')} ${base.invalid === 1 ? 'is' : 'are'} invalid; nothing was sent.`,
    'fix them, or pass --skip-invalid to send the valid rows only (the invalid ones go to the results file)',
  );
}

/** The valid rows this run may send: those the earlier run did not settle (failed rows are sent again). */
export function sendableRows(prior: Pick<JournalState, 'done'>, valid: number): number {
  return valid - [...prior.done.values()].filter((o) => o.status !== 'failed').length;
}

/**
 * The results file, then the journal (begun, or resumed). The results file
 * first: refused (a planted file, a link), it leaves nothing behind, no
 * journal either. (A neutralised cell is first reported by put(), after the
 * journal is open.)
 */
async function openRunFiles(opts: BulkRunOptions, v: Validated, out: string, journalPath: string, now: string): Promise<{ results: ResultsWriter; journal: JournalWriter }> {
  const again = Boolean(opts.resume || opts.retryFailed);
  let jw: JournalWriter;
  const results: ResultsWriter = createResultsWriter(out, v.meta.header, v.meta.delimiter, v.meta.bom, (row, col, text) => jw.cell(row, col, text));
  try {
    jw = new JournalWriter(journalPath);
  } catch (err) {
    await results.close(false);
    throw err;
  }
  try {
    if (again) jw.resume(now);
    else jw.begin({ input: opts.csv === '-' ? '-' : resolve(opts.csv), header: v.meta.header, rows: v.rows, at: now });
  } catch (err) {
    await results.close(false);
    if (again) jw.close();
    else jw.remove();
    throw writeFailure(err, jw.path, opts, out, 0);
  }
  return { results, journal: jw };
}

export type { RowOutcome, RowStatus };
