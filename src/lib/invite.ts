/**
 * bulkInvite for programs: rows as objects instead of a CSV file. The rows go
 * through the same pipeline as `jobfit invite --csv` (src/bulk/run.ts: column
 * names and their aliases, every row checked against the account before the
 * first is sent, bounded concurrency, duplicates found by email and never sent
 * twice), fed through a private temporary directory that holds the CSV, the
 * results file and the journal of the run, and is removed at the end.
 */
import { Readable } from 'node:stream';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobfitClient } from '../client/index.js';
import { createIO } from '../core/io.js';
import { JobfitError, UsageError } from '../core/errors.js';
import type { Session } from '../core/session.js';
import type { BulkDeps, BulkRunOptions } from '../bulk/types.js';

/** A cell: text, a number, a yes/no, a list (assessments: joined by `;`), or nothing. */
export type InviteCell = string | number | boolean | null | undefined | readonly string[];

/**
 * One participant. Keys are column names, read as a CSV header is: `email`,
 * `first_name`, `last_name` (or `full_name`), `phone`, `team` (id or name),
 * `assessments` (ids or names), `email_template`, `send_via`, `custom_id`,
 * `person_id`, `ref_text`, `created_by_user_email`, and the common spellings of
 * each ("First Name", "E-mail", ...). Other keys are ignored.
 */
export type InviteRow = Readonly<Record<string, InviteCell>>;

export type InviteStatus = 'created' | 'exists' | 'invalid' | 'failed' | 'not_sent' | 'unknown';

export interface InviteRowResult {
  /** Position of the row in the array given (0-based). */
  index: number;
  /**
   * created: invited now. exists: this person was already invited on this team
   * (by an earlier run), nothing sent. invalid: the row failed its checks, not
   * sent. failed: the service refused it (see error). not_sent: the run stopped
   * (signal) before it. unknown: sent, but the run stopped before the answer.
   */
  status: InviteStatus;
  invitationId?: number;
  assessmentUrl?: string;
  /** Why the row is invalid or failed. */
  error?: string;
}

export interface BulkInviteResult {
  created: number;
  exists: number;
  invalid: number;
  failed: number;
  /** not_sent and unknown rows. */
  notSent: number;
  /** The signal stopped the run: rows in flight were finished, the rest not sent. */
  interrupted: boolean;
  seconds: number;
  /** One per row given, in the same order. */
  rows: InviteRowResult[];
}

/** What a row's cells default to when they are empty (as the CLI's flags). */
export interface InviteDefaults {
  /** Team id or name. */
  team?: string | number;
  /** Assessment ids or names, e.g. `['personality', 'thinking']`. */
  assessments?: string | readonly string[];
  /** Email template id or name. */
  template?: string | number;
  /** `email`, `sms`, `email,sms` or `none`. */
  sendVia?: string;
  /** Email of the account's user the invitations are made by. */
  createdBy?: string;
  /** Country (ISO code) of phone numbers written without +country code. */
  phoneCountry?: string;
}

export interface BulkInviteOptions {
  /** Invitations sent at once, 1 to 64 (default 8). */
  concurrency?: number;
  /**
   * Default false: when any row is invalid, nothing is sent and the promise
   * rejects with InvalidRowsError. True: the valid rows are sent and the
   * invalid ones come back with status `invalid`.
   */
  skipInvalid?: boolean;
  defaults?: InviteDefaults;
  /** Stops the run: rows in flight are finished, the rest come back `not_sent`. */
  signal?: AbortSignal;
  /** Called as rows finish: how many are done (of `total`), and how many of them failed or were invalid. */
  onProgress?: (progress: { done: number; total: number; failed: number }) => void;
}

/** Some rows failed their checks; nothing was sent. */
export class InvalidRowsError extends UsageError {
  /** Each invalid row (up to 10,000) and why. */
  readonly rows: Array<{ index: number; errors: Array<{ field: string; reason: string }> }>;
  constructor(message: string, rows: InvalidRowsError['rows']) {
    super(message, 'fix the rows, or pass skipInvalid: true to send the valid ones only');
    this.rows = rows;
  }
}

/** The run stopped after it began sending (the service went away, a disk filled): what happened so far is in `result`. */
export class BulkInviteStoppedError extends JobfitError {
  readonly result: BulkInviteResult;
  constructor(cause: unknown, result: BulkInviteResult) {
    super(`The bulk invite stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause, hint: cause instanceof JobfitError ? cause.hint : undefined });
    this.result = result;
  }
}

const cellText = (v: InviteCell): string => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(';') : String(v));
const listText = (v: string | number | readonly string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v.join(';') : String(v));
function session(signal: AbortSignal | undefined): BulkDeps['ctx'] {
  const sink = { write: () => true };
  const io = createIO({ stdout: sink, stderr: sink, stdin: Readable.from([]), stdinIsTTY: false, env: {}, signal });
  const s: Pick<Session, 'io' | 'globals' | 'info' | 'warn'> = { io, globals: { color: false, quiet: true, verbose: false }, info: () => {}, warn: () => {} };
  return s;
}

/**
 * The rows as a CSV's lines: the header is every key, in the order first
 * seen; a row with no cell at all is left out (the pipeline skips it as a
 * blank line; it is reported invalid here). `indexOfRow[n]` is the position
 * in `rows` of the CSV's row n + 1.
 */
export function rowsAsLines(rows: readonly InviteRow[]): { lines: string[][]; indexOfRow: number[] } {
  const header: string[] = [];
  const known = new Set<string>();
  const indexOfRow: number[] = [];
  for (const [i, row] of rows.entries()) {
    if (row === null || typeof row !== 'object') throw new TypeError(`bulkInvite: row ${i} is not an object.`);
    for (const k of Object.keys(row)) {
      if (known.has(k)) continue;
      known.add(k);
      header.push(k);
    }
    if (Object.values(row).some((v) => cellText(v as InviteCell).trim() !== '')) indexOfRow.push(i);
  }
  const lines: string[][] = [header];
  for (const i of indexOfRow) lines.push(header.map((h) => cellText(rows[i][h])));
  return { lines, indexOfRow };
}

/** The totals of the rows' results. */
export function tally(results: InviteRowResult[], interrupted: boolean, seconds: number): BulkInviteResult {
  const n = (s: InviteStatus) => results.filter((r) => r.status === s).length;
  return {
    created: n('created'),
    exists: n('exists'),
    invalid: n('invalid'),
    failed: n('failed'),
    notSent: n('not_sent') + n('unknown'),
    interrupted,
    seconds,
    rows: results,
  };
}

/** The pipeline's options for the CSV at `csv`: the library's defaults as the CLI's flags, never a prompt. */
export function pipelineOptions(csv: string, out: string, concurrency: number, d: InviteDefaults = {}): BulkRunOptions {
  return {
    csv,
    out,
    yes: true,
    concurrency,
    team: listText(d.team),
    assessments: listText(d.assessments),
    template: listText(d.template),
    sendVia: d.sendVia,
    createdBy: d.createdBy,
    phoneCountry: d.phoneCountry,
  };
}

/**
 * The invalid rows of a dry run by their position in the array given, with
 * the rows left out as blank (each "is empty"), in order.
 */
export function invalidRowsOf(invalidRows: ReadonlyArray<{ row: number; errors: Array<{ field: string; reason: string }> }>, indexOfRow: readonly number[], total: number): InvalidRowsError['rows'] {
  const invalid = invalidRows.map((r) => ({ index: indexOfRow[r.row - 1], errors: r.errors }));
  const nonBlank = new Set(indexOfRow);
  for (let index = 0; index < total; index++) if (!nonBlank.has(index)) invalid.push({ index, errors: [{ field: '(row)', reason: 'is empty' }] });
  return invalid.sort((a, b) => a.index - b.index);
}

/** The pipeline's progress seam as onProgress: the blank rows count as done and failed from the start. */
function progressOf(total: number, sent: number, onProgress: BulkInviteOptions['onProgress']): NonNullable<BulkDeps['progress']> {
  let done = 0;
  let failed = 0;
  const blank = total - sent;
  return () => ({
    tick: (t) => {
      done += t?.n ?? 1;
      if (t?.error) failed++;
      onProgress?.({ done: done + blank, total, failed: failed + blank });
    },
    setTotal: () => {},
    stop: () => {},
  });
}

/** The results file's last five columns (row, status, invitation_id, assessment_url, error) → the rows' results. */
async function readResults(path: string, indexOfRow: readonly number[], results: InviteRowResult[]): Promise<void> {
  const [{ readCsv }, { looksLikeFormula }] = await Promise.all([import('../bulk/reader.js'), import('../format/csv.js')]);
  /** The results file neutralises cells a spreadsheet would run ('=…'); our columns are read back as written. */
  const asWritten = (c: string) => (c.startsWith("'") && looksLikeFormula(c.slice(1)) ? c.slice(1) : c);
  for await (const rec of readCsv(path, 'the results file', () => {})) {
    const [row, status, id, url, error] = rec.cells.slice(-5).map(asWritten);
    const index = indexOfRow[Number(row) - 1];
    if (index === undefined) continue;
    const r: InviteRowResult = { index, status: status as InviteStatus };
    if (id) r.invitationId = Number(id);
    if (url) r.assessmentUrl = url;
    if (error) r.error = error;
    results[index] = r;
  }
}

/**
 * Invites every row (see InviteRow). `R` lets rows be of your own interface
 * (`interface Candidate { email: string; ... }`), not only plain records.
 */
export async function bulkInvite<R extends { readonly [K in keyof R]: InviteCell } = InviteRow>(
  client: JobfitClient,
  rowsGiven: readonly R[],
  opts: BulkInviteOptions = {},
): Promise<BulkInviteResult> {
  if (!Array.isArray(rowsGiven)) throw new TypeError('bulkInvite: rows must be an array of objects.');
  const rows = rowsGiven as readonly InviteRow[];
  // The pipeline is loaded on the first call: a program that only lists pays nothing for it.
  const [{ runBulkInvite }, { DEFAULT_CONCURRENCY, MAX_CONCURRENCY }, { stringify }, { isOurStub }] = await Promise.all([
    import('../bulk/run.js'),
    import('../bulk/types.js'),
    import('csv-stringify/sync'),
    import('../config/served-stubs.js'),
  ]);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new TypeError(`bulkInvite: concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}; got ${String(opts.concurrency)}.`);
  }
  const started = Date.now();
  const results: InviteRowResult[] = rows.map((_, index) => ({ index, status: 'invalid', error: '(row): is empty' }));
  const seconds = () => (Date.now() - started) / 1000;
  const { lines, indexOfRow } = rowsAsLines(rows);
  if (indexOfRow.length === 0) return tally(results, false, seconds());

  const dir = mkdtempSync(join(tmpdir(), 'jobfit-invite-'));
  try {
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, stringify(lines, { record_delimiter: '\n' }), { mode: 0o600 });
    const base = pipelineOptions(csv, join(dir, 'results.csv'), concurrency, opts.defaults);
    const baseUrl = client.http.baseUrl;
    const deps: BulkDeps = {
      ctx: session(opts.signal),
      api: client,
      // Our stub only when it proves it (a stub of this process, or a `stub serve` noted in the config).
      target: { baseUrl, mode: client.http.keyMode, local: await isOurStub(process.env, baseUrl) },
      progress: progressOf(rows.length, indexOfRow.length, opts.onProgress),
    };
    if (!opts.skipInvalid) {
      // Checked before anything is sent, as the CLI does.
      const dry = await runBulkInvite({ ...base, dryRun: true, out: undefined }, deps);
      const blank = results.length - indexOfRow.length;
      if (dry.invalid + blank > 0) {
        throw new InvalidRowsError(`${dry.invalid + blank} of ${rows.length} rows are invalid; nothing was sent.`, invalidRowsOf(dry.invalidRows, indexOfRow, rows.length));
      }
    }
    try {
      const summary = await runBulkInvite({ ...base, skipInvalid: true }, deps);
      await readResults(base.out!, indexOfRow, results);
      return tally(results, summary.interrupted, seconds());
    } catch (err) {
      if (!existsSync(base.out!)) throw err;
      await readResults(base.out!, indexOfRow, results);
      throw new BulkInviteStoppedError(err, tally(results, false, seconds()));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
