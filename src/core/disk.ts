/**
 * When a write fails because of the disk, say which way: full, read-only, or
 * not ours to write. Node's recursive mkdir reports a read-only file system
 * as ENOENT, and SQLite reports several causes as an I/O error or "unable to
 * open", so the folder is probed when the error itself does not tell.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

export type DiskCondition = 'full' | 'read-only' | 'no-permission';

const BY_CODE: Record<string, DiskCondition> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  SQLITE_FULL: 'full',
  EROFS: 'read-only',
  EACCES: 'no-permission',
  EPERM: 'no-permission',
};

/** Codes whose cause may be the disk but do not say so: probe the folder. */
const VAGUE = /^(ENOENT|EIO|SQLITE_IOERR|SQLITE_CANTOPEN|SQLITE_READONLY)/;

/** The condition of the disk under `dir`, from an error of a write there; undefined when the disk is not the cause. */
export function diskConditionOf(err: unknown, dir: string): DiskCondition | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const known = BY_CODE[code];
  // Permission errors and read-only files are confirmed on the folder: root ignores modes, a file may be read-only alone.
  if (known && known !== 'no-permission') return known;
  if (known || VAGUE.test(code)) return probeDir(dir) ?? (code.startsWith('SQLITE_READONLY') ? 'read-only' : known);
  return undefined;
}

/** Whether the nearest existing folder at or above `dir` can take a write. */
export function probeDir(dir: string): DiskCondition | undefined {
  let at = dir;
  for (;;) {
    try {
      accessSync(at, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EROFS') return 'read-only';
      if (code === 'EACCES' || code === 'EPERM') return 'no-permission';
      if (code === 'ENOENT' && dirname(at) !== at) {
        at = dirname(at);
        continue;
      }
      return undefined;
    }
    try {
      const s = statfsSync(at);
      if (s.bavail === 0 || s.bfree === 0) return 'full';
    } catch {
      // statfs unsupported here: nothing more to tell
    }
    return undefined;
  }
}

/** "is on a full disk", "is read-only"…: the end of a sentence about a folder. */
export function conditionText(c: DiskCondition): string {
  switch (c) {
    case 'full':
      return 'is on a full disk';
    case 'read-only':
      return 'is read-only';
    case 'no-permission':
      return 'is not writable by this user';
  }
}
