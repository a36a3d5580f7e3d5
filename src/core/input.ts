/**
 * Input the user names on the command line: a file path, or `-` for stdin.
 * One reader for every command (keys, request bodies, id lists, webhook
 * bodies), with one sentence when the file cannot be read.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from './errors.js';
import type { IOStreams } from './io.js';

/** All of stdin, as bytes. */
async function readStdinBytes(io: IOStreams): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** The bytes of `source`: a file, or stdin for `-`. An unreadable file is a UsageError naming it. */
export async function readInputBytes(io: IOStreams, source: string): Promise<Buffer> {
  if (source === '-') return readStdinBytes(io);
  try {
    return await readFile(source);
  } catch (err) {
    throw new UsageError(`Cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
}

/** The text (UTF-8) of `source`: a file, or stdin for `-`. */
export async function readInput(io: IOStreams, source: string): Promise<string> {
  return (await readInputBytes(io, source)).toString('utf8');
}
