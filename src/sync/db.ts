/**
 * The SQLite side of `jobfit sync`: opening a target safely, the schema
 * version check and forward migrations, the lock that lives in the database,
 * upserts that know whether they inserted, updated or changed nothing, and
 * the sync_runs record.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { closeSync, constants, lstatSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { AuthError, JobfitError, UsageError } from '../cli/errors.js';
import { MIGRATIONS, MIRROR_TABLES, SCHEMA_VERSION } from './schema.js';

type Database = BetterSqlite3.Database;
export type Row = Record<string, string | number | null>;

let DatabaseCtor: typeof BetterSqlite3 | undefined;
function sqlite(): typeof BetterSqlite3 {
  // better-sqlite3 is CommonJS and stays outside the bundle (scripts/build.mjs).
  DatabaseCtor ??= createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return DatabaseCtor;
}

/** A lock older than this without a heartbeat, held from another host, is taken over. */
const FOREIGN_LOCK_STALE_MS = 5 * 60_000;
const HEARTBEAT_MS = 30_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface Counts {
  inserted: number;
  updated: number;
}

export interface SyncMeta {
  mode?: 'live' | 'test';
  account_id?: string;
  score_profiles?: string;
}

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

/** Another live sync holds the database: exit 2, nothing done. */
export class SyncLockedError extends UsageError {}

export class SyncDb {
  readonly db: Database;
  readonly path: string;
  private heartbeat?: NodeJS.Timeout;
  private stmts = new Map<string, BetterSqlite3.Statement>();
  private upserts = new Map<string, { exists: BetterSqlite3.Statement; write: BetterSqlite3.Statement; keys: readonly string[] }>();
  private lockHeld = false;

  private constructor(db: Database, path: string) {
    this.db = db;
    this.path = path;
  }

  /**
   * Opens (or creates) a sync database and brings its schema up to date.
   * Refuses, changing nothing: a file that is not SQLite, a SQLite database
   * jobfit sync did not create, one written by a newer jobfit.
   */
  static open(path: string): SyncDb {
    const created = prepareFile(path);
    let db: Database | undefined;
    try {
      db = new (sqlite())(path, { fileMustExist: true });
      db.pragma('busy_timeout = 5000');
      // Reading the schema is the first access that proves the file is a database.
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
      if (tables.length > 0 && !tables.includes('sync_meta')) {
        throw new UsageError(`${path} is a SQLite database that jobfit sync did not create; nothing was changed.`, 'give a new file name, or a database written by `jobfit sync`');
      }
    } catch (err) {
      if (db?.open) db.close();
      if (err instanceof JobfitError) throw err;
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new UsageError(`${path} is not a SQLite database; nothing was changed.`);
      throw new JobfitError(`Cannot open ${path}: ${(err as Error).message}`);
    }
    const s = new SyncDb(db, path);
    try {
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a killed process loses nothing committed; only a power cut can lose the last commits.
      db.pragma('synchronous = NORMAL');
      s.migrate(created);
    } catch (err) {
      db.close();
      throw err;
    }
    return s;
  }

  /** The schema version written in the database (0: new). */
  schemaVersion(): number {
    const has = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_meta'`).get();
    if (!has) return 0;
    const v = this.db.prepare(`SELECT value FROM sync_meta WHERE key = 'schema_version'`).pluck().get() as string | undefined;
    return v === undefined ? 0 : Number(v);
  }

  private migrate(_created: boolean): void {
    const current = this.schemaVersion();
    if (!Number.isInteger(current) || current > SCHEMA_VERSION) {
      throw new UsageError(
        `${this.path} was written by a newer jobfit (database schema ${current}; this jobfit knows up to ${SCHEMA_VERSION}); nothing was changed.`,
        'upgrade jobfit, or sync into another file',
      );
    }
    for (let v = current; v < SCHEMA_VERSION; v++) {
      this.db.transaction(() => {
        // Another run may have migrated while we waited for the write lock.
        if (this.schemaVersion() > v) return;
        if (v === 0) this.db.exec(`CREATE TABLE IF NOT EXISTS sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
        this.db.exec(MIGRATIONS[v]);
        this.db.prepare(`INSERT INTO sync_meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(v + 1));
      }).immediate();
    }
  }

  // ------------------------------------------------------------------ lock

  /**
   * Takes the database's one sync lock (a row in sync_lock). A live holder
   * is named in a one-sentence refusal (exit 2); a holder that is gone (a
   * dead pid on this host, or no heartbeat for minutes from another host) is
   * replaced.
   */
  acquireLock(now: () => Date = () => new Date()): void {
    const me = { pid: process.pid, host: hostname() };
    this.db.transaction(() => {
      const held = this.db.prepare('SELECT pid, host, started_at, heartbeat_at FROM sync_lock WHERE id = 1').get() as
        | { pid: number; host: string; started_at: string; heartbeat_at: string }
        | undefined;
      if (held && !(held.pid === me.pid && held.host === me.host)) {
        const live = held.host === me.host ? alive(held.pid) : now().getTime() - Date.parse(held.heartbeat_at) < FOREIGN_LOCK_STALE_MS;
        if (live) {
          throw new SyncLockedError(
            `${this.path} is being synced by process ${held.pid}${held.host === me.host ? '' : ` on ${held.host}`} (started ${held.started_at}); try again when it has finished.`,
          );
        }
      }
      const at = now().toISOString();
      this.db
        .prepare(
          `INSERT INTO sync_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`,
        )
        .run(me.pid, me.host, at, at);
    }).immediate();
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

  releaseLock(): void {
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

  close(): void {
    this.releaseLock();
    if (this.db.open) this.db.close();
  }

  // ------------------------------------------------------------------ meta

  meta(): SyncMeta {
    const rows = this.db.prepare('SELECT key, value FROM sync_meta').all() as Array<{ key: string; value: string }>;
    return Object.fromEntries(rows.map((r) => [r.key, r.value])) as SyncMeta;
  }

  setMeta(key: keyof SyncMeta, value: string): void {
    this.db.prepare('INSERT INTO sync_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /**
   * The database belongs to one account in one mode: the first run records
   * both, later runs must match (test fakes never mix with live records).
   */
  checkOwner(mode: 'live' | 'test', accountId: string): void {
    const m = this.meta();
    if (m.mode && m.mode !== mode) {
      throw new AuthError(
        `${this.path} holds ${m.mode}-mode data and this run uses a ${mode} key; one database never mixes modes.`,
        `sync ${mode}-mode data into another file, or use the ${m.mode} key (--${m.mode})`,
      );
    }
    if (m.account_id && m.account_id !== accountId) {
      throw new UsageError(`${this.path} holds account ${m.account_id} and this key belongs to account ${accountId}; use one database per account.`);
    }
    this.db.transaction(() => {
      if (!m.mode) this.setMeta('mode', mode);
      if (!m.account_id) this.setMeta('account_id', accountId);
    })();
  }

  // ------------------------------------------------------------------ rows

  private stmt(sql: string): BetterSqlite3.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * Insert or update one row keyed on `keys`; a row whose values are all the
   * same is left alone and counted as neither.
   */
  upsert(table: string, keys: readonly string[], row: Row, counts: Counts): void {
    // One statement pair per table: rows of a table always carry the same columns.
    let u = this.upserts.get(table);
    if (!u) {
      const cols = Object.keys(row);
      const rest = cols.filter((c) => !keys.includes(c));
      u = {
        exists: this.db.prepare(`SELECT 1 FROM ${table} WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`).pluck(),
        write: this.db.prepare(
          `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')}) ` +
            `ON CONFLICT(${keys.join(', ')}) DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')} ` +
            `WHERE (${rest.map((c) => `${table}.${c}`).join(', ')}) IS NOT (${rest.map((c) => `excluded.${c}`).join(', ')})`,
        ),
        keys,
      };
      this.upserts.set(table, u);
    }
    const exists = u.exists.get(...u.keys.map((k) => row[k]));
    if (u.write.run(row).changes > 0) {
      if (exists) counts.updated++;
      else counts.inserted++;
    }
  }

  /** Deletes the child rows of `parentKey = parent` whose `key` is not in `keep` (counted as updates). */
  prune(table: string, parentKey: string, parent: number | string, key: string, keep: Array<number | string>, counts: Counts): void {
    const all = this.stmt(`SELECT ${key} FROM ${table} WHERE ${parentKey} = ?`).pluck().all(parent) as Array<number | string>;
    const k = new Set(keep);
    for (const v of all) {
      if (k.has(v)) continue;
      this.stmt(`DELETE FROM ${table} WHERE ${parentKey} = ? AND ${key} = ?`).run(parent, v);
      counts.updated++;
    }
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  all<T>(sql: string, ...args: unknown[]): T[] {
    return this.db.prepare(sql).all(...args) as T[];
  }

  // ------------------------------------------------------------------ runs

  startRun(startedAt: string, full: boolean): number {
    const r = this.db.prepare(`INSERT INTO sync_runs (started_at, status, full_sync) VALUES (?, 'running', ?)`).run(startedAt, full ? 1 : 0);
    return Number(r.lastInsertRowid);
  }

  finishRun(
    id: number,
    r: { finishedAt: string; status: string; requests: number; byKind: Record<string, number>; inserted: number; updated: number; errors: number; message?: string },
  ): void {
    this.db
      .prepare(
        `UPDATE sync_runs SET finished_at = ?, status = ?, requests = ?, requests_by_kind = ?, rows_inserted = ?, rows_updated = ?, errors = ?, message = ? WHERE id = ?`,
      )
      .run(r.finishedAt, r.status, r.requests, JSON.stringify(r.byKind), r.inserted, r.updated, r.errors, r.message ?? null, id);
  }

  /**
   * Every mirror table, rows in key order, as text: two databases synced from
   * the same service state give the same dump (sync_runs, the lock and the
   * meta table are left out).
   */
  dump(): string {
    const out: string[] = [];
    for (const t of MIRROR_TABLES) {
      out.push(`# ${t.name}`);
      for (const row of this.db.prepare(`SELECT * FROM ${t.name} ORDER BY ${t.key}`).all()) out.push(JSON.stringify(row));
    }
    return `${out.join('\n')}\n`;
  }
}
