/**
 * Typed errors and the one table that maps them to exit codes. Commands throw;
 * only main() decides what the process exits with.
 */

export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  PARTIAL: 3,
  AUTH: 4,
  /** The user answered "no" to a confirmation (a live invite, bulk or single): nothing was done. */
  DECLINED: 5,
  /** SIGHUP (the terminal closed): 128 + 1. */
  HANGUP: 129,
  INTERRUPTED: 130,
  /** SIGTERM (kill, a service manager, a CI timeout): 128 + 15. Also Windows' Ctrl-Break (SIGBREAK), its polite "stop". */
  TERMINATED: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    failure (the service refused the request, a network error, a bug)
  2    usage error or invalid input (bad flags, unreadable or invalid file)
  3    partial failure in a bulk run (some rows or items failed or were invalid)
  4    authentication (no key, a key the service does not accept, mode mismatch)
  5    declined: you answered no to a confirmation (e.g. "Send ... live invitations now?"); nothing was sent
  129  the terminal closed (SIGHUP; on Windows, the console window closed): as 130
  130  interrupted (Ctrl-C); work already done is kept
  143  terminated (SIGTERM; on Windows, Ctrl-Break): as 130`;

/** Base class: a message for the user, an optional hint, and an exit code. */
export class JobfitError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint?: string;
  constructor(message: string, opts: { exitCode?: ExitCodeValue; hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.exitCode = opts.exitCode ?? ExitCode.FAILURE;
    this.hint = opts.hint;
  }
}

/** Bad flags, bad arguments or unusable input: exit 2. */
export class UsageError extends JobfitError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, hint });
  }
}

/** No key, an invalid key, or a mode mismatch: exit 4. */
export class AuthError extends JobfitError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.AUTH, hint });
  }
}

/** Live and test disagree (the key, --live/--test, the service's answer, a database): exit 4, code mode_mismatch. */
export class ModeMismatchError extends AuthError {}

/** Some items of a bulk run failed; the rest succeeded and were reported: exit 3. */
export class PartialFailureError extends JobfitError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.PARTIAL, hint });
  }
}

/** The user cancelled (Ctrl-C or declined a confirmation). */
export class CancelError extends JobfitError {
  /** `cause`: why it was cancelled, e.g. the reason an AbortSignal was aborted with. */
  constructor(message = 'Cancelled.', exitCode: ExitCodeValue = ExitCode.INTERRUPTED, opts: { cause?: unknown } = {}) {
    super(message, { exitCode, cause: opts.cause });
  }
}

/**
 * The signals that stop a run as Ctrl-C does, and the exit each ends with (128 + the
 * signal's number). On Windows node raises SIGINT for Ctrl-C, SIGHUP when the console
 * window is closed (Windows ends the process about 10 s later) and SIGBREAK for
 * Ctrl-Break (GenerateConsoleCtrlEvent, how a Windows service manager asks a console
 * program to stop): SIGBREAK is taken as SIGTERM. Elsewhere SIGBREAK never comes.
 */
export const STOP_SIGNALS = { SIGINT: ExitCode.INTERRUPTED, SIGTERM: ExitCode.TERMINATED, SIGHUP: ExitCode.HANGUP, SIGBREAK: ExitCode.TERMINATED } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** The reason of the I/O's signal when SIGINT, SIGTERM, SIGHUP or SIGBREAK stopped the run. */
export class InterruptError extends CancelError {
  readonly signal: StopSignal;
  constructor(signal: StopSignal) {
    super(signal === 'SIGINT' ? 'Interrupted.' : `Interrupted (${signal}).`, STOP_SIGNALS[signal]);
    this.signal = signal;
  }
}

/** The exit of a run that ended as interrupted (130): 143 or 129 when SIGTERM (or SIGBREAK) or SIGHUP stopped it. */
export function interruptedExit(code: number, signal: AbortSignal): number {
  return code === ExitCode.INTERRUPTED && signal.reason instanceof InterruptError ? signal.reason.exitCode : code;
}

/** Already reported to the user; main() only sets the exit code. */
export class SilentError extends JobfitError {
  constructor(exitCode: ExitCodeValue) {
    super('', { exitCode });
  }
}
