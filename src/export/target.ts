/**
 * Where an export goes, and how a failed one is told apart from a finished one.
 *
 * `--out FILE`: rows go to a temporary file beside FILE (same folder, so the
 * rename is atomic), owner-only, renamed onto FILE only when the run is
 * complete. A failed or interrupted run removes its temporary file: FILE is
 * never created and an existing FILE is never touched.
 *
 * stdout: a failed run cannot take back what it wrote, so it ends the output
 * with one line that is not a row (docs/exports.md, "Incomplete exports"):
 *   csv     `#INCOMPLETE EXPORT: …` (one cell: a strict CSV reader rejects the
 *           column count; the first column is no longer an id)
 *   ndjson  `#INCOMPLETE EXPORT: …` (not JSON: `jq` and JSON.parse fail on it)
 *   json    the list is left open and the same line follows (not valid JSON)
 * and stderr says how many rows were written and that the output is incomplete.
 *
 * A write that failed (a full disk behind `> FILE`) is never passed over: the
 * summary then says the rows were handed to the output, not written, and that
 * the output is incomplete.
 */
import type { Writable } from 'node:stream';
import type { Session } from '../core/session.js';
import { JobfitError } from '../core/errors.js';
import { fileErrorCause } from '../core/files.js';
import { openOutFile } from './out-file.js';
import type { ListWriter } from '../format/output.js';
import { NUM } from '../format/number.js';
import { safeLine } from '../format/sanitize.js';

export const INCOMPLETE_MARK = '#INCOMPLETE EXPORT';

export interface ExportTarget {
  /** The context to build the list writer with (stdout is the temporary file with --out). */
  ctx: Session;
  /** The file the export goes to, when --out was given. */
  file?: string;
  /** The run is complete: end the writer, then (with --out) rename the file into place. A failed write throws (exit 1), the old file kept. */
  commit(writer: ListWriter | undefined): Promise<void>;
  /**
   * The run failed: with --out, remove the temporary file; on stdout, end with
   * the incomplete mark. Says on stderr how many rows were written. Never throws.
   */
  abandon(writer: ListWriter | undefined, why: string): Promise<void>;
  /** Nothing was written (the run was refused before it began): with --out, remove the temporary file, silently. */
  discard(): void;
  /**
   * A write to the output failed (a full disk behind `> FILE`): the rows were
   * handed to it, but not all reached it. Waits one turn of the event loop
   * first: a failed write is reported as an event after it.
   */
  writeFailed(): Promise<boolean>;
}

function withStdout(ctx: Session, stdout: Writable): Session {
  const io = Object.create(ctx.io, {
    stdout: { value: stdout },
    stdoutIsTTY: { value: false },
    colorStdout: { value: false },
    stdoutIsOutFile: { value: true },
  }) as Session['io'];
  return Object.create(ctx, { io: { value: io } }) as Session;
}

/** One turn of the event loop, for an error event that is on its way. */
const aTurn = () => new Promise((r) => setImmediate(r));

/** The line that ends an incomplete export on stdout; `why` is the service's text, sanitised. */
export function incompleteLine(rows: number, noun: string, why: string): string {
  return `${INCOMPLETE_MARK}: ${NUM.format(rows)} ${noun} written before the run stopped (${safeLine(why.replace(/\s+/g, ' '))})\n`;
}

/**
 * Opens the destination of an export: stdout, or a temporary file for `--out
 * FILE` (createPrivateOutput: a link, a FIFO, a device or another user's file
 * at FILE is refused, exit 2, nothing created).
 */
export function openTarget(ctx: Session, out: string | undefined, noun: string): ExportTarget {
  if (out === undefined) {
    // cli/main.ts names the file and the cause of a failed write to stdout, once, at the end.
    const stdoutFailed = async () => {
      if (!ctx.io.stdoutError) return false;
      // A reader that left (`| head`) fails what node's stream still holds: known before the summary is said.
      await (ctx.io.stdoutSettled?.() ?? aTurn());
      return ctx.io.stdoutError() !== undefined;
    };
    return {
      ctx,
      async commit(writer) {
        await writer?.end();
      },
      async abandon(writer, why) {
        // Nothing was written yet (a report writes only at the end): nothing to mark.
        if (!writer) return;
        const rows = writer.count;
        if (writer.format !== 'table') {
          await writer.drained();
          ctx.io.stdout.write(incompleteLine(rows, noun, why));
        }
        ctx.io.stderr.write(
          (await stdoutFailed())
            ? `The output is incomplete: ${NUM.format(rows)} ${noun} were handed to it before the run stopped, but a write to it failed, so not all of them reached it and it may not end with a "${INCOMPLETE_MARK}" line.\n`
            : `The output is incomplete: ${NUM.format(rows)} ${noun} were written before the run stopped; it ends with a "${INCOMPLETE_MARK}" line.\n`,
        );
      },
      discard() {},
      writeFailed: stdoutFailed,
    };
  }
  const file = out;
  // The one writer path of every --out (out-file.ts): written, its size checked, synced, then renamed.
  const output = openOutFile(file);
  return {
    ctx: withStdout(ctx, output.stream),
    file,
    async commit(writer) {
      try {
        await writer?.end();
        await output.commit();
      } catch (err) {
        await output.discard();
        throw new JobfitError(`Could not write ${file}: ${fileErrorCause(err)}; it was left as it was.`, { cause: err });
      }
    },
    async abandon(writer, _why) {
      await output.discard();
      const rows = writer?.count ?? 0;
      ctx.io.stderr.write(`${safeLine(file)} was not written (the run stopped after ${NUM.format(rows)} ${noun}); nothing there was changed.\n`);
    },
    discard() {
      output.discardUnwritten();
    },
    async writeFailed() {
      await aTurn();
      return output.failed() !== undefined;
    },
  };
}
