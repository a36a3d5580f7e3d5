/**
 * The synchronous side of the one writer path (export/out-file.ts is its
 * stream side, for `--out`): a file put in place for a person (the bulk
 * results file, the note of failed ids, a --retry-failed merge, the webhook
 * listener's files and its queue of events not yet synced, a served stub's
 * note, a cache) is written to a private temporary file beside it
 * (createPrivateOutput), every byte of it (a short write is continued), and
 * renamed into place only once its size is the count of bytes produced and
 * fsync succeeded; anything else removes the temporary file and leaves the
 * file as it was. A file only appended to (a log) takes each append whole or
 * not at all (appendWholeSync).
 */
import { fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { createPrivateOutput, type PrivateOutput } from './files.js';

/**
 * The one check before a file is put in place, for both writers: the file
 * holds exactly the bytes produced, every one of them was taken; then
 * PrivateOutput.commit syncs, closes and renames. On any failure the
 * temporary file is removed (FILE left as it was) and the error thrown.
 */
export function checkAndPlace(output: PrivateOutput, produced: number, written: number): void {
  try {
    checkSize(output.fd, produced, written);
    output.commit();
  } catch (err) {
    output.discard();
    throw err;
  }
}

function checkSize(fd: number, produced: number, written: number): void {
  const size = fstatSync(fd).size;
  // A write error of its own (a code and a syscall, as node's are): every caller says it as it says a full disk.
  if (size !== produced || written !== produced) throw Object.assign(new Error(`it holds ${size} of the ${produced} bytes written to it`), { code: 'ESHORTWRITE', syscall: 'write' });
}

/** The synchronous writer of the same path (a results file, a small state file): what OutFile is, without a stream. */
export interface OutFileSync {
  /** The destination. */
  readonly path: string;
  /** The temporary file, until commit or discard. */
  readonly tmp: string;
  /** Writes every byte (a short write is continued); throws the first error, and every later write throws it again. */
  write(data: string | Buffer): void;
  /** Throws unless the temporary file holds every byte written so far (for a caller that reads it back, not putting it in place). */
  check(): void;
  /** Checks, syncs and renames, as OutFile.commit; throws the first problem (the temporary file removed, FILE left as it was). */
  commit(): void;
  /** Closes and removes the temporary file. Never throws. */
  discard(): void;
}

/** Opens FILE for the synchronous writer (createPrivateOutput's refusals: exit 2, nothing created). */
export function openOutFileSync(path: string, what: string): OutFileSync {
  const output = createPrivateOutput(path, what);
  let produced = 0;
  let written = 0;
  let failure: Error | undefined;
  return {
    path,
    tmp: output.tmp,
    write(data) {
      const b = typeof data === 'string' ? Buffer.from(data) : data;
      produced += b.length;
      if (failure) throw failure;
      try {
        let off = 0;
        while (off < b.length) off += writeSync(output.fd, b, off, b.length - off);
        written += b.length;
      } catch (err) {
        failure = err as Error;
        throw err;
      }
    },
    check() {
      if (failure) throw failure;
      checkSize(output.fd, produced, written);
    },
    commit() {
      if (failure) {
        output.discard();
        throw failure;
      }
      checkAndPlace(output, produced, written);
    },
    discard() {
      output.discard();
    },
  };
}

/** Writes `data` to FILE whole, the one way (write, check the size, fsync, rename); throws the first problem, FILE left as it was and nothing beside it. */
export function writeOutFileSync(path: string, what: string, data: string | Buffer): void {
  const out = openOutFileSync(path, what);
  try {
    out.write(data);
  } catch (err) {
    out.discard();
    throw err;
  }
  out.commit();
}

/**
 * Appends `text` whole to a file opened for appending (a log): every byte,
 * or none. A write that fails part-way (a full disk: a short write, then
 * ENOSPC) is cut back to the size the file had, so no line is left half
 * written, and the error thrown: the caller says it. (On Windows a
 * descriptor opened for appending has no right to truncate: there the cut
 * part stays, and the error is still thrown and said.)
 */
export function appendWholeSync(fd: number, text: string): void {
  const b = Buffer.from(text);
  const before = fstatSync(fd).size;
  let off = 0;
  try {
    while (off < b.length) off += writeSync(fd, b, off, b.length - off);
  } catch (err) {
    try {
      if (off > 0) ftruncateSync(fd, before);
    } catch {
      // the error said below is the write's
    }
    throw err;
  }
}
