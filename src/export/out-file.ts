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
 * openOutFile (a stream: --out, --errors, a bulk results workbook) or its
 * synchronous side in core/whole-file.ts (openOutFileSync, writeOutFileSync:
 * the bulk results file, the note of failed ids and a --retry-failed merge,
 * the webhook listener's files, its queue of events not yet synced), one
 * check (checkAndPlace) for both. A file only appended to (a log) takes each
 * append whole or not at all (appendWholeSync).
 */
import { write } from 'node:fs';
import { Writable } from 'node:stream';
import { createPrivateOutput, type PrivateOutput } from '../core/files.js';
import { checkAndPlace } from '../core/whole-file.js';

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

