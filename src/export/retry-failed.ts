/**
 * `scorecard --out FILE --retry-failed` and `job-fit --out FILE --retry-failed`,
 * as bulk invite's: an export with `--out` that ended with some test takers
 * failed leaves a note beside FILE (`FILE.failed.json`: the command, the
 * score profile, the format, the failed ids; owner-only). `--retry-failed`
 * fetches just those ids, writes them to a file of their own, and merges it
 * into FILE (CSV: the rows under the same header; NDJSON: the lines; JSON: the
 * items of the array or of the envelope's `data`), through the one writer
 * path (writeOutFileSync, core/whole-file.ts: a private temporary file, its size
 * checked, synced, renamed): FILE is never half merged, and a full disk
 * leaves it (and the note) as they were. What fails again stays in the note; a
 * clean retry removes it. xlsx and html are not merged (run the export again).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { JobfitError, UsageError } from '../core/errors.js';
import { fileErrorCause } from '../core/files.js';
import { writeOutFileSync } from '../core/whole-file.js';
import { NUM } from '../format/number.js';

export interface FailedNote {
  command: 'scorecard' | 'job-fit';
  sp?: string;
  format: string;
  ids: number[];
  at: string;
}

export const MERGEABLE = ['csv', 'ndjson', 'json'] as const;
export const failedNotePath = (out: string) => `${out}.failed.json`;

/** The file a retry writes its own rows to, beside FILE (same folder: the rename of the merge is atomic). */
export const retryPartPath = (out: string) => join(dirname(out), `.${basename(out, extname(out))}.retry-${process.pid}${extname(out)}`);

/** After an export to `out`: the note of its failed ids, or none when nothing failed. */
export function noteFailures(out: string, note: Omit<FailedNote, 'at'>, now: Date): void {
  const path = failedNotePath(out);
  if (note.ids.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  try {
    writeOutFileSync(path, 'the note of failed test takers', `${JSON.stringify({ ...note, ids: [...note.ids].sort((a, b) => a - b), at: now.toISOString() })}\n`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // An earlier note names the failures of the file this run replaced: a retry from it would merge the wrong people.
    rmSync(path, { force: true });
    throw new JobfitError(
      `Could not write ${path}, the list of the ${note.ids.length} test takers that failed: ${fileErrorCause(err)}; ${out} was written without them, and --retry-failed cannot fetch them.`,
      { cause: err, hint: 'make room, then run the export again' },
    );
  }
}

/** The note of the last export to `out`, checked against this run; a usage error says why a retry cannot be made. */
export function readFailedNote(out: string, command: FailedNote['command'], sp: string | undefined, format: string): FailedNote {
  if (!existsSync(out)) throw new UsageError(`--retry-failed merges into ${out}, which does not exist.`, 'run the export with --out FILE first');
  let note: FailedNote;
  try {
    note = JSON.parse(readFileSync(failedNotePath(out), 'utf8')) as FailedNote;
  } catch {
    throw new UsageError(`Nothing to retry for ${out}: the last export to it had no failed test takers (no ${basename(failedNotePath(out))} beside it).`);
  }
  if (note.command !== command) throw new UsageError(`${out} was written by \`jobfit ${note.command}\`, not \`jobfit ${command}\`.`);
  if (note.sp !== sp) throw new UsageError(`${out} holds scorecards for --sp ${note.sp}; retry with --sp ${note.sp}.`);
  if (!(MERGEABLE as readonly string[]).includes(format)) throw new UsageError(`--retry-failed merges into CSV, NDJSON or JSON, not ${format}; run the export again for a workbook or a page.`);
  if (note.format !== format) throw new UsageError(`${out} is ${note.format}; retry with -o ${note.format}.`);
  if (!Array.isArray(note.ids) || note.ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw new UsageError(`${failedNotePath(out)} is damaged; run the export again.`);
  return note;
}

function mergeText(format: string, old: string, part: string, out: string): string {
  if (format === 'ndjson') return `${old}${old === '' || old.endsWith('\n') ? '' : '\n'}${part}`;
  if (format === 'csv') {
    const [oldHead] = old.split('\n', 1);
    const nl = part.indexOf('\n');
    const partHead = nl < 0 ? part : part.slice(0, nl);
    if (oldHead.replace(/^\uFEFF/, '') !== partHead.replace(/^\uFEFF/, '')) throw new UsageError(`${out} has other columns than this export; run the export again.`);
    return `${old}${old.endsWith('\n') ? '' : '\n'}${nl < 0 ? '' : part.slice(nl + 1)}`;
  }
  const a = JSON.parse(old) as unknown;
  const b = JSON.parse(part) as unknown;
  const items = (d: unknown) => (Array.isArray(d) ? d : (d as { data?: unknown[] })?.data ?? []);
  const data = [...items(a), ...items(b)];
  const merged = Array.isArray(a) ? data : { ...(a as object), data, ...('total_count' in (a as object) ? { total_count: data.length } : {}) };
  return `${JSON.stringify(merged, null, 2)}\n`;
}

/** Merges the retry's own file into `out` (temporary file and rename), then removes it. Returns the rows it added. */
export function mergePart(out: string, part: string, format: string): void {
  try {
    const merged = mergeText(format, readFileSync(out, 'utf8'), readFileSync(part, 'utf8'), out);
    try {
      writeOutFileSync(out, '--out', merged);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new JobfitError(`Could not merge the retried test takers into ${out}: ${fileErrorCause(err)}; it was left as it was, and ${basename(failedNotePath(out))} still lists them.`, {
        cause: err,
        hint: 'make room, then run the same --retry-failed again',
      });
    }
  } finally {
    rmSync(part, { force: true });
  }
}

/** The sentence after a retry. */
export function retrySentence(out: string, asked: number, failedAgain: number): string {
  const again = failedAgain ? `; ${NUM.format(failedAgain)} failed again (still in ${basename(failedNotePath(out))}: --retry-failed once more)` : '';
  return `Retried ${NUM.count(asked, 'test taker')} of the last export; merged into ${out}${again}.`;
}
