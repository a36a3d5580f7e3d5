/**
 * `webhook listen --sync DB`: the people named by events the listener
 * answered 200 for, kept on disk until they are stored in DB (issue 43, item
 * 5). A database another process holds busy, a listener stopped or killed
 * meanwhile: the next listener on the same database starts with them.
 *
 * One small JSON file beside a SQLite database (`DB.listen-pending.json`),
 * owner-only, replaced whole (written, synced, renamed: createPrivateOutput)
 * each time the set changes. A PostgreSQL database has no folder of its own:
 * its queue lives in memory only, as before.
 */
import { readFileSync, rmSync, writeSync } from 'node:fs';
import { createPrivateOutput } from '../core/files.js';

export interface Pending {
  invitations: Set<number>;
  takers: Set<number>;
}

export interface EventQueue {
  /** Where it is kept. */
  readonly path: string;
  /** What an earlier listener left (empty when nothing, or when the file is not ours to read). */
  load(): Pending;
  /** Keeps exactly `p` (nothing: the file is removed). Never throws: a queue that cannot be written is said once by the caller. */
  save(p: Pending): Error | undefined;
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isSafeInteger(x) && x > 0) : []);

/** The queue of a SQLite database file; undefined for PostgreSQL. */
export function eventQueue(dbFile: string | undefined): EventQueue | undefined {
  if (dbFile === undefined) return undefined;
  const path = `${dbFile}.listen-pending.json`;
  return {
    path,
    load() {
      try {
        const doc = JSON.parse(readFileSync(path, 'utf8')) as { invitations?: unknown; test_takers?: unknown };
        return { invitations: new Set(ids(doc.invitations)), takers: new Set(ids(doc.test_takers)) };
      } catch {
        return { invitations: new Set(), takers: new Set() };
      }
    },
    save(p) {
      try {
        // Nothing left: no file.
        if (p.invitations.size + p.takers.size === 0) return void rmSync(path, { force: true });
        const out = createPrivateOutput(path, 'the queue of events not yet synced');
        try {
          writeSync(out.fd, `${JSON.stringify({ invitations: [...p.invitations], test_takers: [...p.takers] })}\n`);
        } catch (err) {
          out.discard();
          throw err;
        }
        out.commit();
        return undefined;
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    },
  };
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
