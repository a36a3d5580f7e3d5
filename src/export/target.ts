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
 */
import { closeSync, constants, createWriteStream, openSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Session } from '../core/session.js';
import { UsageError } from '../core/errors.js';
import type { ListWriter } from '../format/output.js';
import { NUM } from '../format/number.js';

export const INCOMPLETE_MARK = '#INCOMPLETE EXPORT';

export interface ExportTarget {
  /** The context to build the list writer with (stdout is the temporary file with --out). */
  ctx: Session;
  /** The file the export goes to, when --out was given. */
  file?: string;
  /** The run is complete: end the writer, then (with --out) rename the file into place. */
  commit(writer: ListWriter | undefined): Promise<void>;
  /**
   * The run failed: with --out, remove the temporary file; on stdout, end with
   * the incomplete mark. Says on stderr how many rows were written. Never throws.
   */
  abandon(writer: ListWriter | undefined, why: string): Promise<void>;
}

function withStdout(ctx: Session, stdout: WriteStream): Session {
  const io = Object.create(ctx.io, {
    stdout: { value: stdout },
    stdoutIsTTY: { value: false },
    colorStdout: { value: false },
  }) as Session['io'];
  return Object.create(ctx, { io: { value: io } }) as Session;
}

function endStream(s: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.end(() => resolve());
  });
}

/** Opens the destination of an export: stdout, or a temporary file for `--out FILE`. */
export function openTarget(ctx: Session, out: string | undefined, noun: string): ExportTarget {
  if (out === undefined) {
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
          ctx.io.stdout.write(`${INCOMPLETE_MARK}: ${NUM.format(rows)} ${noun} written before the run stopped (${why.replace(/\s+/g, ' ')})\n`);
        }
        ctx.io.stderr.write(`The output is incomplete: ${NUM.format(rows)} ${noun} were written before the run stopped; it ends with a "${INCOMPLETE_MARK}" line.\n`);
      },
    };
  }
  const file = out;
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`--out ${file} is a directory; give a file name.`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
  }
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.partial`);
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError(`Cannot write to the folder of ${file} (${code}).`);
  }
  let stream: WriteStream;
  try {
    stream = createWriteStream('', { fd, autoClose: true });
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  // Errors surface through end(); a listener keeps an early one from being unhandled.
  stream.on('error', () => {});
  return {
    ctx: withStdout(ctx, stream),
    file,
    async commit(writer) {
      try {
        await writer?.end();
        await endStream(stream);
        renameSync(tmp, file);
      } catch (err) {
        rmSync(tmp, { force: true });
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new UsageError(`Could not write ${file} (${code}); it was left as it was.`);
      }
    },
    async abandon(writer, _why) {
      await endStream(stream).catch(() => {});
      rmSync(tmp, { force: true });
      const rows = writer?.count ?? 0;
      ctx.io.stderr.write(`${file} was not written (the run stopped after ${NUM.format(rows)} ${noun}); nothing there was changed.\n`);
    },
  };
}
