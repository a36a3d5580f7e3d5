/**
 * Where a sync writes: a SQLite file (src/sync/sqlite.ts, the default) or a
 * PostgreSQL database (src/sync/postgres.ts, `--db postgres://...`). Both
 * hold the same tables (src/sync/schema.ts) and behave the same: versioned
 * schema, a lock row, upserts that know whether they inserted, updated or
 * changed nothing, the sync_runs record, one account and mode per database.
 */
import { JobfitError, ModeMismatchError, UsageError } from '../core/errors.js';
import { processAlive } from '../core/lock.js';

export type Row = Record<string, string | number | null>;

export interface Counts {
  inserted: number;
  updated: number;
  /** Rows marked gone (`gone_at` set): the service no longer lists them. */
  gone: number;
}

export interface SyncMeta {
  mode?: 'live' | 'test';
  account_id?: string;
  score_profiles?: string;
}

export interface RunRecord {
  finishedAt: string;
  status: string;
  requests: number;
  byKind: Record<string, number>;
  inserted: number;
  updated: number;
  errors: number;
  gone: number;
  message?: string;
}

/** Writes inside one transaction. */
export interface Writer {
  /** Insert or update one row keyed on `keys`; a row whose values are all the same is left alone and counted as neither. */
  upsert(table: string, keys: readonly string[], row: Row, counts: Counts): Promise<void>;
  /** Deletes the child rows of `parentKey = parent` whose `key` is not in `keep` (counted as updates). */
  prune(table: string, parentKey: string, parent: number, key: string, keep: number[], counts: Counts): Promise<void>;
  /** Sets `gone_at` of these rows (`at`: the service no longer lists them; null: it lists them again). */
  setGone(table: string, ids: readonly number[], at: string | null, counts: Counts): Promise<void>;
}

export interface SyncStore {
  /** What to call the database in messages (a path, or a URL without its password). */
  readonly label: string;
  acquireLock(now: () => Date): Promise<void>;
  releaseLock(): Promise<void>;
  close(): Promise<void>;
  meta(): Promise<SyncMeta>;
  setMeta(key: keyof SyncMeta, value: string): Promise<void>;
  /** `fn`'s writes in one transaction; calls must not overlap. */
  transaction(fn: (w: Writer) => Promise<void>): Promise<void>;
  all<T>(sql: string): Promise<T[]>;
  /**
   * The rows of `select` (a SELECT … FROM one table, no WHERE) whose `column`
   * is one of `keys`: one statement whatever the keys (SQLite: `json_each`
   * of one parameter; PostgreSQL: `= ANY` of an array), compiled once a run.
   * A statement with the keys in its text, one a slice of 500, left about
   * a thousand compiled statements to the garbage collector at 100,000
   * people, whose native memory V8 does not see (issue 47).
   */
  allIn<T>(select: string, column: string, keys: readonly number[] | readonly string[]): Promise<T[]>;
  startRun(startedAt: string, full: boolean): Promise<number>;
  finishRun(id: number, r: RunRecord): Promise<void>;
  /** Every mirror table, rows in key order, as text (sync_runs, the lock and the meta table left out). */
  dump(): Promise<string>;
}

/** The database server or the connection to it went away mid-run (exit 1): what was committed is kept. */
export class DatabaseGoneError extends JobfitError {}

/** The disk under a SQLite database refused a write (full, read-only, not ours): the run stops as for a database gone; what was committed is kept. */
export class DatabaseUnwritableError extends DatabaseGoneError {}

/**
 * Another process held a SQLite database's write lock past the busy wait (an
 * analyst's sqlite3 shell in a transaction): the run stops as for a disk that
 * refused, what was committed is kept; a watch tries again at its next round.
 */
export class DatabaseBusyError extends DatabaseUnwritableError {}

/** Another live sync holds the database: exit 2, nothing done. */
export class SyncLockedError extends UsageError {}

export interface LockHolder {
  pid: number;
  host: string;
  started_at: string;
  heartbeat_at: string;
}

/** A lock older than this without a heartbeat, held from another host, is taken over. */
const FOREIGN_LOCK_STALE_MS = 5 * 60_000;
export const HEARTBEAT_MS = 30_000;


/**
 * Refuses when `held` belongs to another live run: a live pid on this host,
 * or a heartbeat within minutes from another host. A dead holder is replaced.
 */
export function checkLockHolder(label: string, held: LockHolder | undefined, me: { pid: number; host: string }, nowMs: number): void {
  if (!held || (held.pid === me.pid && held.host === me.host)) return;
  const live = held.host === me.host ? processAlive(held.pid) : nowMs - Date.parse(held.heartbeat_at) < FOREIGN_LOCK_STALE_MS;
  if (live) {
    throw new SyncLockedError(
      `${label} is being synced by process ${held.pid}${held.host === me.host ? '' : ` on ${held.host}`} (started ${held.started_at}); try again when it has finished.`,
    );
  }
}

export function newerSchemaError(label: string, found: number, known: number): UsageError {
  return new UsageError(`${label} was written by a newer jobfit (database schema ${found}; this jobfit knows up to ${known}); nothing was changed.`, 'upgrade jobfit, or sync into another database');
}

/**
 * The database belongs to one account in one mode: the first run records
 * both, later runs must match (test fakes never mix with live records).
 */
export async function checkOwner(store: SyncStore, mode: 'live' | 'test', accountId: string): Promise<void> {
  const m = await store.meta();
  if (m.mode && m.mode !== mode) {
    throw new ModeMismatchError(
      `${store.label} holds ${m.mode}-mode data and this run uses a ${mode} key; one database never mixes modes.`,
      `sync ${mode}-mode data into another database, or use the ${m.mode} key (--${m.mode})`,
    );
  }
  if (m.account_id && m.account_id !== accountId) {
    throw new UsageError(`${store.label} holds account ${m.account_id} and this key belongs to account ${accountId}; use one database per account.`);
  }
  if (!m.mode) await store.setMeta('mode', mode);
  if (!m.account_id) await store.setMeta('account_id', accountId);
}
