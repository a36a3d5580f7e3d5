/**
 * The SQLite backend of `jobfit sync` (the default): opening a file safely,
 * the schema version check and forward migrations, the lock row, upserts,
 * the sync_runs record. The contract: src/sync/store.ts.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync } from 'node:fs';
import { type DiskCondition, diskConditionOf } from '../core/disk.js';
import { checkDestination } from '../core/files.js';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { JobfitError, UsageError } from '../core/errors.js';
import { type Database, type Statement, openDatabase } from '../core/sqlite-engines.js';
import { checkSqliteSideFiles, prepareSqliteSideFiles } from '../core/sqlite-files.js';
import { isBusy } from './event-queue.js';
import { type Column, MIRROR_TABLES, SCHEMA_VERSION, migration } from './schema.js';
import {
  type Counts,
  DatabaseBusyError,
  DatabaseUnwritableError,
  HEARTBEAT_MS,
  type LockHolder,
  type Row,
  type RunRecord,
  type SyncMeta,
  type SyncStore,
  type Writer,
  checkLockHolder,
  newerSchemaError,
} from './store.js';

/** Creates the file owner-only (0600, folder 0700) when absent; refuses links and non-files. */
function prepareFile(path: string): boolean {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot use ${path}: ${(err as NodeJS.ErrnoException).code}.`);
  }
  if (st) {
    if (st.isSymbolicLink()) throw new UsageError(`${path} is a symbolic link; give the database file itself.`);
    if (!st.isFile()) throw new UsageError(`${path} is not a file.`);
    // Another user's file never receives people's data (core/files.ts).
    checkDestination(path, 'the sync database');
    return false;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
  } catch (err) {
    throw new UsageError(`Cannot create ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
  return true;
}

const SIDE_WHAT = 'The sync database';
const SIDE_ELSEWHERE = 'give --db a file in a folder of your own';

const DISK_CAUSE: Record<DiskCondition, string> = {
  full: 'the disk is full',
  'read-only': 'the file system is read-only',
  'no-permission': 'this user may not write there',
};

/** SQLite's wait for another process's write lock before it answers "database is locked" (PRAGMA busy_timeout). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * A write the disk refused, or another process's write lock held past the
 * busy wait, as one sentence naming the database and the cause
 * (DatabaseUnwritableError, DatabaseBusyError: the run stops, what was
 * committed is kept); any other error as it was.
 */
function unwritable(err: unknown, path: string): unknown {
  if (isBusy(err)) {
    return new DatabaseBusyError(`The sync database ${path} is busy: another process held its write lock for more than ${BUSY_TIMEOUT_MS / 1000} s (database is locked).`, {
      cause: err,
      hint: 'a sqlite3 shell or another program with a transaction open on it; end it, then run again',
    });
  }
  const c = diskConditionOf(err, dirname(path));
  if (!c) return err;
  const code = (err as { code?: unknown }).code;
  return new DatabaseUnwritableError(`Could not write the sync database ${path}: ${DISK_CAUSE[c]} (${String(code)}).`, { cause: err });
}

export class SqliteStore implements SyncStore, Writer {
  readonly db: Database;
  readonly path: string;
  readonly label: string;
  private heartbeat?: NodeJS.Timeout;
  private stmts = new Map<string, Statement>();
  private upserts = new Map<string, { exists: Statement; write: Statement; keys: readonly string[] }>();
  private lockHeld = false;

  private constructor(db: Database, path: string) {
    this.db = db;
    this.path = path;
    this.label = path;
  }

  /**
   * Opens (or creates) a sync database and brings its schema up to date.
   * Refuses, changing nothing: a file that is not SQLite, a SQLite database
   * jobfit sync did not create, one written by a newer jobfit.
   */
  static open(path: string): SqliteStore {
    // SQLite's -wal, -shm and -journal beside it: ours or refused, before anything is made (core/sqlite-files.ts).
    checkSqliteSideFiles(path, SIDE_WHAT, SIDE_ELSEWHERE);
    const created = prepareFile(path);
    let db: Database | undefined;
    try {
      prepareSqliteSideFiles(path, SIDE_WHAT, SIDE_ELSEWHERE);
      // prepareFile made the file or found it: opening creates nothing.
      db = openDatabase(path);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // Reading the schema is the first access that proves the file is a database.
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).values() as string[];
      if (tables.length > 0 && !tables.includes('sync_meta')) {
        throw new UsageError(`${path} is a SQLite database that jobfit sync did not create; nothing was changed.`, 'give a new file name, or a database written by `jobfit sync`');
      }
    } catch (err) {
      db?.close();
      if (err instanceof JobfitError) throw err;
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new UsageError(`${path} is not a SQLite database; nothing was changed.`);
      throw new JobfitError(`Cannot open ${path}: ${(err as Error).message}`);
    }
    const s = new SqliteStore(db, path);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      // SQLite may have removed and made the side files again: still ours, before anything is written.
      checkSqliteSideFiles(path, SIDE_WHAT, SIDE_ELSEWHERE);
      // WAL + NORMAL: a killed process loses nothing committed; only a power cut can lose the last commits.
      db.exec('PRAGMA synchronous = NORMAL');
      // Off while migrations rebuild tables (both engines turn it on by default), on for every run after;
      // outside any transaction (SQLite ignores the pragma inside one).
      db.exec('PRAGMA foreign_keys = OFF');
      s.migrate(created);
      db.exec('PRAGMA foreign_keys = ON');
    } catch (err) {
      db.close();
      throw unwritable(err, path);
    }
    return s;
  }

  /** The schema version written in the database (0: new). */
  schemaVersion(): number {
    const has = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_meta'`).get();
    if (!has) return 0;
    const v = this.db.prepare(`SELECT value FROM sync_meta WHERE key = 'schema_version'`).value() as string | undefined;
    return v === undefined ? 0 : Number(v);
  }

  /** A table's columns as declared (for a migration that rebuilds it). */
  private columnsOf(table: string): Column[] {
    const info = this.db.prepare(`SELECT name, type, "notnull" AS nn, dflt_value AS dflt, pk FROM pragma_table_info(?)`).all(table) as Array<{ name: string; type: string; nn: number; dflt: string | null; pk: number }>;
    const onePk = info.filter((c) => c.pk > 0).length === 1;
    return info.map((c) => ({
      name: c.name,
      decl: `${c.name} ${c.type}${c.pk > 0 && onePk ? ' PRIMARY KEY' : ''}${c.nn ? ' NOT NULL' : ''}${c.dflt !== null ? ` DEFAULT ${c.dflt}` : ''}`,
    }));
  }

  private migrate(_created: boolean): void {
    const current = this.schemaVersion();
    if (!Number.isInteger(current) || current > SCHEMA_VERSION) {
      throw newerSchemaError(this.path, current, SCHEMA_VERSION);
    }
    for (let v = current; v < SCHEMA_VERSION; v++) {
      this.db.transaction(() => {
        // Another run may have migrated while we waited for the write lock.
        if (this.schemaVersion() > v) return;
        if (v === 0) this.db.exec(`CREATE TABLE IF NOT EXISTS sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
        this.db.exec(migration('sqlite', v, { columnsOf: (t) => this.columnsOf(t) }));
        this.db.prepare(`INSERT INTO sync_meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(v + 1));
      }, 'immediate');
    }
  }

  // ------------------------------------------------------------------ lock

  /**
   * Takes the database's one sync lock (a row in sync_lock). A live holder
   * is named in a one-sentence refusal (exit 2); a holder that is gone (a
   * dead pid on this host, or no heartbeat for minutes from another host) is
   * replaced.
   */
  async acquireLock(now: () => Date = () => new Date()): Promise<void> {
    const me = { pid: process.pid, host: hostname() };
    this.written(() => this.db.transaction(() => {
      const held = this.db.prepare('SELECT pid, host, started_at, heartbeat_at FROM sync_lock WHERE id = 1').get() as LockHolder | undefined;
      checkLockHolder(this.path, held, me, now().getTime());
      const at = now().toISOString();
      this.db
        .prepare(
          `INSERT INTO sync_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`,
        )
        .run(me.pid, me.host, at, at);
    }, 'immediate'));
    this.lockHeld = true;
    this.heartbeat = setInterval(() => {
      try {
        this.db.prepare('UPDATE sync_lock SET heartbeat_at = ? WHERE id = 1 AND pid = ?').run(now().toISOString(), me.pid);
      } catch {
        // a busy database: the next beat will do
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async releaseLock(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!this.lockHeld) return;
    this.lockHeld = false;
    try {
      this.db.prepare('DELETE FROM sync_lock WHERE id = 1 AND pid = ? AND host = ?').run(process.pid, hostname());
    } catch {
      // the next run sees a dead pid and takes over
    }
  }

  async close(): Promise<void> {
    await this.releaseLock();
    this.db.close();
  }

  // ------------------------------------------------------------------ meta

  async meta(): Promise<SyncMeta> {
    const rows = this.db.prepare('SELECT key, value FROM sync_meta').all() as Array<{ key: string; value: string }>;
    return Object.fromEntries(rows.map((r) => [r.key, r.value])) as SyncMeta;
  }

  async setMeta(key: keyof SyncMeta, value: string): Promise<void> {
    this.written(() => this.db.prepare('INSERT INTO sync_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value));
  }

  /** `fn`, with a write the disk refused named as such (unwritable). */
  private written<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw unwritable(err, this.path);
    }
  }

  // ------------------------------------------------------------------ rows

  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  async upsert(table: string, keys: readonly string[], row: Row, counts: Counts): Promise<void> {
    // One statement pair per table: rows of a table always carry the same columns.
    let u = this.upserts.get(table);
    if (!u) {
      const cols = Object.keys(row);
      const rest = cols.filter((c) => !keys.includes(c));
      u = {
        exists: this.db.prepare(`SELECT 1 FROM ${table} WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`),
        write: this.db.prepare(
          `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')}) ` +
            `ON CONFLICT(${keys.join(', ')}) DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')} ` +
            `WHERE (${rest.map((c) => `${table}.${c}`).join(', ')}) IS NOT (${rest.map((c) => `excluded.${c}`).join(', ')})`,
        ),
        keys,
      };
      this.upserts.set(table, u);
    }
    const exists = u.exists.value(...u.keys.map((k) => row[k]));
    if (u.write.run(row).changes > 0) {
      if (exists) counts.updated++;
      else counts.inserted++;
    }
  }

  async prune(table: string, parentKey: string, parent: number, key: string, keep: number[], counts: Counts): Promise<void> {
    const all = this.stmt(`SELECT ${key} FROM ${table} WHERE ${parentKey} = ?`).values(parent) as number[];
    const k = new Set(keep);
    for (const v of all) {
      if (k.has(v)) continue;
      this.stmt(`DELETE FROM ${table} WHERE ${parentKey} = ? AND ${key} = ?`).run(parent, v);
      counts.updated++;
    }
  }

  async setGone(table: string, ids: readonly number[], at: string | null, counts: Counts): Promise<void> {
    const st = this.stmt(`UPDATE ${table} SET gone_at = ? WHERE id = ? AND gone_at IS ${at === null ? 'NOT ' : ''}NULL`);
    for (const id of ids) {
      const n = st.run(at, id).changes;
      if (at !== null) counts.gone += n;
    }
  }

  async transaction(fn: (w: Writer) => Promise<void>): Promise<void> {
    // db.transaction() cannot span an await; the caller never overlaps two.
    this.written(() => this.db.exec('BEGIN IMMEDIATE'));
    try {
      await fn(this);
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw unwritable(err, this.path);
    }
  }

  async all<T>(sql: string): Promise<T[]> {
    return this.db.prepare(sql).all() as T[];
  }

  async allIn<T>(select: string, column: string, keys: readonly number[] | readonly string[]): Promise<T[]> {
    if (keys.length === 0) return [];
    // The keys as one JSON array: json_each gives integers back as INTEGER and strings as TEXT, as the keys are stored.
    return this.stmt(`${select} WHERE ${column} IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)) as T[];
  }

  // ------------------------------------------------------------------ runs

  async startRun(startedAt: string, full: boolean): Promise<number> {
    const r = this.written(() => this.db.prepare(`INSERT INTO sync_runs (started_at, status, full_sync) VALUES (?, 'running', ?)`).run(startedAt, full ? 1 : 0));
    return Number(r.lastInsertRowid);
  }

  async finishRun(id: number, r: RunRecord): Promise<void> {
    this.written(() =>
      this.db
        .prepare(
          `UPDATE sync_runs SET finished_at = ?, status = ?, requests = ?, requests_by_kind = ?, rows_inserted = ?, rows_updated = ?, rows_gone = ?, errors = ?, message = ? WHERE id = ?`,
        )
        .run(r.finishedAt, r.status, r.requests, JSON.stringify(r.byKind), r.inserted, r.updated, r.gone, r.errors, r.message ?? null, id),
    );
  }

  async dump(): Promise<string> {
    const out: string[] = [];
    for (const t of MIRROR_TABLES) {
      out.push(`# ${t.name}`);
      for (const row of this.db.prepare(`SELECT * FROM ${t.name} ORDER BY ${t.key}`).all()) out.push(JSON.stringify(row));
    }
    return `${out.join('\n')}\n`;
  }
}
