/**
 * Bulk invite: parse (stream) → map columns → validate every row → (dry run
 * stops here) → confirm in live mode → send with bounded concurrency →
 * journal → results file in input order.
 *
 * The file is read twice (validation, then sending) rather than held in
 * memory; standard input is first spooled to a temporary file for that.
 */
import { setMaxListeners } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isDuplicateMessage } from '../api/messages.js';
import type { Context } from '../cli/context.js';
import { CancelError, ExitCode, JobfitError, PartialFailureError, SilentError, UsageError } from '../cli/errors.js';
import { type AccountData, type BulkApi, findInvitationByEmail, loadAccountData } from './account.js';
import { type ColumnMapping, mapHeader, parseMaps } from './columns.js';
import { journalPathFor, JournalWriter, type Outcome, readJournal, type RowStatus } from './journal.js';
import { type CsvMeta, type CsvRecord, readCsvBatches } from './reader.js';
import { ResultsWriter } from './results.js';
import { type RowCheck, type RowDefaults, RowValidator, resolveDefaults } from './validate.js';
import { NUM } from '../format/number.js';
import { safeText } from '../format/sanitize.js';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export interface BulkOptions {
  /** Path of the CSV, or "-" for standard input. */
  csv: string;
  out?: string;
  dryRun?: boolean;
  resume?: boolean;
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
  ctx: Pick<Context, 'io' | 'globals' | 'info' | 'warn'>;
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
  resumed: number;
  seconds: number;
  results?: string;
  journal?: string;
  interrupted: boolean;
  dryRun: boolean;
  invalidRows: InvalidRow[];
}


function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./@:=,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function resumeCommand(o: BulkOptions, out: string): string {
  const parts = ['jobfit', 'invite', '--csv', o.csv, '--out', out, '--resume'];
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
  return join(dirname(resolve(csv)), `${basename(csv, ext)}.results.csv`);
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

async function validatePass(path: string, label: string, opts: BulkOptions, deps: BulkDeps, account: AccountData): Promise<Validated> {
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
  const batches = readCsvBatches(path, label, (meta) => {
    const mapping = mapHeader(meta.header, maps, { haveInviter: Boolean(defaults.created_by) });
    v = { meta, mapping, validator: new RowValidator(mapping, account, defaults), rows: 0, invalid, invalidCount: 0, firstRowOfEmail, teams, channels };
  });
  const keep = opts.keepRows ?? KEEP_ROWS;
  let kept: Validated['kept'] = opts.dryRun || keep <= 0 ? undefined : [];
  for await (const batch of batches) for (const rec of batch) {
    rows++;
    const r = checkRow(v!, rec, true);
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

/** The dry-run report, and the list printed when a real run refuses to start. */
export function formatReport(s: Pick<BulkSummary, 'rows' | 'valid' | 'invalid' | 'invalidRows'>, label: string): string {
  const lines: string[] = [];
  lines.push(`${label}: ${NUM.format(s.rows)} rows, ${NUM.format(s.valid)} valid, ${NUM.format(s.invalid)} invalid.`);
  for (const r of s.invalidRows) {
    for (const e of r.errors) lines.push(`  line ${r.line} (row ${r.row}${r.email ? `, ${r.email}` : ''}): ${e.field}: ${e.reason}`);
  }
  if (s.invalid > s.invalidRows.length) lines.push(`  … and ${NUM.format(s.invalid - s.invalidRows.length)} more invalid rows (all are in the results file of a real run).`);
  // Emails and reasons quote the CSV's cells: a stranger's text.
  return `${safeText(lines.join('\n'))}\n`;
}

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

class Limiter {
  limit: number;
  private successes = 0;
  constructor(readonly max: number) {
    this.limit = max;
  }
  /** Halve on a 429 that outlasted the client's own retries. */
  slowDown(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
  }
  /** Creep back up: one more slot per `limit` successes. */
  ok(): void {
    if (this.limit >= this.max) return;
    if (++this.successes >= this.limit) {
      this.limit++;
      this.successes = 0;
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function errText(err: unknown): string {
  if (err && typeof err === 'object' && 'apiText' in err && typeof (err as { apiText: unknown }).apiText === 'string') return (err as { apiText: string }).apiText;
  return err instanceof Error ? err.message : String(err);
}

function errName(err: unknown): string {
  return err instanceof Error ? err.constructor.name : '';
}

/**
 * Sends one row. A 400 duplicate is "exists" (the existing invitation looked
 * up by email); a lost POST is resolved by the client (lookup, never a blind
 * resend); what certainly did nothing (429, 503, refused) is tried again here.
 */
async function sendRow(api: BulkSender, body: Record<string, unknown>, email: string, limiter: Limiter, signal: AbortSignal): Promise<Outcome> {
  let last: unknown;
  for (let attempt = 0; attempt < 6; attempt++) {
    try {
      const r = await api.createInvitationDetailed(body as never, signal);
      limiter.ok();
      return { status: 'created', id: r.invitation.id, url: r.invitation.assessment_url };
    } catch (err) {
      last = err;
      const name = errName(err);
      const status = (err as { status?: number }).status;
      if (name === 'BadRequestError' || status === 400) {
        const msg = errText(err);
        if (isDuplicateMessage(msg)) {
          const found = await findInvitationByEmail(api, email, signal).catch(() => undefined);
          return found ? { status: 'exists', id: found.id, url: found.assessment_url } : { status: 'exists', error: msg };
        }
        return { status: 'failed', error: msg };
      }
      if (name === 'AuthenticationError' || name === 'AuthError') throw err;
      if (name === 'CancelError') throw err;
      if (name === 'RateLimitError' || status === 429) {
        limiter.slowDown();
        const ra = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
        await sleep(Math.min(30_000, (ra ?? 1) * 1000) + Math.random() * 250);
        continue;
      }
      if (name === 'UnknownOutcomeError') {
        // The client looked the email up and resent once; look again before any new send.
        const found = await findInvitationByEmail(api, email, signal).catch(() => undefined);
        if (found) return { status: 'created', id: found.id, url: found.assessment_url };
        await sleep(200 * 2 ** attempt);
        continue;
      }
      if (name === 'ServerError' || name === 'NetworkError' || (status !== undefined && status >= 500)) {
        await sleep(200 * 2 ** attempt);
        continue;
      }
      return { status: 'failed', error: errText(err) };
    }
  }
  return { status: 'failed', error: errText(last) };
}

/** Rows sent before a crash with no outcome: the email lookup decides, never a second POST. */
async function resolveInFlight(api: BulkApi, email: string, signal: AbortSignal): Promise<Outcome | undefined> {
  const found = await findInvitationByEmail(api, email, signal);
  return found ? { status: 'created', id: found.id, url: found.assessment_url } : undefined;
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

export async function runBulkInvite(opts: BulkOptions, deps: BulkDeps): Promise<BulkSummary> {
  const { ctx, api } = deps;
  const started = ctx.io.now().getTime();
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  if (opts.dryRun && opts.resume) throw new UsageError('--dry-run and --resume do not go together.');

  let input = opts.csv;
  let cleanup = () => {};
  if (input === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError('--csv - reads the CSV from standard input, but it is a terminal.', 'pipe a file in: jobfit invite --csv - < people.csv');
    const s = await spoolStdin(ctx);
    input = s.path;
    cleanup = s.cleanup;
  } else {
    if (!existsSync(input)) throw new UsageError(`No such file: ${input}.`);
    if (statSync(input).isDirectory()) throw new UsageError(`${input} is a directory, not a CSV file.`);
  }
  const label = opts.csv === '-' ? 'Standard input' : opts.csv;

  try {
    const account = await loadAccountData(api);
    const v = await validatePass(input, label, opts, deps, account);
    const valid = v.rows - v.invalidCount;
    const base: BulkSummary = {
      rows: v.rows,
      valid,
      invalid: v.invalidCount,
      created: 0,
      exists: 0,
      failed: 0,
      resumed: 0,
      seconds: 0,
      interrupted: false,
      dryRun: Boolean(opts.dryRun),
      invalidRows: v.invalid,
    };
    // A dry run too: "0 rows, exit 0" would pass a check that the real run then refuses.
    if (v.rows === 0) throw new UsageError(`${label} has a header but no rows.`, 'add one line per participant under the header');
    if (opts.dryRun) {
      base.seconds = (ctx.io.now().getTime() - started) / 1000;
      return base;
    }
    if (v.invalidCount > 0 && !opts.skipInvalid) {
      ctx.io.stderr.write(formatReport(base, label));
      throw new UsageError(
        `${NUM.format(v.invalidCount)} of ${NUM.format(v.rows)} rows are invalid; nothing was sent.`,
        'fix them, or pass --skip-invalid to send the valid rows only (the invalid ones go to the results file)',
      );
    }

    // Results and journal.
    const out = resolve(opts.out ?? defaultResultsPath(opts.csv));
    const journalPath = journalPathFor(out);
    let journal = await readJournal(journalPath);
    if (opts.resume) {
      if (!journal.begin) throw new UsageError(`Nothing to resume: there is no journal at ${journalPath}.`, 'run without --resume to start');
      if (journal.begin.header.join('\u0000') !== v.meta.header.join('\u0000')) {
        throw new UsageError(`The CSV's columns differ from the interrupted run's (${journalPath}).`, 'resume with the same file, or start a new run with another --out');
      }
    } else if (journal.begin && !journal.ended) {
      throw new UsageError(
        `An earlier run into ${out} did not finish (journal ${journalPath}).`,
        `continue it with: ${resumeCommand(opts, out)}\n      or remove ${journalPath} to start over (rows already sent will then be reported as "exists")`,
      );
    }
    if (journal.begin && !opts.resume) {
      // A finished earlier run: keep its journal aside, start a new one.
      renameSync(journalPath, `${journalPath}.${Date.now()}.done`);
      journal = { done: new Map(), inFlight: new Map(), ended: false };
    }

    const sendable = valid - [...journal.done.values()].length;
    await guardLive(opts, deps, account, v, Math.max(0, sendable));

    const jw = new JournalWriter(journalPath);
    if (opts.resume) jw.resume(ctx.io.now().toISOString());
    else jw.begin({ input: opts.csv === '-' ? '-' : resolve(opts.csv), header: v.meta.header, rows: v.rows, at: ctx.io.now().toISOString() });
    const results = new ResultsWriter(out, v.meta.header, v.meta.delimiter, v.meta.bom);
    const progress = deps.progress?.(v.rows);

    const counts: Record<RowStatus, number> = { created: 0, exists: 0, invalid: 0, failed: 0 };
    let resumed = 0;
    const width = v.meta.header.length;
    const delimiter = v.meta.delimiter;
    const record = (rec: CsvRecord, o: Outcome) => {
      counts[o.status]++;
      results.put(rec.row, fitCells(rec.cells, width, delimiter), o);
      progress?.tick({ error: o.status === 'failed' || o.status === 'invalid' });
    };

    const limiter = new Limiter(concurrency);
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

    try {
      // The rows and their checks: kept from the validation pass, or read again.
      async function* checkedRows(): AsyncGenerator<Array<{ rec: CsvRecord; r: RowCheck }>> {
        if (v.kept) {
          yield v.kept;
          return;
        }
        for await (const batch of readCsvBatches(input, label, () => {})) yield batch.map((rec) => ({ rec, r: checkRow(v, rec, false) }));
      }
      reading: for await (const batch of checkedRows()) for (const { rec, r } of batch) {
        if (interrupted || fatal) break reading;
        const prior = journal.done.get(rec.row);
        if (prior && (prior.email.toLowerCase() !== (r.ok ? r.email : (r.email ?? '')).toLowerCase())) {
          throw new UsageError(
            `The CSV changed since the interrupted run: row ${rec.row} was ${prior.email}, now ${r.email ?? '(no email)'}.`,
            'resume with the same file, or start a new run with another --out',
          );
        }
        if (!r.ok) {
          record(rec, { status: 'invalid', error: r.errors.map((e) => `${e.field}: ${e.reason}`).join('; ') });
          continue;
        }
        if (prior && prior.status !== 'failed') {
          resumed++;
          record(rec, prior);
          continue;
        }
        // Wait for a slot (and keep the out-of-order window bounded).
        while (inflight.size > 0 && (inflight.size >= limiter.limit || results.window > maxWindow)) await Promise.race(inflight);
        if (interrupted || fatal) break reading;
        const email = r.email;
        const body = r.body as unknown as Record<string, unknown>;
        const wasInFlight = journal.inFlight.has(rec.row);
        const task = (async () => {
          let o: Outcome | undefined;
          if (wasInFlight) o = await resolveInFlight(api, email, hard.signal);
          if (!o) {
            jw.sending([{ row: rec.row, email }]);
            o = await sendRow(api, body, email, limiter, hard.signal);
          } else resumed++;
          jw.done(rec.row, email, o);
          record(rec, o);
        })()
          .catch((err) => {
            fatal ??= err;
          })
          .finally(() => {
            inflight.delete(task);
          });
        inflight.add(task);
      }
      await Promise.all(inflight);
    } finally {
      ctx.io.signal.removeEventListener('abort', onAbort);
      progress?.stop();
      if (!interrupted && !fatal && results.written === v.rows) {
        jw.end(ctx.io.now().toISOString(), { ...counts });
      }
      jw.close();
      results.close();
    }

    const summary: BulkSummary = {
      ...base,
      created: counts.created,
      exists: counts.exists,
      failed: counts.failed,
      resumed,
      seconds: (ctx.io.now().getTime() - started) / 1000,
      results: out,
      journal: journalPath,
      interrupted,
    };
    if (fatal) {
      if (fatal instanceof JobfitError) {
        ctx.io.stderr.write(`Stopped: ${results.written} rows written to ${out}. Resume with:\n  ${resumeCommand(opts, out)}\n`);
      }
      throw fatal;
    }
    return summary;
  } finally {
    cleanup();
  }
}

export function summaryLine(s: BulkSummary): string {
  const rate = s.seconds > 0 ? Math.round(s.rows / s.seconds) : s.rows;
  const parts = [`${NUM.format(s.created)} created`, `${NUM.format(s.exists)} exists`, `${NUM.format(s.invalid)} invalid`, `${NUM.format(s.failed)} failed`];
  const resumed = s.resumed ? ` (${NUM.format(s.resumed)} from the earlier run)` : '';
  return `${NUM.format(s.rows)} rows: ${parts.join(', ')}${resumed} in ${s.seconds.toFixed(1)}s (${NUM.format(rate)} rows/s).`;
}

/** Maps a finished run to the exit: 0 all created/exists, 3 some invalid/failed, 130 interrupted. */
export function finishBulk(s: BulkSummary, opts: BulkOptions, ctx: BulkDeps['ctx']): void {
  if (s.interrupted) {
    ctx.io.stderr.write(`Interrupted: the rows in flight were finished and written to ${s.results}.\nResume with:\n  ${resumeCommand(opts, s.results!)}\n`);
    throw new SilentError(ExitCode.INTERRUPTED);
  }
  if (s.invalid + s.failed > 0) {
    throw new PartialFailureError(
      `${NUM.format(s.invalid + s.failed)} of ${NUM.format(s.rows)} rows were not invited (${NUM.format(s.invalid)} invalid, ${NUM.format(s.failed)} failed).`,
      s.results ? `see the status and error columns of ${s.results}; re-running the same file is safe (sent rows come back as "exists")` : undefined,
    );
  }
}

export type { Outcome, RowStatus };
