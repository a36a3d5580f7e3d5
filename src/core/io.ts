/**
 * The I/O of a run: streams, TTY facts, environment, clock and the Ctrl-C
 * signal, in one object (tests build one on memory streams).
 */
import { fstatSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { InterruptError, STOP_SIGNALS, type StopSignal } from './errors.js';

export interface OutStream {
  /** A workbook writes bytes (format/xlsx.ts); everything else text. */
  write(chunk: string | Uint8Array): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface IOStreams {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** The clock, injectable for tests. */
  now(): Date;
  /** stdout is a terminal: tables, colour, progress allowed. */
  readonly stdoutIsTTY: boolean;
  /** stderr is a terminal: progress bars, spinners. */
  readonly stderrIsTTY: boolean;
  /**
   * stdout is a file written for a person (`--out FILE`, export/target.ts): CSV then
   * starts with a UTF-8 byte order mark, which Excel needs to read UTF-8 (docs/exports.md).
   */
  readonly stdoutIsOutFile?: boolean;
  /** Colour on stdout / stderr: only on a TTY and never with NO_COLOR or --no-color. */
  readonly colorStdout: boolean;
  readonly colorStderr: boolean;
  /** A person can answer prompts: stdin and stderr are terminals and JOBFIT_NO_PROMPT is unset. */
  readonly canPrompt: boolean;
  /** Terminal width for tables (80 when unknown). */
  readonly columns: number;
  /**
   * Ctrl-C (and SIGTERM, SIGHUP) arrives here, with an InterruptError as its
   * reason; long-running commands subscribe and finish cleanly.
   */
  readonly signal: AbortSignal;
  /**
   * The first error writing stdout (a full disk behind `> FILE`), once one
   * happened: the run then cannot end with exit 0 (cli/main.ts says so).
   */
  stdoutError?(): NodeJS.ErrnoException | undefined;
  /**
   * Resolves once a failed write to stdout has been told to stdoutError: at
   * once for a descriptor written synchronously (DescriptorOut); when node's
   * stream is in use (its errors are events), once it has handed on all it
   * holds, and a turn after.
   */
  stdoutSettled?(): Promise<void>;
}


export interface IOOptions {
  stdout: OutStream;
  stderr: OutStream;
  /** Read only when a command reads stdin (a getter keeps process.stdin, ~2-3 ms to set up, unopened). */
  stdin: IOStreams['stdin'];
  /** Whether stdin is a terminal, when known without touching `stdin`. */
  stdinIsTTY?: boolean;
  env: Record<string, string | undefined>;
  now?: () => Date;
  signal?: AbortSignal;
  /** --no-color given */
  noColor?: boolean;
}

/** The single place that decides TTY, colour and whether prompting is allowed. */
export function createIO(o: IOOptions): IOStreams {
  const stdoutIsTTY = Boolean(o.stdout.isTTY);
  const stderrIsTTY = Boolean(o.stderr.isTTY);
  const colorAllowed = !o.noColor && o.env.NO_COLOR === undefined && o.env.TERM !== 'dumb';
  const forced = o.env.FORCE_COLOR !== undefined && o.env.FORCE_COLOR !== '0';
  const stdinIsTTY = o.stdinIsTTY ?? Boolean(o.stdin.isTTY);
  return {
    stdout: o.stdout,
    stderr: o.stderr,
    get stdin() {
      return o.stdin;
    },
    env: o.env,
    now: o.now ?? (() => new Date()),
    stdoutIsTTY,
    stderrIsTTY,
    colorStdout: colorAllowed && (stdoutIsTTY || forced),
    colorStderr: colorAllowed && (stderrIsTTY || forced),
    canPrompt: stdinIsTTY && stderrIsTTY && !o.env.JOBFIT_NO_PROMPT && !o.env.CI,
    columns: o.stdout.columns ?? o.stderr.columns ?? 80,
    signal: o.signal ?? new AbortController().signal,
  };
}

/**
 * What a descriptor is, for writing to it: a terminal, a place a write never
 * waits on (a regular file, /dev/null and its kin), or one a write may wait
 * on (a pipe, a socket). node:tty (and with it net and stream, ~2 ms) is
 * loaded only when the kind leaves it open: a character device other than
 * /dev/null (Linux: major 1, as /dev/zero and /dev/full), which a script's
 * stdin often is.
 */
export function descriptorKind(fd: number): 'terminal' | 'file' | 'pipe' {
  let st;
  try {
    st = fstatSync(fd);
  } catch {
    return 'file'; // closed: every write fails at once
  }
  if (st.isFile()) return 'file';
  if (!st.isCharacterDevice()) return 'pipe';
  if (process.platform === 'linux' && Math.floor(st.rdev / 256) % 4096 === 1) return 'file';
  // node:tty only here (a character device other than /dev/null): most runs write to a pipe or a file.
  return process.getBuiltinModule('node:tty').isatty(fd) ? 'terminal' : 'pipe';
}

/** Whether `fd` is a terminal (descriptorKind). */
export function isTerminal(fd: number): boolean {
  return descriptorKind(fd) === 'terminal';
}

/**
 * How much a run writes into a pipe synchronously before node's stream takes
 * over: less than any pipe holds (Linux gives a pipe 4 KB at the least), so
 * a reader that stops reading never blocks the process in a write, where
 * Ctrl-C could not reach it (test/export/sigint-pipe). A short command's
 * whole output fits; an export goes on through node's stream.
 */
export const SYNC_PIPE_BYTES = 4096;

/**
 * stdout or stderr when it is not a terminal, written with a plain
 * synchronous write on its descriptor. That is what node's own stream does
 * for a file, without building that stream (for a pipe, a socket of net:
 * ~4 ms of a short command's start).
 * - Into a pipe, only the first `budget` bytes (SYNC_PIPE_BYTES): then
 *   node's stream takes over, which waits for a slow reader without blocking
 *   the process. So does a descriptor another process made non-blocking,
 *   at EAGAIN. Order is kept, as every earlier byte is already written.
 * - A failed write (EPIPE, ENOSPC, EIO) goes to `failed` once; the writes
 *   after it are dropped, as node's stream drops them after its error.
 */
export class DescriptorOut implements OutStream {
  readonly isTTY = false;
  private stream?: NodeJS.WriteStream;
  private broken = false;
  private written = 0;

  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeJS.WriteStream,
    private readonly failed: (err: NodeJS.ErrnoException) => void,
    private readonly budget = Infinity,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    if (this.stream) return this.stream.write(chunk);
    if (this.broken) return true;
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.written += data.length;
    if (this.written > this.budget) {
      this.stream = this.nodeStream();
      return this.stream.write(data);
    }
    let done = 0;
    while (done < data.length) {
      try {
        done += writeSync(this.fd, data, done, data.length - done);
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'EAGAIN') {
          this.stream = this.nodeStream();
          return this.stream.write(data.subarray(done));
        }
        this.broken = true;
        this.failed(e);
        return true;
      }
    }
    return true;
  }

  /** For untilDrained (format/drain.ts): only node's stream, once it took over, ever needs a drain. */
  get writableNeedDrain(): boolean {
    return this.stream?.writableNeedDrain ?? false;
  }
  once(event: string, listener: () => void): this {
    this.stream?.once(event, listener);
    return this;
  }
  off(event: string, listener: () => void): this {
    this.stream?.off(event, listener);
    return this;
  }
}

/** stdout or stderr: node's stream on a terminal, else a DescriptorOut (with a budget into a pipe). */
function outOf(fd: 1 | 2, name: 'stdout' | 'stderr', failed: (err: NodeJS.ErrnoException) => void): OutStream {
  const nodeStream = () => process[name];
  const kind = descriptorKind(fd);
  if (kind === 'terminal') return nodeStream();
  return new DescriptorOut(fd, nodeStream, failed, kind === 'pipe' ? SYNC_PIPE_BYTES : Infinity);
}

/** Calls `built` with process.stdout or process.stderr when node builds it (its getter, on first use). */
function guardStream(name: 'stdout' | 'stderr', built: (s: NodeJS.WriteStream) => void): void {
  const desc = Object.getOwnPropertyDescriptor(process, name);
  const get = desc?.get;
  if (!get) {
    built(process[name]); // already a value (a test's replacement): as before
    return;
  }
  let stream: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: desc.enumerable,
    get() {
      if (stream === undefined) {
        stream = get.call(process) as NodeJS.WriteStream;
        built(stream);
      }
      return stream;
    },
  });
}

/**
 * The real process streams. SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal
 * closed; on Windows the console window) and SIGBREAK (Windows' Ctrl-Break)
 * abort the signal once, alike; a second one exits at once.
 *
 * conf (through atomically's when-exit) listens to the same signals and
 * re-raises the first it sees with process.kill, after its own clean-up: that
 * echo is not a second Ctrl-C. Our listener goes first (prepended), so when
 * another listener is there at the first signal, one repeat of that signal is
 * taken for its echo. (Otherwise a run with a config file ended at once on
 * Ctrl-C, without its results file, summary or resume command.)
 */
export function createProcessIO(): IOStreams {
  const ac = new AbortController();
  let first: StopSignal | undefined;
  let echo = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const sig = signal as StopSignal;
    if (first === undefined) {
      first = sig;
      echo = process.listenerCount(sig) > 1;
      ac.abort(new InterruptError(sig));
      return;
    }
    if (echo && sig === first) {
      echo = false;
      return;
    }
    process.exit(STOP_SIGNALS[sig]);
  };
  for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) process.prependListener(sig, onSignal);
  // stderr is where a failure would be told. When it fails itself (the terminal
  // closed: EIO, a little before SIGHUP arrives; a closed pipe: EPIPE) there is
  // no one to tell, and the run must still finish its files and its exit code
  // rather than die of an unhandled 'error' event.
  const stderrFailed = () => {};
  let stdoutFailed: NodeJS.ErrnoException | undefined;
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    // `jobfit ... | head` closes the pipe early: that is not an error.
    if (err.code === 'EPIPE') process.exit(0);
    // Any other (ENOSPC, EIO, EFBIG): kept, and the run ends non-zero naming it.
    stdoutFailed ??= err;
  };
  // node's stream, for a terminal or past a descriptor's budget or EAGAIN, or built by anyone else (a library, node's
  // own warnings): it gets the same handler the moment it is built.
  let stdoutStream = false;
  guardStream('stdout', (s) => {
    stdoutStream = true;
    s.on('error', onStdoutError);
  });
  guardStream('stderr', (s) => s.on('error', stderrFailed));
  const io = createIO({
    stdout: outOf(1, 'stdout', onStdoutError),
    stderr: outOf(2, 'stderr', stderrFailed),
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isTerminal(0),
    env: process.env,
    signal: ac.signal,
    noColor: process.argv.includes('--no-color'),
  });
  io.stdoutError = () => stdoutFailed;
  io.stdoutSettled = async () => {
    if (!stdoutStream) return;
    // What node's stream still holds reaches the reader or fails (EPIPE: the reader is gone) before the run
    // says what it wrote; then a turn for the error event.
    // ('drain' comes only after a write that filled the buffer, so the buffer is watched; the timer keeps node
    // turning, as stdout's own handle does not. Ctrl-C stops the wait: the run is ending anyway.)
    const s = process.stdout;
    while (s.writableLength > 0 && !s.destroyed && stdoutFailed === undefined && !ac.signal.aborted) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setImmediate(r));
  };
  return io;
}
