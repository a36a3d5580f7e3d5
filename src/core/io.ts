/**
 * The I/O of a run: streams, TTY facts, environment, clock and the Ctrl-C
 * signal, in one object (tests build one on memory streams).
 */
import type { Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { InterruptError, STOP_SIGNALS, type StopSignal } from './errors.js';

export interface OutStream {
  write(chunk: string): boolean;
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
 * The real process streams. SIGINT (Ctrl-C), SIGTERM and SIGHUP (the terminal
 * closed) abort the signal once, alike; a second one exits at once.
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
  process.stderr.on('error', () => {});
  let stdoutFailed: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // `jobfit ... | head` closes the pipe early: that is not an error.
    if (err.code === 'EPIPE') process.exit(0);
    // Any other (ENOSPC, EIO, EFBIG): kept, and the run ends non-zero naming it.
    stdoutFailed ??= err;
  });
  const io = createIO({
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    env: process.env,
    signal: ac.signal,
    noColor: process.argv.includes('--no-color'),
  });
  io.stdoutError = () => stdoutFailed;
  return io;
}
