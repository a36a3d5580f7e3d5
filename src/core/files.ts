/**
 * Files and folders that hold keys or people's data: created and kept
 * readable by their owner only (the config, the stub's database, caches).
 */
import { chmodSync, closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, statSync } from 'node:fs';

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
