/**
 * Where the failures of a run's items go (one id each): stderr lines, held
 * until the end, or `--errors FILE` as NDJSON; and the one-line text of an
 * error in them; and the exit 3 of a run where some failed.
 */
import { fileErrorCause } from '../core/files.js';
import { openOutFile, type OutFile } from './out-file.js';
import type { Session } from '../core/session.js';
import { JobfitError, PartialFailureError } from '../core/errors.js';
import type { BulkResult } from './bulk-fetch.js';
import { safeText } from '../format/sanitize.js';

/** The one-line text of an error for a report. */
export function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'apiText' in err && typeof (err as { apiText: unknown }).apiText === 'string') {
    const e = err as { apiText: string; status?: number };
    return e.status ? `${e.apiText} (HTTP ${e.status})` : e.apiText;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Where per-item failures go: stderr lines, or NDJSON records in a file
 * (`{"id":…,"status":"failed"|"skipped","error":"…","http_status":…}`).
 */
export interface ErrorSink {
  failed(id: unknown, err: unknown): void;
  skipped(id: unknown, reason: string): void;
  /**
   * Flushes what was held. `stopped`: the run ended early (the service gone,
   * Ctrl-C); the per-id lines, mostly the same unreachable service, give way
   * to one line with their count.
   */
  close(opts?: { stopped?: boolean }): Promise<void>;
  /** The run was refused before it began: no --errors file is left behind. */
  discard(): void;
}

export function createErrorSink(ctx: Session, file?: string, what = 'item'): ErrorSink {
  let failures = 0;
  let first = '';
  const STDERR_MAX = 20;
  // Lines wait until close(): a progress bar redrawing its line would tear
  // them apart, and a run that stops because the service is gone says so once
  // instead of once per id.
  const held: string[] = [];
  // The file is written through the one writer path of every --out (out-file.ts:
  // owner-only, never a link, a special or another user's file; its size
  // checked, synced and renamed into place at close).
  let output: OutFile | undefined = file === undefined ? undefined : openOutFile(file, '--errors');
  const record = (id: unknown, status: 'failed' | 'skipped', text: string, httpStatus?: number) => {
    if (output) {
      output.stream.write(`${JSON.stringify({ id, status, error: text, ...(httpStatus ? { http_status: httpStatus } : {}) })}\n`);
      return;
    }
    if (status === 'skipped') return;
    if (failures === 0) first = `${what} ${id}: ${text}`;
    // A long list of the same failure helps nobody; the summary gives the count.
    if (failures++ < STDERR_MAX) held.push(`Error: ${what} ${id}: ${text}\n`);
    else if (failures === STDERR_MAX + 1) held.push(`(further errors not shown; use --errors FILE for all of them)\n`);
  };
  return {
    failed(id, err) {
      record(id, 'failed', errorText(err), (err as { status?: number } | null)?.status);
    },
    skipped(id, reason) {
      record(id, 'skipped', reason);
    },
    close(opts = {}) {
      // Error lines quote the service's messages: a stranger's text, sanitised.
      if (opts.stopped && failures > 0) ctx.io.stderr.write(safeText(`${failures} ${what}${failures === 1 ? '' : 's'} failed before the run stopped (the first: ${first.replace(/\.$/, '')}).\n`));
      else for (const line of held) ctx.io.stderr.write(safeText(line));
      held.length = 0;
      if (!output) return Promise.resolve();
      const out = output;
      output = undefined;
      // A failed write is never passed off as "the failures are listed in FILE".
      return out.commit().catch((err: unknown) => {
        throw new JobfitError(`Could not write --errors ${file}: ${fileErrorCause(err)}; the failures were not saved there.`, { cause: err });
      });
    },
    discard() {
      output?.discardUnwritten();
      output = undefined;
    },
  };
}

/** Exit 3 when some items failed, with one sentence saying how many. */
export function throwIfFailed(r: BulkResult, noun: string, errorsFile?: string): void {
  if (r.failed === 0) return;
  const total = r.ok + r.skipped + r.failed;
  throw new PartialFailureError(
    `${r.failed} of ${total} ${noun} could not be fetched; the others were written.`,
    errorsFile ? `the failures are listed in ${errorsFile}` : 'run again with --errors FILE to keep the list of failures',
  );
}
