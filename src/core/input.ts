/**
 * Input the user names on the command line: a file path, or `-` for stdin.
 * One reader for every command (keys, request bodies, id lists, webhook
 * bodies), with one sentence when the file cannot be read.
 *
 * Bounded: a file must be a regular file (never a device such as /dev/zero,
 * a FIFO or a folder) of at most INPUT_MAX_BYTES, and stdin stops being read
 * at that size; either is refused with one sentence (exit 2), in time linear
 * in what was read.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { UsageError } from './errors.js';
import type { IOStreams } from './io.js';

/** The most a file or stdin named on the command line may hold: 32 MiB. */
export const INPUT_MAX_BYTES = 32 * 1024 * 1024;

/** The refusal of an input past INPUT_MAX_BYTES, naming it. */
export const tooLarge = (what: string) => new UsageError(`${what} is larger than ${INPUT_MAX_BYTES / (1024 * 1024)} MiB; jobfit reads at most that much from one input.`);

/** All of stdin, as bytes, up to the bound. */
async function readStdinBytes(io: IOStreams): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > INPUT_MAX_BYTES) throw tooLarge('Standard input');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** The bytes of `source`: a regular file, or stdin for `-`. An unreadable or refused file is a UsageError naming it. */
export async function readInputBytes(io: IOStreams, source: string): Promise<Buffer> {
  if (source === '-') return readStdinBytes(io);
  let fh;
  try {
    // O_NONBLOCK: a FIFO must not hang the open; it is refused below.
    fh = await open(source, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${source}: ${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)}.`);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      const kind = st.isDirectory() ? 'a folder' : st.isFIFO() ? 'a FIFO (named pipe)' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'not a regular file';
      throw new UsageError(`Cannot read ${source}: it is ${kind}; give a regular file, or - for standard input.`);
    }
    if (st.size > INPUT_MAX_BYTES) throw tooLarge(source);
    // Read to the bound and one byte past it: a file that grows while read is still bounded.
    const buf = Buffer.alloc(Math.min(st.size + 1, INPUT_MAX_BYTES + 1));
    let len = 0;
    for (;;) {
      if (len === buf.length) break;
      const { bytesRead } = await fh.read(buf, len, buf.length - len, len);
      if (bytesRead === 0) break;
      len += bytesRead;
    }
    if (len > INPUT_MAX_BYTES) throw tooLarge(source);
    return buf.subarray(0, len);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  } finally {
    await fh.close();
  }
}

/** The text (UTF-8) of `source`: a file, or stdin for `-`. */
export async function readInput(io: IOStreams, source: string): Promise<string> {
  return (await readInputBytes(io, source)).toString('utf8');
}
