/**
 * The stub's state: one SQLite file `<dataDir>/stub.db`, shared by a running
 * `stub serve` and CLI commands such as `stub accept` in other processes.
 *
 * - WAL mode + busy_timeout: readers never block the writer and a second
 *   writer waits instead of failing with SQLITE_BUSY.
 * - Every write runs in `BEGIN IMMEDIATE` (store.write), so a read-then-write
 *   (duplicate checks, then insert) cannot interleave with another process.
 * - Scores are not stored: scoring.ts derives them from (account, test taker,
 *   completed tests).
 */
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { ensurePrivateDir, ensurePrivateFile } from '../core/files.js';
import { trustProblem } from '../core/trust.js';
import { type DiskCondition, conditionText, diskConditionOf } from '../core/disk.js';
import { type Database, type RunResult, type Statement, openDatabase } from '../core/sqlite-engines.js';
import { checkSqliteSideFiles, prepareSqliteSideFiles } from '../core/sqlite-files.js';
import { dropSearchIndex, ensureSearchIndex } from './search-index.js';
import { SCHEMA, TABLES, migrateSchema } from './schema.js';


// Invitation and test taker ids start in different ranges so that one used in
// place of the other is caught at once (400) rather than answering by chance.
const FIRST_INVITATION_ID = 100_000;
const FIRST_TEST_TAKER_ID = 500_000;

export const DB_FILE = 'stub.db';

/** The page cache outside seeding: 4 MB (SQLite's default is 2). */
const SMALL_CACHE = -4096;
/**
 * The page cache while seeding (withLargeCache): 8 MB. A 10,000-person seed
 * never fills it; at 100,000 a 16 MB cache added 16 MB to the peak (117 MB
 * against 93 at 10,000, 1.26x; issue 47 asks at most 1.2x) for no rate the
 * load let us tell apart: 105 MB at 8 MB.
 */
const SEED_CACHE = -8192;

export const DEFAULT_ORIGIN = 'http://127.0.0.1:4010';

/** The origin that URLs in event payloads and emails use: the last `stub serve`'s, else the default. */
export function originOf(store: Store): string {
  return store.meta('origin') ?? DEFAULT_ORIGIN;
}

/** A disk condition is logged again only after it has not been seen for this long. */
const DISK_WARNING_QUIET_MS = 5 * 60_000;

/** The store cannot be opened or written because of its disk (full, read-only, not writable). */
export class StubDiskError extends Error {
  readonly code: string;
  /** The cause as the end of a sentence: "the stub's data directory <dir> is on a full disk". */
  readonly reason: string;
  constructor(
    readonly condition: DiskCondition,
    readonly dataDir: string,
    cause?: unknown,
  ) {
    const reason = `the stub's data directory ${dataDir} ${conditionText(condition)}`;
    super(`T${reason.slice(1)}`, cause === undefined ? undefined : { cause });
    this.reason = reason;
    this.name = 'StubDiskError';
    this.code = condition === 'full' ? 'ENOSPC' : condition === 'read-only' ? 'EROFS' : 'EACCES';
  }
}

export class Store {
  readonly db: Database;
  readonly path: string;
  private readonly stmts = new Map<string, Statement>();
  /**
   * References to configuration rows (team, account, template, user by id),
   * which only a reset changes and a reset restores to the same values, so
   * they can be remembered for the life of the connection.
   */
  readonly refCache = new Map<string, unknown>();
  /** Counts this connection's writes (run() and write()), so a cached read can tell it is stale. */
  writes = 0;

  /** Where warnings go (one line each); tests collect them. */
  warn: (line: string) => void = (line) => process.stderr.write(`jobfit stub: warning: ${line}\n`);
  private readonly diskSeen = new Map<DiskCondition, number>();

  constructor(readonly dataDir: string) {
    // The database holds people's names, emails, phones and assessment links:
    // owner-only from the first run. SQLite gives the -wal and -shm files the
    // mode of the database file, so that one is made 0600 before it opens it.
    // (An existing folder is left as it is: --data may name any folder.)
    this.path = join(dataDir, DB_FILE);
    // Another user's database (or one others can write) never receives people's data.
    const unsafe = trustProblem(this.path, "The stub's database", 'give the stub another data folder');
    if (unsafe) throw new UsageError(unsafe);
    // Its -wal, -shm and -journal: ours or refused, and made by us (core/sqlite-files.ts).
    checkSqliteSideFiles(this.path, "The stub's database", 'give the stub another data folder');
    try {
      ensurePrivateDir(dataDir);
      ensurePrivateFile(this.path);
      prepareSqliteSideFiles(this.path, "The stub's database", 'give the stub another data folder');
      this.db = openDatabase(this.path);
      this.db.exec('PRAGMA busy_timeout = 5000');
      this.db.exec('PRAGMA journal_mode = WAL');
    } catch (err) {
      throw this.diskError(err) ?? err;
    }
    try {
      checkSqliteSideFiles(this.path, "The stub's database", 'give the stub another data folder');
    } catch (err) {
      this.db.close();
      throw err;
    }
    // OFF: no fsync at all. A commit still reaches the operating system before
    // the answer goes out, so it survives the stub (or a client) being killed;
    // only a power cut or OS crash could lose the last writes, which does not
    // matter for a local stand-in of the service. The fsyncs of NORMAL (at
    // every checkpoint) were more than half the cost of a commit under a bulk
    // invite load (measured: 385 vs 120 ms of commits per 10,000 rows).
    this.db.exec('PRAGMA synchronous = OFF');
    this.db.exec('PRAGMA foreign_keys = OFF');
    // A small page cache: the embedded stub lives in the command's process, and
    // a 64 MB cache filled up as an export read a 100,000-person store (its
    // peak grew with the store). Seeding asks for a large one while it runs.
    this.db.exec(`PRAGMA cache_size = ${SMALL_CACHE}`);
    // Fewer, larger checkpoints: each one syncs the database file, the costliest step of a small write.
    this.db.exec('PRAGMA wal_autocheckpoint = 8000');
    try {
      this.write(() => {
        this.db.exec(SCHEMA);
        migrateSchema(this.db);
        ensureSearchIndex(this.db);
      });
    } catch (err) {
      this.close();
      throw this.diskError(err) ?? err;
    }
  }

  /** The error of a write as a StubDiskError when the disk is the cause, else undefined. */
  diskError(err: unknown): StubDiskError | undefined {
    if (err instanceof StubDiskError) return err;
    const condition = diskConditionOf(err, this.dataDir);
    return condition ? new StubDiskError(condition, this.dataDir, err) : undefined;
  }

  /**
   * Logs that writes fail for `condition`: once, not once per write; again
   * only when it comes back after DISK_WARNING_QUIET_MS without it.
   */
  noteDiskCondition(condition: DiskCondition): void {
    const now = Date.now();
    const last = this.diskSeen.get(condition);
    this.diskSeen.set(condition, now);
    if (last !== undefined && now - last < DISK_WARNING_QUIET_MS) return;
    this.warn(
      `${this.dataDir} ${conditionText(condition)}: writes are refused with ${condition === 'full' ? '507' : '503'} until it is fixed; reads are still served.`,
    );
  }

  /** A cached prepared statement. */
  stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.stmt(sql).all(...params) as T[];
  }

  run(sql: string, ...params: unknown[]): RunResult {
    this.writes++;
    return this.stmt(sql).run(...params);
  }

  /** Runs `fn` in a BEGIN IMMEDIATE transaction (nested calls join the outer one). */
  write<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    try {
      return this.db.transaction(fn, 'immediate');
    } finally {
      this.writes++;
    }
  }

  /**
   * Runs `fn` with a larger page cache (SEED_CACHE): bulk seeding touches
   * random pages of several indexes. 64 MB (an old setting) peaked at 167 MB.
   */
  withLargeCache<T>(fn: () => T): T {
    this.db.exec(`PRAGMA cache_size = ${SEED_CACHE}`);
    try {
      return fn();
    } finally {
      this.db.exec(`PRAGMA cache_size = ${SMALL_CACHE}`);
    }
  }

  /** Runs `fn` in a read transaction, so that a count and a page see the same snapshot. */
  read<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    return this.db.transaction(fn, 'deferred');
  }

  meta(key: string): string | undefined {
    return this.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', key, value);
  }

  /**
   * Empties every table (the service's, and those other parts of the stub
   * add, such as the webhook queue) and the id counters. Call inside
   * store.write; the meta table is left to its owners.
   */
  clear(): void {
    // The filters' index goes first (no trigger per deleted row) and comes back empty.
    dropSearchIndex(this.db);
    for (const t of TABLES) this.db.exec(`DELETE FROM ${t}`);
    const extra = this.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('meta', 'sqlite_sequence')")
      .map((r) => r.name)
      .filter((n) => !TABLES.includes(n));
    for (const t of extra) this.db.exec(`DELETE FROM "${t}"`);
    this.db.exec('DELETE FROM sqlite_sequence');
    ensureSearchIndex(this.db);
  }

  /** Starts the ids of invitations and test takers in their ranges. Call inside store.write, on an empty store. */
  startIdRanges(): void {
    this.db.exec(`INSERT INTO sqlite_sequence (name, seq) VALUES ('invitations', ${FIRST_INVITATION_ID - 1}), ('test_takers', ${FIRST_TEST_TAKER_ID - 1})`);
  }

  close(): void {
    this.stmts.clear();
    if (this.db.open) this.db.close();
  }
}
