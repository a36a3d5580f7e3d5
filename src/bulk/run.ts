/**
 * Bulk invite: parse (stream) → map columns → validate every row → (dry run
 * stops here) → confirm in live mode → send with bounded concurrency →
 * journal → results file in input order.
 *
 * The file is read twice (validation, then sending) rather than held in
 * memory; standard input is first spooled to a temporary file for that.
 */
import { setMaxListeners } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { InvitationListItem } from '../api/index.js';
import { MSG } from '../api/messages.js';
import type { Session } from '../core/session.js';
import { CancelError, ExitCode, JobfitError, PartialFailureError, SilentError, UsageError } from '../core/errors.js';
import { type AccountData, type BulkApi, findInvitationByEmail, loadAccountData } from './account.js';
import { type ColumnMapping, mapHeader, parseMaps } from './columns.js';
import { checkWritablePath, fileErrorCause, isFileError } from './files.js';
import { journalPathFor, type JournalState, JournalWriter, type Outcome, readJournal, type RowStatus } from './journal.js';
import { describeMapping, formatReport, type MappingReport } from './report.js';
import { readInputBatches } from './input.js';
import type { CsvMeta, CsvRecord } from './reader.js';
import type { ResultsWriter } from './results.js';
import { createResultsWriter } from './xlsx-results.js';
import { type RowCheck, type RowDefaults, RowValidator, resolveDefaults } from './validate.js';
import { NUM } from '../format/number.js';
import { safeText } from '../format/sanitize.js';
import { ServiceGoneError } from '../client/errors.js';
import { classifyRowError, decideRowRetry, Pace } from './retry.js';
import { acquireLock } from '../core/lock.js';
import { limiter } from '../core/pool.js';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export interface BulkOptions {
  /** Path of the CSV or .xlsx workbook, or "-" for standard input. */
  csv: string;
  /** The workbook's sheet to read (name or 1-based number); the first visible one by default. */
  sheet?: string;
  out?: string;
  dryRun?: boolean;
  resume?: boolean;
  /** Send again the rows of the last run that failed or were not sent (its journal). */
  retryFailed?: boolean;
  /** Write every invalid row (cells, line, reasons) to this CSV. */
  errors?: string;
  /** Without a terminal, the progress line's period (default PROGRESS_LINE_MS). */
  progressEveryMs?: number;
  skipInvalid?: boolean;
  yes?: boolean;
  concurrency?: number;
  /** Rows the validation pass may keep for the sending pass (default KEEP_ROWS; 0: always read the file again). */
  keepRows?: number;
  maps?: string[];
  createdBy?: string;
  team?: string;
  assessments?: string;
  template?: string;
  sendVia?: string;
  /** Country of phone numbers written without +country code (rows without a Country cell). */
  phoneCountry?: string;
}

export interface BulkTarget {
  baseUrl: string;
  mode?: 'live' | 'test';
  /** The embedded stub or a server on this machine: nothing reaches a real person. */
  local: boolean;
}

/** The client methods bulk invite uses, beside BulkApi's reads. */
export interface BulkSender extends BulkApi {
  createInvitationDetailed(body: never, signal?: AbortSignal): Promise<{ invitation: { id: number; assessment_url: string | null }; recovered: boolean }>;
}

export interface ProgressLike {
  tick(opts?: { error?: boolean; n?: number }): void;
  setTotal(total: number): void;
  stop(): void;
}

export interface BulkDeps {
  ctx: Pick<Session, 'io' | 'globals' | 'info' | 'warn'>;
  api: BulkSender;
  target: BulkTarget;
  /** Asks a yes/no question on the terminal (only called when io.canPrompt). */
  confirm?: (message: string) => Promise<boolean>;
  progress?: (total: number) => ProgressLike;
  /** Profile invite defaults (flags win over them). */
  profileDefaults?: { createdBy?: string; team?: string; assessments?: string; template?: string; sendVia?: string };
}

export interface InvalidRow {
  row: number;
  line: number;
  email?: string;
  errors: Array<{ field: string; reason: string }>;
}

export interface BulkSummary {
  rows: number;
  valid: number;
  invalid: number;
  created: number;
  exists: number;
  failed: number;
  /** Rows the run stopped before sending (and, among them, `unknown`: sent with no answer). */
  notSent: number;
  unknown: number;
  /** Rows this run sent (not those recorded by an earlier one): the rate is of these. */
  sent: number;
  resumed: number;
  seconds: number;
  results?: string;
  journal?: string;
  interrupted: boolean;
  dryRun: boolean;
  invalidRows: InvalidRow[];
  /** How the header and the values were read (shown by the dry run). */
  mapping: MappingReport;
  /** Where --errors wrote the invalid rows. */
  errorsFile?: string;
}


function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./@:=,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function resumeCommand(o: BulkOptions, out: string): string {
  const parts = ['jobfit', 'invite', '--csv', o.csv, '--out', out, o.retryFailed ? '--retry-failed' : '--resume'];
  if (o.sheet !== undefined) parts.push('--sheet', o.sheet);
  if (o.createdBy) parts.push('--created-by', o.createdBy);
  if (o.team) parts.push('--team', o.team);
  if (o.assessments) parts.push('--assessments', o.assessments);
  if (o.template) parts.push('--template', o.template);
  if (o.sendVia) parts.push('--send-via', o.sendVia);
  if (o.phoneCountry) parts.push('--phone-country', o.phoneCountry);
  for (const m of o.maps ?? []) parts.push('--map', m);
  if (o.skipInvalid) parts.push('--skip-invalid');
  if (o.concurrency && o.concurrency !== DEFAULT_CONCURRENCY) parts.push('--concurrency', String(o.concurrency));
  if (o.yes) parts.push('--yes');
  const cmd = parts.map(shellQuote).join(' ');
  return o.csv === '-' ? `${cmd} < SAME_FILE` : cmd;
}

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

interface Validated {
  meta: CsvMeta;
  mapping: ColumnMapping;
  validator: RowValidator;
  rows: number;
  invalid: InvalidRow[];
  invalidCount: number;
  firstRowOfEmail: Map<string, number>;
  teams: Map<number, number>;
  channels: { email: number; sms: number; none: number };
  /**
   * Every record with its check, when the file is small enough to keep
   * (KEEP_ROWS): the sending pass then reuses them instead of reading and
   * checking the file again. Undefined for a larger file and for --dry-run.
   */
  kept?: Array<{ rec: CsvRecord; r: RowCheck }>;
}

/**
 * Up to this many rows, the validation pass keeps its records for the sending
 * pass (a few MB for 20,000 rows): reading and checking the file a second time
 * was ~10% of the CPU of sending 10,000 rows. Larger files are read twice, so
 * memory stays flat whatever the size.
 */
const KEEP_ROWS = 20_000;

/** A row checked: the contract's rules, the account, the header's width, duplicates in the file. */
function checkRow(v: Pick<Validated, 'validator' | 'meta' | 'firstRowOfEmail'>, rec: CsvRecord, firstPass: boolean): RowCheck {
  const width = v.meta.header.length;
  if (rec.cells.length > width && rec.cells.slice(width).some((c) => c !== '')) {
    return {
      ok: false,
      errors: [{ field: '(row)', reason: `has ${rec.cells.length} fields but the header has ${width} (a delimiter inside an unquoted field?)` }],
    };
  }
  const r = v.validator.check(rec.cells);
  const key = r.email?.toLowerCase();
  if (key) {
    const first = v.firstRowOfEmail.get(key);
    if (first === undefined) {
      if (firstPass) v.firstRowOfEmail.set(key, rec.row);
    } else if (first !== rec.row) {
      const dup = { field: 'email', reason: `Duplicate email in the file (first on row ${first})` };
      return r.ok ? { ok: false, email: r.email, errors: [dup] } : { ...r, errors: [...r.errors, dup] };
    }
  }
  return r;
}

async function validatePass(path: string, label: string, opts: BulkOptions, deps: BulkDeps, account: AccountData, journal?: JournalState): Promise<Validated> {
  const pd = deps.profileDefaults ?? {};
  const maps = parseMaps(opts.maps);
  const defaults: RowDefaults = resolveDefaults(account, {
    createdBy: opts.createdBy ?? pd.createdBy,
    team: opts.team ?? pd.team,
    assessments: opts.assessments ?? pd.assessments,
    template: opts.template ?? pd.template,
    sendVia: opts.sendVia ?? pd.sendVia,
    phoneCountry: opts.phoneCountry,
  });
  let v: Validated | undefined;
  const invalid: InvalidRow[] = [];
  let invalidCount = 0;
  let rows = 0;
  const teams = new Map<number, number>();
  const channels = { email: 0, sms: 0, none: 0 };
  const firstRowOfEmail = new Map<string, number>();
  const batches = readInputBatches(path, label, (meta) => {
    const mapping = mapHeader(meta.header, maps, { haveInviter: Boolean(defaults.created_by) });
    v = { meta, mapping, validator: new RowValidator(mapping, account, defaults), rows: 0, invalid, invalidCount: 0, firstRowOfEmail, teams, channels };
  }, { sheet: opts.sheet, note: (t) => deps.ctx.info(safeText(t)) });
  const keep = opts.keepRows ?? KEEP_ROWS;
  let kept: Validated['kept'] = opts.dryRun || keep <= 0 ? undefined : [];
  for await (const batch of batches) for (const rec of batch) {
    rows++;
    const r = checkRow(v!, rec, true);
    if (journal && (journal.done.size || journal.inFlight.size)) {
      // A resume must be of the same rows: refused here, before anything is written.
      const was = journal.done.get(rec.row)?.email ?? journal.inFlight.get(rec.row);
      if (was !== undefined && was.toLowerCase() !== (r.email ?? '').toLowerCase()) {
        throw new UsageError(
          `The CSV changed since the interrupted run: row ${rec.row} was ${was}, now ${r.email ?? '(no email)'}; nothing was written or sent.`,
          'resume with the same file, or start a new run with another --out',
        );
      }
    }
    if (kept) {
      if (kept.length < keep) kept.push({ rec, r });
      else kept = undefined;
    }
    if (!r.ok) {
      invalidCount++;
      // Enough to fix a file; the results file has every one.
      if (invalid.length < 10_000) invalid.push({ row: rec.row, line: rec.line, email: r.email, errors: r.errors });
      continue;
    }
    if (r.teamId !== undefined) teams.set(r.teamId, (teams.get(r.teamId) ?? 0) + 1);
    if (r.channels.email) channels.email++;
    if (r.channels.sms) channels.sms++;
    if (!r.channels.email && !r.channels.sms) channels.none++;
  }
  if (!v) throw new UsageError(`${label} is empty: there is no header line.`);
  v.rows = rows;
  v.invalidCount = invalidCount;
  v.kept = kept;
  return v;
}

export { formatMapping, formatReport } from './report.js';

function channelText(c: Validated['channels']): string {
  const parts = [];
  if (c.email) parts.push(`${NUM.format(c.email)} by email`);
  if (c.sms) parts.push(`${NUM.format(c.sms)} by SMS`);
  if (c.none) parts.push(`${NUM.format(c.none)} not delivered (link only)`);
  return parts.join(', ') || 'none';
}

async function guardLive(opts: BulkOptions, deps: BulkDeps, account: AccountData, v: Validated, sendable: number): Promise<void> {
  const { ctx, target } = deps;
  if (target.local) {
    ctx.info(`Sending to the local stub at ${target.baseUrl}: no real email or SMS goes out.`);
    return;
  }
  if (target.mode !== 'live') {
    ctx.info(`Test mode (${target.baseUrl}): the service stores nothing and sends nothing.`);
    return;
  }
  const teamNames = [...v.teams.entries()]
    .map(([id, n]) => `${account.teamsById.get(id)?.display_name ?? `team ${id}`} (${NUM.format(n)})`)
    .join(', ');
  const summary = [
    `LIVE: about to invite ${NUM.format(sendable)} participants for real.`,
    `  account:  ${account.account.display_name} (${account.account.id}) at ${target.baseUrl}`,
    `  team(s):  ${teamNames || 'the inviter\'s default team'}`,
    `  delivery: ${channelText(v.channels)}`,
  ].join('\n');
  ctx.io.stderr.write(`${safeText(summary)}\n`);
  if (opts.yes) return;
  if (!ctx.io.canPrompt || !deps.confirm) {
    throw new UsageError('Live bulk invite without a terminal needs --yes (real emails and SMS will be sent).', 'check the file with --dry-run first, then add --yes');
  }
  const ok = await deps.confirm(`Send ${NUM.format(sendable)} live invitations now?`);
  if (!ok) throw new CancelError('Nothing was sent.', ExitCode.FAILURE);
}

/** Waits, or less when the run is stopped (`signal`). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((r) => {
    if (signal?.aborted) return r();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      r();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** What a row asks for, to tell its own invitation from someone else's. */
interface RowAsk {
  email: string;
  first: string;
  last: string;
  /** The team the invitation goes to (the row's, or the inviter's default). */
  teamId?: number;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * An invitation found by email is this row's own (made by an earlier or
 * interrupted run of it, or by a lost POST the client recovered): the same
 * person on the same team. Anything else is someone else's invitation in the way.
 */
function isOwn(found: InvitationListItem, ask: RowAsk): boolean {
  return (ask.teamId === undefined || found.team?.id === ask.teamId) && same(found.first_name, ask.first) && same(found.last_name, ask.last);
}

/** The service's refusal, and which invitation is in the way. */
function conflict(msg: string, found: InvitationListItem | undefined): Outcome {
  if (!found) return { status: 'failed', error: msg };
  const team = found.team ? `team ${found.team.display_name} (${found.team.id})` : 'another team';
  const when = found.created_at ? `, created ${found.created_at}` : '';
  return { status: 'failed', error: `${msg}: invitation ${found.id} on ${team}, for ${found.first_name} ${found.last_name}${when}` };
}

/** The email looked up; a lookup that fails is "not found", unless the service is gone. */
function lookUp(api: BulkApi, email: string, signal: AbortSignal): Promise<InvitationListItem | undefined> {
  return findInvitationByEmail(api, email, signal).catch((e) => {
    if (e instanceof ServiceGoneError) throw e;
    return undefined;
  });
}

/**
 * Sends one row, retrying as decideRowRetry (retry.ts) says. A 400 duplicate
 * is "exists" only when the invitation in the way is this row's own (isOwn),
 * otherwise the row failed with the service's message and the invitation in
 * the way; a lost POST is resolved by the client (lookup, never a blind
 * resend) and looked up again here before any new send.
 */
async function sendRow(api: BulkSender, body: Record<string, unknown>, ask: RowAsk, pace: Pace, signal: AbortSignal, random: () => number = Math.random): Promise<Outcome> {
  const email = ask.email;
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await api.createInvitationDetailed(body as never, signal);
      pace.ok();
      return { status: 'created', id: r.invitation.id, url: r.invitation.assessment_url };
    } catch (err) {
      const failure = classifyRowError(err);
      const d = decideRowRetry(failure, attempt, random);
      switch (d.action) {
        case 'stop':
          throw err;
        case 'fail':
          return { status: 'failed', error: d.error };
        case 'look-up-duplicate': {
          const found = await lookUp(api, email, signal);
          if (found && d.message === MSG.duplicateInvitationSameTeam(email) && isOwn(found, ask)) return { status: 'exists', id: found.id, url: found.assessment_url };
          return conflict(d.message, found);
        }
        case 'wait': {
          if (d.slowDown) pace.slowDown();
          if (d.lookUpFirst) {
            // The client looked the email up and resent once; look again before any new send.
            const found = await lookUp(api, email, signal);
            if (found && isOwn(found, ask)) return { status: 'created', id: found.id, url: found.assessment_url };
          }
          await sleep(d.delayMs, signal);
          if (d.last) return { status: 'failed', error: failure.text, transient: true };
        }
      }
    }
  }
}

/**
 * The rows of a run that the service did not answer, one after another,
 * through every retry (a service whose reads work but whose writes all fail
 * never trips the client's breaker, which counts requests): at this many the
 * run stops as for a service that is gone. JOBFIT_BREAKER_SECONDS=0 turns it
 * off with the client's breaker.
 */
export function rowBreakerBound(concurrency: number, env: Record<string, string | undefined>): number {
  if (env.JOBFIT_BREAKER_SECONDS?.trim() === '0') return Number.POSITIVE_INFINITY;
  return Math.max(5, concurrency);
}

/** Rows sent before a crash with no outcome: the email lookup decides, never a second POST. */
async function resolveInFlight(api: BulkApi, ask: RowAsk, signal: AbortSignal): Promise<Outcome | undefined> {
  const found = await findInvitationByEmail(api, ask.email, signal);
  // Someone else's invitation is not this row's: the send then gets the service's refusal.
  return found && isOwn(found, ask) ? { status: 'created', id: found.id, url: found.assessment_url } : undefined;
}

/**
 * A row's cells in the header's width, so that `row`, `status`, ... stay in
 * their columns: empty cells past the header (a trailing delimiter) are
 * dropped; non-empty ones (an invalid row) are joined back into the last
 * column with the delimiter they were split on, so nothing is lost.
 */
export function fitCells(cells: string[], width: number, delimiter: string): string[] {
  if (cells.length <= width || width === 0) return cells;
  const extra = cells.slice(width);
  if (extra.every((c) => c === '')) return cells.slice(0, width);
  let end = cells.length;
  while (cells[end - 1] === '') end--;
  return [...cells.slice(0, width - 1), cells.slice(width - 1, end).join(delimiter)];
}

/** --errors FILE: every invalid row with its cells, line and reasons (the file is read again; memory stays flat). */
async function writeErrorsFile(path: string, input: string, label: string, v: Validated, opts: BulkOptions): Promise<void> {
  const file = resolve(path);
  checkWritablePath(file, 'errors file', opts.csv === '-' ? undefined : resolve(opts.csv));
  const w = createResultsWriter(file, v.meta.header, v.meta.delimiter, v.meta.bom, undefined, ['line', 'row', 'error'], 'errors file');
  const width = v.meta.header.length;
  try {
    const check = { ...v, firstRowOfEmail: v.firstRowOfEmail };
    for await (const batch of readInputBatches(input, label, () => {}, { sheet: opts.sheet })) {
      for (const rec of batch) {
        const r = checkRow(check, rec, false);
        if (r.ok) continue;
        const cells = fitCells(rec.cells, width, v.meta.delimiter);
        const padded = cells.length >= width ? cells : [...cells, ...Array(width - cells.length).fill('')];
        w.append([...padded, String(rec.line), String(rec.row), r.errors.map((e) => `${e.field}: ${e.reason}`).join('; ')]);
      }
    }
  } catch (err) {
    await w.close(false);
    throw err;
  }
  await w.close();
}

/** Refuses a resume whose file is not the journalled run's: before anything is written. */
function checkResumable(journal: JournalState, journalPath: string, v: Validated): void {
  if (journal.begin && journal.begin.header.join('\u0000') !== v.meta.header.join('\u0000')) {
    throw new UsageError(`The CSV's columns differ from the interrupted run's (${journalPath}); nothing was written or sent.`, 'resume with the same file, or start a new run with another --out');
  }
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
      if (!again && journal.begin && !journal.ended) {
        throw new UsageError(
          `An earlier run into ${out} did not finish (journal ${journalPath}); nothing was sent.`,
          `continue it with: ${resumeCommand(opts, out)}\n      or choose another --out to start over (rows already sent then come back as "exists")`,
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

    const jw = new JournalWriter(journalPath);
    let results: ResultsWriter;
    try {
      if (again) jw.resume(ctx.io.now().toISOString());
      else jw.begin({ input: opts.csv === '-' ? '-' : resolve(opts.csv), header: v.meta.header, rows: v.rows, at: ctx.io.now().toISOString() });
      results = createResultsWriter(out, v.meta.header, v.meta.delimiter, v.meta.bom, (row, col, text) => jw.cell(row, col, text));
    } catch (err) {
      jw.close();
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
        ctx.io.stderr.write(`${summaryLine(summary)}\nStopped. Results: ${out} (journal ${journalPath}). Resume with:\n  ${resumeCommand(opts, out)}\n`);
      }
      throw fatal;
    }
    return summary;
  } finally {
    lock?.release();
    cleanup();
  }
}

const NOT_SENT: Outcome = { status: 'not_sent', error: 'not sent: the run stopped first (--resume sends it)' };
const UNANSWERED: Outcome = { status: 'unknown', error: 'sent, but no answer came before the run stopped (--resume looks it up by email, it never sends twice)' };

/** A full or read-only disk (or another write error) as one sentence: the file, the cause, what was sent, how to resume. */
function writeFailure(err: unknown, file: string, opts: BulkOptions, out: string, sent: number): JobfitError {
  const what = sent > 0 ? `${NUM.format(sent)} rows were sent and are in the journal; ` : 'nothing was sent; ';
  const kept = existsSync(out) ? 'the previous results file was left as it was' : 'no results file was written';
  return new JobfitError(`Cannot write ${file}: ${fileErrorCause(err)}. The run stopped: ${what}${kept}.`, {
    hint: `make room (or make it writable), then: ${resumeCommand(opts, out)}`,
    cause: err,
  });
}

/** Every run's figures in one line: what happened to each row, and the pace of the rows actually sent. */
export function summaryLine(s: BulkSummary): string {
  const rate = s.seconds > 0 ? Math.round(s.sent / s.seconds) : s.sent;
  const notSent = s.unknown ? `${NUM.format(s.notSent)} not sent (${NUM.format(s.unknown)} of them unanswered)` : `${NUM.format(s.notSent)} not sent`;
  const parts = [`${NUM.format(s.created)} created`, `${NUM.format(s.exists)} exists`, `${NUM.format(s.invalid)} invalid`, `${NUM.format(s.failed)} failed`, notSent];
  const resumed = s.resumed ? ` (${NUM.format(s.resumed)} from the earlier run)` : '';
  return `${NUM.format(s.rows)} rows: ${parts.join(', ')}${resumed} in ${s.seconds.toFixed(1)}s (${NUM.format(s.sent)} sent, ${NUM.format(rate)} rows/s).`;
}

/** Maps a finished run to the exit: 0 all created/exists, 3 some invalid/failed, 130 interrupted. */
export function finishBulk(s: BulkSummary, opts: BulkOptions, ctx: BulkDeps['ctx']): void {
  if (s.interrupted) {
    ctx.io.stderr.write(
      `Interrupted: the rows in flight were finished; ${NUM.format(s.notSent)} rows were not sent. Everything is in ${s.results}.\nResume with:\n  ${resumeCommand(opts, s.results!)}\n`,
    );
    throw new SilentError(ExitCode.INTERRUPTED);
  }
  if (s.invalid + s.failed > 0) {
    const retry = s.failed > 0 && s.results ? `; send the failed rows again with: ${resumeCommand({ ...opts, resume: false, retryFailed: true }, s.results)}` : '';
    throw new PartialFailureError(
      `${NUM.format(s.invalid + s.failed)} of ${NUM.format(s.rows)} rows were not invited (${NUM.format(s.invalid)} invalid, ${NUM.format(s.failed)} failed).`,
      s.results ? `see the status and error columns of ${s.results}${retry}` : undefined,
    );
  }
}

export type { Outcome, RowStatus };
