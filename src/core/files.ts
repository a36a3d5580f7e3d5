/**
 * Files and folders that hold keys or people's data: created and kept
 * readable by their owner only (the config, the stub's database, caches),
 * and the one way every file for a person is written (createPrivateOutput,
 * openPrivateAppend).
 */
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './errors.js';

/** Folders that hold keys or people's data: the owner's only. */
const PRIVATE_DIR_MODE = 0o700;
/** Files that hold keys or people's data. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates a folder (and missing parents) readable by the owner only. With
 * `tighten`, an existing folder of ours that others can read is made
 * owner-only too (one an older version created 0755).
 */
export function ensurePrivateDir(dir: string, opts: { tighten?: boolean } = {}): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!opts.tighten) return;
  const st = statSync(dir);
  if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(dir, st.mode & 0o700);
}

/**
 * Makes sure a file exists and is readable by the owner only, before a library
 * (SQLite) opens it with its own, umask-governed mode. Created empty (0600)
 * when absent; an existing one of ours is tightened. Never through a link.
 */
export function ensurePrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw Object.assign(new Error(`${path} is a symbolic link; not opening it`), { code: 'ELOOP' });
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/* ------------------------------------------------------------------------ *
 * Every file we write for a person (exports, bulk results, journals,
 * --errors files, logs, sync files) is written through the helpers below:
 *
 * - the destination is a regular file or absent: never a symbolic link, a
 *   FIFO, a device or a folder (`--out /dev/null` run as root would replace
 *   the system's /dev/null);
 * - an existing destination belongs to the user running jobfit (a file
 *   another user planted in a shared folder such as /tmp never receives
 *   people's data);
 * - what is written goes first to a temporary file with a random name in the
 *   destination's folder, created exclusively (O_EXCL, never through a link)
 *   and owner-only (0600), and is renamed onto the destination at the end.
 *
 * A refusal is one sentence naming the file (a UsageError: exit 2), and
 * leaves nothing behind.
 * ------------------------------------------------------------------------ */

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
  EFBIG: 'the file is too large for the file system (EFBIG)',
  ENXIO: 'it is a special file with no reader (ENXIO)',
};

/** "the disk is full (ENOSPC)" for an errno error; the message otherwise. */
export function fileErrorCause(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && CAUSES[code]) return CAUSES[code];
  return err instanceof Error ? err.message.replace(/\.$/, '') : String(err);
}

/** The user running jobfit (undefined where the platform has no uids). */
const myUid = (): number | undefined => process.getuid?.();

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Refuses a destination we must not write: anything but a regular file, or a
 * regular file another user owns. Absent is fine (its folder must exist).
 * `what` names it for a person ("the results file", "--out").
 */
export function checkDestination(path: string, what: string): void {
  let st: Stats | undefined;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    throw new UsageError(`Cannot write ${what} ${path}: ${fileErrorCause(err)}.`);
  }
  if (st) checkStats(st, path, what);
  const dir = statSync(dirname(path), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new UsageError(`Cannot write ${what} ${path}: its folder does not exist.`);
}

function checkStats(st: Stats, path: string, what: string): void {
  if (!st.isFile()) {
    throw new UsageError(`${capital(what)} ${path} is ${kindOf(st)}; jobfit writes only regular files and left it as it is.`, 'give the path of a regular file, or a new one');
  }
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) {
    throw new UsageError(`${capital(what)} ${path} belongs to another user (uid ${st.uid}); jobfit does not write people's data into it.`, 'remove it, or give another path');
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A random, exclusive, owner-only temporary file beside `path`. */
function openTempBeside(path: string, flags = 0): { fd: number; tmp: string } {
  // node:crypto when first needed: loading it costs ~6 ms (OpenSSL's set-up), and every command imports this file.
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  for (let attempt = 0; ; attempt++) {
    const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.jobfit-tmp`);
    try {
      return { fd: openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | flags, PRIVATE_FILE_MODE), tmp };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw err;
    }
  }
}

/** A file being written for a person: a temporary file until commit() renames it into place. */
export interface PrivateOutput {
  /** The destination. */
  readonly path: string;
  /** The temporary file (random name, in the destination's folder). */
  readonly tmp: string;
  /** Open for writing, owner-only. */
  readonly fd: number;
  /**
   * Syncs and closes the descriptor (unless `closed`: a stream already closed
   * it), checks the destination again and renames the file into place.
   * Throws the error (the temporary file removed); the destination stays as it was.
   */
  commit(opts?: { closed?: boolean }): void;
  /** Closes (unless `closed`) and removes the temporary file. Never throws. */
  discard(opts?: { closed?: boolean }): void;
}

/**
 * Opens `path` for writing the safe way (see above). Throws a UsageError
 * (exit 2) when the destination is refused or its folder cannot be written;
 * nothing is created then.
 */
export function createPrivateOutput(path: string, what: string): PrivateOutput {
  checkDestination(path, what);
  let opened: { fd: number; tmp: string };
  try {
    opened = openTempBeside(path);
  } catch (err) {
    throw new UsageError(`Cannot write ${what} ${path}: ${fileErrorCause(err)} in its folder.`);
  }
  const { fd, tmp } = opened;
  let done = false;
  return {
    path,
    tmp,
    fd,
    commit(opts = {}) {
      if (done) return;
      done = true;
      try {
        if (!opts.closed) {
          try {
            fsyncSync(fd);
          } finally {
            closeSync(fd);
          }
        }
        // Planted while we wrote? Checked again just before the rename.
        checkDestination(path, what);
        renameSync(tmp, path);
      } catch (err) {
        rmSync(tmp, { force: true });
        throw err;
      }
    },
    discard(opts = {}) {
      if (done) return;
      done = true;
      if (!opts.closed) {
        try {
          closeSync(fd);
        } catch {
          // already closed
        }
      }
      rmSync(tmp, { force: true });
    },
  };
}

/**
 * Opens a file we append to for a person (a journal, a log): created the
 * safe way when absent (an exclusive, owner-only temporary file, linked into
 * place, so a file planted meanwhile is never taken), otherwise opened without
 * following a link and checked: a regular file of the running user, tightened
 * to 0600. `created` says whether this call made it (a refused run removes it).
 */
export function openPrivateAppend(path: string, what: string): { fd: number; created: boolean } {
  checkDestination(path, what);
  if (!existsSync(path)) {
    let opened: { fd: number; tmp: string };
    try {
      opened = openTempBeside(path, constants.O_APPEND);
    } catch (err) {
      throw new UsageError(`Cannot write ${what} ${path}: ${fileErrorCause(err)} in its folder.`);
    }
    try {
      linkSync(opened.tmp, path);
      rmSync(opened.tmp, { force: true });
      return { fd: opened.fd, created: true };
    } catch (err) {
      closeSync(opened.fd);
      rmSync(opened.tmp, { force: true });
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`Cannot write ${what} ${path}: ${fileErrorCause(err)}.`);
      // Someone made it between the check and the link: judged below like any existing file.
    }
  }
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted after the check must not hang the open.
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new UsageError(`${capital(what)} ${path} is a symbolic link; jobfit writes only regular files and left it as it is.`);
    throw new UsageError(`Cannot write ${what} ${path}: ${fileErrorCause(err)}.`);
  }
  try {
    checkStats(fstatSync(fd), path, what);
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return { fd, created: false };
}
