/**
 * `webhook listen --sync DB`: the people named by events the listener
 * answered 200 for, kept on disk until they are stored in DB (issue 43, item
 * 5). A database another process holds busy, a listener stopped or killed
 * meanwhile: the next listener on the same database starts with them.
 *
 * One small JSON file beside a SQLite database (`DB.listen-pending.json`),
 * owner-only, replaced whole each time the set changes, through the one
 * writer path (writeOutFileSync, core/whole-file.ts: written, its size
 * checked, synced, renamed): a full disk leaves the earlier queue as it was,
 * never a cut one. A queue that is there but cannot be read, or is not whole
 * (cut, damaged), is never taken for an empty one: the listener refuses to
 * start and leaves it as it is. A PostgreSQL database has no folder of its
 * own: its queue lives in memory only, as before.
 */
import { readFileSync, rmSync } from 'node:fs';
import { JobfitError } from '../core/errors.js';
import { fileErrorCause } from '../core/files.js';
import { writeOutFileSync } from '../core/whole-file.js';

export interface Pending {
  invitations: Set<number>;
  takers: Set<number>;
}

export interface EventQueue {
  /** Where it is kept. */
  readonly path: string;
  /** What an earlier listener left (empty when there is no file). Throws when there is one that cannot be read whole: its people must not be lost. */
  load(): Pending;
  /** Keeps exactly `p` (nothing: the file is removed). Never throws: a queue that cannot be written is said once by the caller. */
  save(p: Pending): Error | undefined;
}

const isId = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) > 0;

/** The ids of a whole queue file; throws with what is wrong with it otherwise. */
function parseQueue(text: string): Pending {
  const doc = JSON.parse(text) as { invitations?: unknown; test_takers?: unknown } | null;
  const { invitations, test_takers: takers } = doc ?? {};
  if (!Array.isArray(invitations) || !Array.isArray(takers) || !invitations.every(isId) || !takers.every(isId)) {
    throw new Error('it does not hold two lists of ids');
  }
  return { invitations: new Set(invitations), takers: new Set(takers) };
}

/** The queue of a SQLite database file; undefined for PostgreSQL. */
export function eventQueue(dbFile: string | undefined): EventQueue | undefined {
  if (dbFile === undefined) return undefined;
  const path = `${dbFile}.listen-pending.json`;
  return {
    path,
    load() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { invitations: new Set(), takers: new Set() };
        throw unreadable(path, fileErrorCause(err), err);
      }
      try {
        return parseQueue(text);
      } catch (err) {
        throw unreadable(path, `it is cut or damaged (${(err as Error).message.replace(/\.$/, '')})`, err);
      }
    },
    save(p) {
      try {
        // Nothing left: no file.
        if (p.invitations.size + p.takers.size === 0) return void rmSync(path, { force: true });
        writeOutFileSync(path, 'the queue of events not yet synced', `${JSON.stringify({ invitations: [...p.invitations], test_takers: [...p.takers] })}\n`);
        return undefined;
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    },
  };
}

/** The refusal to start over a queue that cannot be read whole: exit 1, the file left as it is. */
function unreadable(path: string, why: string, cause: unknown): JobfitError {
  return new JobfitError(`Cannot read the queue of events not yet synced ${path}: ${why}; it was left as it is, and the listener did not start.`, {
    cause,
    hint: 'the people it names are brought up to date by `jobfit sync --db` on the same database; then move the file aside and start the listener again',
  });
}

/** A database another process holds (SQLITE_BUSY, "database is locked"), along an error and its causes. */
export function isBusy(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const o = e as { code?: unknown; errcode?: unknown; message?: unknown; cause?: unknown };
    if (o.code === 'SQLITE_BUSY' || o.code === 'SQLITE_LOCKED' || o.errcode === 5 || o.errcode === 6) return true;
    if (typeof o.message === 'string' && /database is locked|database table is locked|SQLITE_BUSY/i.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}
