/**
 * The files a bulk run writes for the user (results, journal): where they may
 * go, and a file system error as the cause a person can act on.
 */
import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../core/errors.js';

const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full (ENOSPC)',
  EDQUOT: 'the disk quota is used up (EDQUOT)',
  EROFS: 'the file system is read-only (EROFS)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'permission denied (EPERM)',
  ELOOP: 'it is a symbolic link (ELOOP)',
  ENOENT: 'its folder does not exist (ENOENT)',
  ENOTDIR: 'a part of its path is not a folder (ENOTDIR)',
  EISDIR: 'it is a folder (EISDIR)',
  EIO: 'an input/output error (EIO)',
};

/** "the disk is full (ENOSPC)" for an errno error; the message otherwise. */
export function fileErrorCause(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && CAUSES[code]) return CAUSES[code];
  return err instanceof Error ? err.message.replace(/\.$/, '') : String(err);
}

/** An errno error from writing a file (not an HTTP or programming error). */
export function isFileError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException;
  return e instanceof Error && typeof e.code === 'string' && typeof e.syscall === 'string';
}

/**
 * Refuses a path the run must not write: a symbolic link (its target would be
 * written), something that is not a regular file, the input itself (by name
 * or through a hard or symbolic link), or a path in a folder that is missing.
 * Nothing is created or changed here.
 */
export function checkWritablePath(path: string, what: string, input?: string): void {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    throw new UsageError(`The ${what} ${path} is a symbolic link; it is never written through (its target is left as it is).`, 'give the real path, or another --out');
  }
  if (st && !st.isFile()) throw new UsageError(`The ${what} ${path} is not a regular file.`, 'choose another --out');
  if (st && input) {
    const inp = statSync(input, { throwIfNoEntry: false });
    if (inp && inp.dev === st.dev && inp.ino === st.ino) {
      throw new UsageError(`The ${what} ${path} is the input CSV itself; writing it would destroy the input.`, 'choose another --out (the default is FILE.results.csv beside the input)');
    }
  }
  const dir = statSync(dirname(path), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new UsageError(`Cannot write the ${what} ${path}: its folder does not exist.`);
}
