/**
 * SQLite for the stub's store and `jobfit sync`: one small interface over
 * two engines (docs/runtimes.md).
 *
 * - **node:sqlite**, built into node, on Node 24 and later, where it loads
 *   without a flag and without a warning. Opening the stub with it costs
 *   about 1.5 ms; with better-sqlite3, about 9 ms (loading a 2.2 MB addon,
 *   its JS and its own SQLite), most of an offline command's start-up.
 * - **better-sqlite3** on Node 22, where node:sqlite prints an
 *   ExperimentalWarning (22.13 and later) or needs a flag (22.12).
 *   `JOBFIT_SQLITE=better-sqlite3` chooses it on every line (tests run both).
 *
 * Both bind and read the same values (a JS number as SQLite does, text,
 * null, bigint, bytes); an error carries SQLite's code name in `code`
 * (`SQLITE_FULL`, `SQLITE_CONSTRAINT`, ...) whichever engine threw it.
 */
import { requirePackage } from './packages.js';
import type BetterSqlite3 from 'better-sqlite3';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

export interface RunResult {
  /** A number: neither engine is asked for bigints. */
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunResult;
  /** The first column of the first row (undefined: no row). */
  value(...params: unknown[]): unknown;
  /** The first column of every row. */
  values(...params: unknown[]): unknown[];
}

export interface Database {
  readonly engine: 'node:sqlite' | 'better-sqlite3';
  prepare(sql: string): Statement;
  exec(sql: string): void;
  /** Inside a BEGIN that has not ended (SQLite's own answer, also after it rolled back by itself). */
  readonly inTransaction: boolean;
  readonly open: boolean;
  /** `fn` between BEGIN (deferred or immediate) and COMMIT; ROLLBACK when it throws. Not nested: call it outside a transaction. */
  transaction<T>(fn: () => T, mode?: 'deferred' | 'immediate'): T;
  close(): void;
}

/** An error of SQLite, with its code name (better-sqlite3 names them so already). */
export class SqliteError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SqliteError';
  }
}

/** SQLite's primary result codes (the low byte of an extended one), by number. */
const CODE_NAMES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  16: 'SQLITE_EMPTY',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  22: 'SQLITE_NOLFS',
  23: 'SQLITE_AUTH',
  24: 'SQLITE_FORMAT',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};

/** node:sqlite's error (code ERR_SQLITE_ERROR, errcode a number) as a SqliteError; any other as it was. */
function named(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (e?.code !== 'ERR_SQLITE_ERROR' || typeof e.errcode !== 'number') return err;
  return new SqliteError(String(e.message), CODE_NAMES[e.errcode & 0xff] ?? `SQLITE_${e.errcode}`, { cause: err });
}

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw named(err);
  }
}

class NodeStatement implements Statement {
  constructor(private readonly s: StatementSync) {}
  // try/catch in each (not guard()): these are the stub's hot path.
  get(...params: unknown[]): unknown {
    try {
      return this.s.get(...(params as SQLInputValue[]));
    } catch (err) {
      throw named(err);
    }
  }
  all(...params: unknown[]): unknown[] {
    try {
      return this.s.all(...(params as SQLInputValue[]));
    } catch (err) {
      throw named(err);
    }
  }
  run(...params: unknown[]): RunResult {
    try {
      return this.s.run(...(params as SQLInputValue[])) as RunResult;
    } catch (err) {
      throw named(err);
    }
  }
  value(...params: unknown[]): unknown {
    const row = this.get(...params) as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }
  values(...params: unknown[]): unknown[] {
    return (this.all(...params) as Array<Record<string, unknown>>).map((row) => Object.values(row)[0]);
  }
}

class NodeDatabase implements Database {
  readonly engine = 'node:sqlite';
  constructor(private readonly db: DatabaseSync) {}
  prepare(sql: string): Statement {
    return new NodeStatement(guard(() => this.db.prepare(sql)));
  }
  exec(sql: string): void {
    guard(() => this.db.exec(sql));
  }
  get inTransaction(): boolean {
    return (this.db as unknown as { isTransaction: boolean }).isTransaction;
  }
  get open(): boolean {
    return (this.db as unknown as { isOpen: boolean }).isOpen;
  }
  transaction<T>(fn: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
    this.exec(mode === 'immediate' ? 'BEGIN IMMEDIATE' : 'BEGIN');
    try {
      const result = fn();
      this.exec('COMMIT');
      return result;
    } catch (err) {
      // fn or COMMIT failed; SQLite may have rolled back by itself (a full disk, an interrupt).
      if (this.inTransaction) this.exec('ROLLBACK');
      throw err;
    }
  }
  close(): void {
    if (this.open) this.db.close();
  }
}

class BetterStatement implements Statement {
  private plucked?: BetterSqlite3.Statement;
  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly s: BetterSqlite3.Statement,
  ) {}
  get(...params: unknown[]): unknown {
    return this.s.get(...params);
  }
  all(...params: unknown[]): unknown[] {
    return this.s.all(...params);
  }
  run(...params: unknown[]): RunResult {
    return this.s.run(...params);
  }
  private pluck(): BetterSqlite3.Statement {
    // A statement of its own: pluck() changes the one it is called on.
    this.plucked ??= this.db.prepare(this.s.source).pluck();
    return this.plucked;
  }
  value(...params: unknown[]): unknown {
    return this.pluck().get(...params);
  }
  values(...params: unknown[]): unknown[] {
    return this.pluck().all(...params);
  }
}

class BetterDatabase implements Database {
  readonly engine = 'better-sqlite3';
  private readonly tx: BetterSqlite3.Transaction<(fn: () => unknown) => unknown>;
  constructor(private readonly db: BetterSqlite3.Database) {
    // One wrapper for every call (better-sqlite3 builds BEGIN and COMMIT statements for each db.transaction()).
    this.tx = db.transaction((fn: () => unknown) => fn());
  }
  prepare(sql: string): Statement {
    return new BetterStatement(this.db, this.db.prepare(sql));
  }
  exec(sql: string): void {
    this.db.exec(sql);
  }
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }
  get open(): boolean {
    return this.db.open;
  }
  transaction<T>(fn: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
    return this.tx[mode](fn) as T;
  }
  close(): void {
    if (this.db.open) this.db.close();
  }
}

type Engine = (path: string) => Database;
type EngineName = Database['engine'];
const engines: Partial<Record<EngineName, Engine>> = {};
let chosen: EngineName | undefined;

/** node:sqlite where it is silent and complete (Node 24 and later), else better-sqlite3; read once, at the first open. */
function pickEngine(): EngineName {
  const major = Number(process.versions.node.split('.')[0]);
  if (process.env.JOBFIT_SQLITE === 'better-sqlite3' || major < 24) return 'better-sqlite3';
  // A node started with --no-experimental-sqlite has none: better-sqlite3 then.
  return process.getBuiltinModule('node:sqlite') ? 'node:sqlite' : 'better-sqlite3';
}

function loadEngine(name: EngineName): Engine {
  if (name === 'node:sqlite') {
    const sqlite = process.getBuiltinModule('node:sqlite');
    if (!sqlite) throw new Error('node:sqlite is not available in this Node');
    return (path) => new NodeDatabase(guard(() => new sqlite.DatabaseSync(path)));
  }
  // better-sqlite3 is CommonJS and stays outside the bundle (scripts/bundle-options.mjs).
  const Better = requirePackage('better-sqlite3') as typeof BetterSqlite3;
  return (path) => new BetterDatabase(new Better(path));
}

/**
 * Opens (creating when absent) the database file at `path`. `engine` chooses
 * one for this database (test/core/sqlite.test.ts runs both in one process);
 * without it, the one pickEngine chose.
 */
export function openDatabase(path: string, options: { engine?: EngineName } = {}): Database {
  const name = options.engine ?? (chosen ??= pickEngine());
  return (engines[name] ??= loadEngine(name))(path);
}
