/**
 * The files a bulk run writes for the user (results, journal): where they may
 * go, and a file system error as the cause a person can act on.
 */
import { lstatSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { checkDestination } from '../core/files.js';

export { fileErrorCause } from '../core/files.js';

/** An errno error from writing a file (not an HTTP or programming error). */
export function isFileError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException;
  return e instanceof Error && typeof e.code === 'string' && typeof e.syscall === 'string';
}

/** The refusal of a file the run would write that is its input (a CSV or a workbook): `what` names it, path included. */
export function theInputItself(what: string): UsageError {
  return new UsageError(`${what} is the input file itself; writing it would destroy the input.`, 'choose another --out (the default is FILE.results.csv, or .results.xlsx for a workbook, beside the input)');
}

/**
 * Refuses a path the run must not write: a symbolic link (its target would be
 * written), something that is not a regular file, another user's file, the
 * input itself (by name or through a hard or symbolic link), or a path in a
 * folder that is missing.
 * Nothing is created or changed here.
 */
export function checkWritablePath(path: string, what: string, input?: string): void {
  // A link, a special file, another user's file, a missing folder: refused (core/files.ts).
  checkDestination(path, `the ${what}`);
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st && input) {
    const inp = statSync(input, { throwIfNoEntry: false });
    if (inp && inp.dev === st.dev && inp.ino === st.ino) {
      throw theInputItself(`The ${what} ${path}`);
    }
  }
}
