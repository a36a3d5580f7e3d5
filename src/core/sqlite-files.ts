/**
 * The files SQLite keeps beside a database: `-wal` (every committed page
 * until a checkpoint: people's data), `-shm` (the WAL's index) and
 * `-journal` (a rollback journal: pages as they were). SQLite opens an
 * existing one as it finds it and creates a missing one without O_EXCL, so a
 * file planted beside the database by another user (in a shared folder such
 * as /tmp) would receive people's data, or be read through a descriptor its
 * owner holds open (issue 42).
 *
 * So for every database we open (the stub's, a sync's, the listener's two):
 * before SQLite opens it, an existing side file must be a regular file of the
 * running user (a link, a FIFO or another user's file is refused, one
 * sentence, nothing opened), and is made 0600; a missing `-wal` and `-shm`
 * are created by us, exclusively (never through a link), 0600. After SQLite
 * has switched to WAL (when it may have removed and made them again), the
 * same check runs once more, before anything is written.
 *
 * On Windows, where files have no POSIX owner and mode, the checks of kind
 * (a link, not a file) hold; ownership and mode are the folder's ACL's.
 */
import { chmodSync, closeSync, constants, lstatSync, openSync } from 'node:fs';
import { UsageError } from './errors.js';

export const SIDE_SUFFIXES = ['-wal', '-shm', '-journal'] as const;
/** The side files SQLite makes whenever it opens a WAL database: made by us first. */
const CREATED = ['-wal', '-shm'] as const;

const myUid = (): number | undefined => process.getuid?.();

/** One sentence for a side file that is not ours to use, or undefined when it is fine (or absent). */
function sideProblem(path: string, what: string, elsewhere: string): string | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return undefined;
  const refuse = (why: string) => `${what}'s side file ${path} ${why}: the database is not opened. Remove it if it is not yours, or ${elsewhere}.`;
  if (st.isSymbolicLink()) return refuse('is a symbolic link');
  if (!st.isFile()) return refuse('is not a regular file');
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) return refuse(`belongs to another user (uid ${st.uid}), who could read or change what is written to it`);
  if (uid !== undefined && (st.mode & 0o077) !== 0) chmodSync(path, 0o600);
  return undefined;
}

/** Refuses (UsageError) the first side file of `db` that is not the running user's regular file; makes the rest 0600. */
export function checkSqliteSideFiles(db: string, what: string, elsewhere: string): void {
  for (const suffix of SIDE_SUFFIXES) {
    const problem = sideProblem(db + suffix, what, elsewhere);
    if (problem) throw new UsageError(problem);
  }
}

/**
 * Before SQLite opens `db`: its side files checked, and a missing `-wal` and
 * `-shm` created by us, exclusively and 0600 (one planted in the meantime
 * makes the creation fail, and it is checked as found).
 */
export function prepareSqliteSideFiles(db: string, what: string, elsewhere: string): void {
  checkSqliteSideFiles(db, what, elsewhere);
  for (const suffix of CREATED) {
    try {
      closeSync(openSync(db + suffix, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const problem = sideProblem(db + suffix, what, elsewhere);
      if (problem) throw new UsageError(problem);
    }
  }
}
