/**
 * The one writer path of every `--out FILE` (issue 43, item 3): the bytes go
 * to a temporary file beside FILE (createPrivateOutput: owner-only, never a
 * link, a device or another user's file), and FILE is put in place only
 * when
 *
 *   1. every write succeeded (the first error, a full disk, is kept: nothing
 *      after it is taken for written),
 *   2. the file's size is the count of bytes the formatters produced,
 *   3. fsync succeeded,
 *
 * then renamed. Anything else removes the temporary file and leaves FILE as
 * it was. The stream counts what it is given, not what a caller believes it
 * gave, so no format and no command can put a cut file in place.
 *
 * Every other file jobfit puts in place for a person goes the same way:
 * openOutFile (a stream: --out, --errors, a bulk results workbook) or
 * openOutFileSync / writeOutFileSync (the bulk results file, the note of
 * failed ids and a --retry-failed merge, the webhook listener's files, its
 * queue of events not yet synced), one check (checkAndPlace) for both. A file
 * only appended to (a log) takes each append whole or not at all
 * (appendWholeSync).
 */
import { fstatSync, ftruncateSync, write, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createPrivateOutput, type PrivateOutput } from '../core/files.js';

/** Writes every byte of `buf` at the descriptor's position (a short write is continued, as a regular file may give one before ENOSPC). */
function writeAll(fd: number, buf: Buffer, done: (err?: Error | null) => void): void {
  write(fd, buf, 0, buf.length, null, (err, n) => {
    if (err) return done(err);
    if (n < buf.length) return writeAll(fd, buf.subarray(n), done);
    done();
  });
}

/** A stream onto the temporary file that counts the bytes it was given and keeps its first error. */
class CountedFile extends Writable {
  /** Bytes handed to the stream. */
  produced = 0;
  /** Bytes the system took. */
  written = 0;
  failure?: Error;

  constructor(private readonly fd: number) {
    super({ decodeStrings: true, highWaterMark: 64 * 1024 });
    // Kept, not thrown: commit() reports it (an 'error' with no listener would end the process).
    this.on('error', (err) => {
      this.failure ??= err;
    });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.take(chunk, cb);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.take(chunks.length === 1 ? chunks[0].chunk : Buffer.concat(chunks.map((c) => c.chunk)), cb);
  }

  private take(buf: Buffer, cb: (err?: Error | null) => void): void {
    this.produced += buf.length;
    if (this.failure) return cb(this.failure);
    writeAll(this.fd, buf, (err) => {
      if (err) this.failure ??= err;
      else this.written += buf.length;
      cb(err);
    });
  }
}

export interface OutFile {
  /** What the formatters write to. */
  stream: Writable;
  /** The first write error, if any (known once the write's callback came). */
  failed(): Error | undefined;
  /**
   * Ends the stream, then checks, syncs and renames (see above). Throws the
   * first problem (the temporary file removed, FILE left as it was).
   */
  commit(): Promise<void>;
  /** Ends the stream (what it holds goes to the temporary file) and removes the temporary file. Never throws. */
  discard(): Promise<void>;
  /** Nothing was written yet (the run was refused before it began): closes and removes the temporary file now. */
  discardUnwritten(): void;
}

/** Ends `s` and resolves once everything given to it was written or failed. */
function settle(s: CountedFile): Promise<void> {
  return new Promise((resolve) => {
    if (s.destroyed || s.writableFinished) return resolve();
    s.once('close', resolve);
    s.once('error', () => resolve());
    s.end(() => resolve());
  });
}

/**
 * The one check before a file is put in place, for both writers: the file
 * holds exactly the bytes produced, every one of them was taken; then
 * PrivateOutput.commit syncs, closes and renames. On any failure the
 * temporary file is removed (FILE left as it was) and the error thrown.
 */
function checkAndPlace(output: PrivateOutput, produced: number, written: number): void {
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
  if (size !== produced || written !== produced) throw new Error(`it holds ${size} of the ${produced} bytes written to it`);
}

/** Opens `--out FILE` the one way (createPrivateOutput's refusals: exit 2, nothing created). */
export function openOutFile(path: string, what = '--out'): OutFile {
  const output: PrivateOutput = createPrivateOutput(path, what);
  const stream = new CountedFile(output.fd);
  let ended = false;
  return {
    stream,
    failed: () => stream.failure,
    async commit() {
      if (ended) return;
      ended = true;
      await settle(stream);
      if (stream.failure) {
        output.discard();
        throw stream.failure;
      }
      checkAndPlace(output, stream.produced, stream.written);
    },
    async discard() {
      if (ended) return;
      ended = true;
      // Ended, not destroyed: a write still in flight finishes before the descriptor is closed (never one reused meanwhile).
      await settle(stream);
      output.discard();
    },
    discardUnwritten() {
      if (ended) return;
      ended = true;
      stream.destroy();
      output.discard();
    },
  };
}

/** The synchronous writer of the same path (a results file, a small state file): what OutFile is, without a stream. */
export interface OutFileSync {
  /** The destination. */
  readonly path: string;
  /** The temporary file, until commit or discard. */
  readonly tmp: string;
  /** Writes every byte (a short write is continued); throws the first error, and every later write throws it again. */
  write(data: string | Buffer): void;
  /** The first write error, if any. */
  failed(): Error | undefined;
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
    failed: () => failure,
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
 * written, and the error thrown: the caller says it.
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
