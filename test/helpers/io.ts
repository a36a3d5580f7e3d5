/**
 * In-memory IOStreams for in-process tests, built on the real createIO so the
 * TTY, colour and prompting rules under test are the shipped ones.
 */
import { Readable } from 'node:stream';
import type { IOStreams, OutStream } from '../../src/core/io.js';
import { createIO } from '../../src/core/io.js';

export interface MemoryIOOptions {
  /** stdout, stderr and stdin are terminals (default false: piped). */
  tty?: boolean;
  /** Override per stream. */
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  /** Terminal width (default 80). */
  columns?: number;
  env?: Record<string, string | undefined>;
  /** What stdin yields (default: nothing). */
  stdin?: string;
  now?: () => Date;
  noColor?: boolean;
  signal?: AbortSignal;
}

export interface MemoryIO {
  io: IOStreams;
  stdout(): string;
  stderr(): string;
}

class MemoryOut implements OutStream {
  buf = '';
  constructor(readonly isTTY: boolean, readonly columns: number | undefined) {}
  write(chunk: string): boolean {
    this.buf += chunk;
    return true;
  }
}

export function memoryIO(o: MemoryIOOptions = {}): MemoryIO {
  const tty = o.tty ?? false;
  const outTTY = o.stdoutTTY ?? tty;
  const errTTY = o.stderrTTY ?? tty;
  const stdout = new MemoryOut(outTTY, outTTY ? (o.columns ?? 80) : o.columns);
  const stderr = new MemoryOut(errTTY, errTTY ? (o.columns ?? 80) : o.columns);
  const stdin = Readable.from(o.stdin === undefined ? [] : [o.stdin]) as Readable & { isTTY?: boolean };
  stdin.isTTY = o.stdinTTY ?? tty;
  // A clean environment: the developer's NO_COLOR, CI or FORCE_COLOR must not leak into tests.
  const env: Record<string, string | undefined> = { ...(o.env ?? {}) };
  const io = createIO({ stdout, stderr, stdin, env, now: o.now, noColor: o.noColor, signal: o.signal });
  return { io, stdout: () => stdout.buf, stderr: () => stderr.buf };
}
