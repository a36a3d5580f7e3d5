import type { IOStreams, OutStream } from './context.js';

export interface IOOptions {
  stdout: OutStream;
  stderr: OutStream;
  stdin: IOStreams['stdin'];
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
  return {
    stdout: o.stdout,
    stderr: o.stderr,
    stdin: o.stdin,
    env: o.env,
    now: o.now ?? (() => new Date()),
    stdoutIsTTY,
    stderrIsTTY,
    colorStdout: colorAllowed && (stdoutIsTTY || forced),
    colorStderr: colorAllowed && (stderrIsTTY || forced),
    canPrompt: Boolean(o.stdin.isTTY) && stderrIsTTY && !o.env.JOBFIT_NO_PROMPT && !o.env.CI,
    columns: o.stdout.columns ?? o.stderr.columns ?? 80,
    signal: o.signal ?? new AbortController().signal,
  };
}

/** The real process streams. Ctrl-C aborts the signal once; a second Ctrl-C exits at once. */
export function createProcessIO(): IOStreams {
  const ac = new AbortController();
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    ac.abort(new Error('interrupted'));
  });
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // `jobfit ... | head` closes the pipe early: that is not an error.
    if (err.code === 'EPIPE') process.exit(0);
  });
  return createIO({
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    signal: ac.signal,
    noColor: process.argv.includes('--no-color'),
  });
}
