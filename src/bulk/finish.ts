/**
 * After a bulk invite run: the one line of figures, the exit it maps to,
 * the command that resumes it, and a write failure as one sentence.
 */
import { existsSync } from 'node:fs';
import { ExitCode, InterruptError, JobfitError, PartialFailureError, SilentError } from '../core/errors.js';
import { NUM } from '../format/number.js';
import { commandLine, shellOf } from '../format/command-line.js';
import { safeLine } from '../format/sanitize.js';
import { fileErrorCause } from './output-files.js';
import { type BulkDeps, type BulkRunOptions, type BulkSummary, DEFAULT_CONCURRENCY } from './types.js';

/**
 * The command that continues a run, quoted for the shell of the platform. A run
 * of standard input is continued with the same bytes: `< SAME_FILE` in a POSIX
 * shell; on Windows `--csv SAME_FILE` (PowerShell has no `<`, and its pipe
 * re-encodes text; a resume reads its rows by number whatever the input's name).
 */
export function resumeCommand(o: BulkRunOptions, out: string, platform: NodeJS.Platform = process.platform): string {
  const shell = shellOf(platform);
  const stdin = o.csv === '-';
  const csv = stdin && shell === 'windows' ? 'SAME_FILE' : o.csv;
  const parts = ['jobfit', 'invite', '--csv', csv, '--out', out, o.retryFailed ? '--retry-failed' : '--resume'];
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
  const cmd = commandLine(parts, shell);
  return stdin && shell === 'posix' ? `${cmd} < SAME_FILE` : cmd;
}

/** A full or read-only disk (or another write error) as one sentence: the file, the cause, what was sent, how to resume. */
export function writeFailure(err: unknown, file: string, opts: BulkRunOptions, out: string, sent: number): JobfitError {
  const what = sent > 0 ? `${NUM.count(sent, 'row')} ${sent === 1 ? 'was' : 'were'} sent and are in the journal; ` : 'nothing was sent; ';
  const kept = existsSync(out) ? 'the previous results file was left as it was' : 'no results file was written';
  return new JobfitError(`Cannot write ${file}: ${fileErrorCause(err)}. The run stopped: ${what}${kept}.`, {
    hint: `make room (or make it writable), then: ${resumeCommand(opts, out)}`,
    cause: err,
  });
}

/** Every run's figures in one line: what happened to each row, and the pace of the rows actually sent. */
export function bulkSummaryLine(s: BulkSummary): string {
  const rate = s.seconds > 0 ? Math.round(s.sent / s.seconds) : s.sent;
  const notSent = s.unknown ? `${NUM.format(s.notSent)} not sent (${NUM.format(s.unknown)} of them unanswered)` : `${NUM.format(s.notSent)} not sent`;
  const parts = [`${NUM.format(s.created)} created`, `${NUM.format(s.exists)} exists`, `${NUM.format(s.invalid)} invalid`, `${NUM.format(s.failed)} failed`, notSent];
  const resumed = s.resumed ? ` (${NUM.format(s.resumed)} from the earlier run)` : '';
  return `${NUM.count(s.rows, 'row')}: ${parts.join(', ')}${resumed} in ${s.seconds.toFixed(1)}s (${NUM.format(s.sent)} sent, ${NUM.format(rate)} rows/s).`;
}

/** Maps a finished run to the exit: 0 all created/exists, 3 some invalid/failed or without a known outcome, 130 interrupted (143, 129: SIGTERM, SIGHUP; cli/main.ts). */
export function finishBulk(s: BulkSummary, opts: BulkRunOptions, ctx: BulkDeps['ctx']): void {
  if (s.interrupted) {
    const reason: unknown = ctx.io.signal.reason;
    const by = reason instanceof InterruptError && reason.signal !== 'SIGINT' ? ` (${reason.signal})` : '';
    ctx.io.stderr.write(
      `Interrupted${by}: the rows in flight were finished; ${NUM.count(s.notSent, 'row')} ${s.notSent === 1 ? 'was' : 'were'} not sent. Everything is in ${safeLine(s.results ?? '')}.\nResume with:\n  ${resumeCommand(opts, s.results!)}\n`,
    );
    throw new SilentError(ExitCode.INTERRUPTED);
  }
  if (s.invalid + s.failed > 0) {
    const retry = s.failed > 0 && s.results ? `; send the failed rows again with: ${resumeCommand({ ...opts, resume: false, retryFailed: true }, s.results)}` : '';
    throw new PartialFailureError(
      `${NUM.format(s.invalid + s.failed)} of ${NUM.count(s.rows, 'row')} ${s.invalid + s.failed === 1 ? 'was' : 'were'} not invited (${NUM.format(s.invalid)} invalid, ${NUM.format(s.failed)} failed).`,
      s.results ? `see the status and error columns of ${s.results}${retry}` : undefined,
    );
  }
  if (s.notSent > 0) {
    // A row answered 201 without an id that no lookup found yet: made, but not known; never exit 0 on it.
    throw new PartialFailureError(
      `${NUM.format(s.notSent)} of ${NUM.count(s.rows, 'row')} ${s.notSent === 1 ? 'has' : 'have'} no known outcome (${NUM.format(s.unknown)} unanswered or answered without an invitation id).`,
      s.results ? `settle them with: ${resumeCommand(opts, s.results)} (it looks them up by email, it never sends twice)` : undefined,
    );
  }
}
