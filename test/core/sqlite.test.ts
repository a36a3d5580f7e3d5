/**
 * src/core/sqlite-engines.ts: the one interface over node:sqlite and better-sqlite3.
 * The stub's store and `jobfit sync` rely on both engines answering alike
 * (values, parameters, transactions, error code names), so every case runs
 * on both, in this one process (openDatabase's `engine` option). node:sqlite
 * is used only on Node 24 and later: its half is skipped below that (CI runs
 * this file on Node 24). The choice by JOBFIT_SQLITE is checked in a child
 * process, where the first open has not happened yet.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, SqliteError } from '../../src/core/sqlite-engines.js';
import { ROOT } from '../e2e/built.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const ENGINES = ['node:sqlite', 'better-sqlite3'] as const;

let tmp: string;
let n = 0;
const opened: Database[] = [];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-sqlite-'));
});
afterAll(() => {
  for (const db of opened) db.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The error `fn` throws (fails the test when it throws none). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error, none was thrown');
}

for (const engine of ENGINES) {
  const skip = engine === 'node:sqlite' && NODE_MAJOR < 24;
  describe.skipIf(skip)(`${engine}${skip ? ' (skipped: node:sqlite is used on Node 24 and later only; CI runs this on 24)' : ''}`, () => {
    /** A new database file of this engine, closed after the file. */
    function open(path = join(tmp, `${engine.replace(':', '-')}-${++n}.sqlite`)): Database {
      const db = openDatabase(path, { engine });
      opened.push(db);
      return db;
    }

    it('is the engine asked for', () => {
      expect(open().engine).toBe(engine);
    });

    it('values round-trip: integer, real, text, null, bigint, bytes', () => {
      const db = open();
      db.exec('CREATE TABLE v (i INTEGER, r REAL, t TEXT, n TEXT, b INTEGER, x BLOB, y BLOB)');
      db.prepare('INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?)').run(42, 1.5, 'Zoë ✓', null, 2n ** 40n, Buffer.from([0, 1, 255]), new Uint8Array([7, 8]));
      const row = db.prepare('SELECT * FROM v').get() as Record<string, unknown>;
      expect({ ...row, x: undefined, y: undefined }).toEqual({ i: 42, r: 1.5, t: 'Zoë ✓', n: null, b: 2 ** 40, x: undefined, y: undefined });
      // node:sqlite reads a blob as a Uint8Array, better-sqlite3 as a Buffer: the bytes are what matter.
      expect(row.x).toBeInstanceOf(Uint8Array);
      expect([...(row.x as Uint8Array)]).toEqual([0, 1, 255]);
      expect([...(row.y as Uint8Array)]).toEqual([7, 8]);
      // SQLite's own types: a JS number binds as a real, a bigint as an integer.
      expect(db.prepare('SELECT typeof(?) AS a, typeof(?) AS b, typeof(?) AS c').get(42, 2n ** 40n, 'x')).toEqual({ a: 'real', b: 'integer', c: 'text' });
    });

    it('named parameters: @name with an object', () => {
      const db = open();
      db.exec('CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT, team INTEGER)');
      const ins = db.prepare('INSERT INTO p (name, team) VALUES (@name, @team)');
      ins.run({ name: 'Ada', team: 1 });
      ins.run({ name: 'Bo', team: 2 });
      expect(db.prepare('SELECT name FROM p WHERE team = @team').get({ team: 2 })).toEqual({ name: 'Bo' });
      expect(db.prepare('SELECT name, team FROM p WHERE name >= @from ORDER BY id').all({ from: 'A' })).toEqual([
        { name: 'Ada', team: 1 },
        { name: 'Bo', team: 2 },
      ]);
    });

    it('value(): the first column of the first row, undefined without one; values(): the first column of each', () => {
      const db = open();
      db.exec("CREATE TABLE q (a INTEGER, b TEXT); INSERT INTO q VALUES (1, 'one'), (2, 'two'), (3, 'three')");
      const s = db.prepare('SELECT b, a FROM q WHERE a >= ? ORDER BY a');
      expect(s.value(2)).toBe('two');
      expect(s.value(9)).toBeUndefined();
      expect(s.values(1)).toEqual(['one', 'two', 'three']);
      expect(s.values(9)).toEqual([]);
      // The same statement still gives whole rows after value()/values().
      expect(s.get(3)).toEqual({ b: 'three', a: 3 });
      expect(db.prepare('SELECT COUNT(*) FROM q').value()).toBe(3);
    });

    it('run(): changes and lastInsertRowid', () => {
      const db = open();
      db.exec('CREATE TABLE r (id INTEGER PRIMARY KEY, k TEXT)');
      const ins = db.prepare('INSERT INTO r (k) VALUES (?)');
      expect(ins.run('a')).toEqual({ changes: 1, lastInsertRowid: 1 });
      expect(ins.run('b')).toEqual({ changes: 1, lastInsertRowid: 2 });
      const up = db.prepare("UPDATE r SET k = 'z'").run();
      expect(up.changes).toBe(2);
      expect(typeof up.changes).toBe('number');
      expect(db.prepare('DELETE FROM r WHERE id = ?').run(99).changes).toBe(0);
    });

    it('transaction: commits, gives back what fn returned, inTransaction true inside and false after', () => {
      const db = open();
      db.exec('CREATE TABLE t (k TEXT)');
      expect(db.inTransaction).toBe(false);
      const seen: boolean[] = [];
      for (const mode of [undefined, 'deferred', 'immediate'] as const) {
        const got = db.transaction(() => {
          seen.push(db.inTransaction);
          db.prepare('INSERT INTO t VALUES (?)').run(mode ?? 'default');
          return mode ?? 'default';
        }, mode);
        expect(got).toBe(mode ?? 'default');
        expect(db.inTransaction).toBe(false);
      }
      expect(seen).toEqual([true, true, true]);
      // Committed: another connection sees the rows.
      expect(open(dbPath(db)).prepare('SELECT k FROM t ORDER BY rowid').values()).toEqual(['default', 'deferred', 'immediate']);
    });

    it('transaction: a throw inside rolls back and is thrown again, the same error', () => {
      const db = open();
      db.exec("CREATE TABLE t (k TEXT); INSERT INTO t VALUES ('kept')");
      const boom = new Error('boom');
      for (const mode of ['deferred', 'immediate'] as const) {
        const err = thrown(() =>
          db.transaction(() => {
            db.prepare("INSERT INTO t VALUES ('gone')").run();
            db.prepare("UPDATE t SET k = 'changed' WHERE k = 'kept'").run();
            throw boom;
          }, mode),
        );
        expect(err).toBe(boom);
        expect(db.inTransaction).toBe(false);
      }
      expect(db.prepare('SELECT k FROM t').values()).toEqual(['kept']);
      // An error of SQLite inside rolls back too (the first insert undone).
      db.exec('CREATE UNIQUE INDEX t_k ON t (k)');
      const err = thrown(() =>
        db.transaction(() => {
          db.prepare("INSERT INTO t VALUES ('new')").run();
          db.prepare("INSERT INTO t VALUES ('kept')").run();
        }),
      );
      expect((err as SqliteError).code).toMatch(/^SQLITE_CONSTRAINT/);
      expect(db.inTransaction).toBe(false);
      expect(db.prepare('SELECT k FROM t').values()).toEqual(['kept']);
    });

    it("an immediate transaction holds the write lock: a second connection's write is SQLITE_BUSY", () => {
      const a = open();
      a.exec('CREATE TABLE w (k TEXT)');
      const b = open(dbPath(a));
      // No wait for the lock (better-sqlite3 waits 5 s by default): the answer at once.
      b.exec('PRAGMA busy_timeout = 0');
      a.transaction(() => {
        a.prepare("INSERT INTO w VALUES ('a')").run();
        const err = thrown(() => b.prepare("INSERT INTO w VALUES ('b')").run());
        expect(err).toMatchObject({ code: 'SQLITE_BUSY' });
        expect(thrown(() => b.transaction(() => 0, 'immediate'))).toMatchObject({ code: 'SQLITE_BUSY' });
        expect(b.inTransaction).toBe(false);
      }, 'immediate');
      // Once a committed, b writes.
      b.prepare("INSERT INTO w VALUES ('b')").run();
      expect(a.prepare('SELECT k FROM w ORDER BY rowid').values()).toEqual(['a', 'b']);
    });

    it('errors carry SQLite code names: CONSTRAINT, READONLY, NOTADB, and ERROR for bad SQL', () => {
      const db = open();
      db.exec('CREATE TABLE u (k TEXT UNIQUE NOT NULL)');
      db.prepare("INSERT INTO u VALUES ('x')").run();
      const unique = thrown(() => db.prepare("INSERT INTO u VALUES ('x')").run());
      expect((unique as { code: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
      expect((unique as Error).message).toMatch(/UNIQUE/);
      const notNull = thrown(() => db.prepare('INSERT INTO u VALUES (?)').run(null));
      expect((notNull as { code: string }).code).toMatch(/^SQLITE_CONSTRAINT/);

      db.exec('PRAGMA query_only = 1');
      expect(thrown(() => db.prepare("INSERT INTO u VALUES ('y')").run())).toMatchObject({ code: 'SQLITE_READONLY' });
      expect(thrown(() => db.exec("INSERT INTO u VALUES ('y')"))).toMatchObject({ code: 'SQLITE_READONLY' });
      db.exec('PRAGMA query_only = 0');

      expect(thrown(() => db.prepare('SELEKT 1'))).toMatchObject({ code: 'SQLITE_ERROR' });

      const junk = join(tmp, `junk-${engine.replace(':', '-')}.sqlite`);
      writeFileSync(junk, 'this is not a database, only text long enough to be read as a header '.repeat(20));
      const notadb = thrown(() => open(junk).prepare('SELECT * FROM sqlite_master').all());
      expect(notadb).toMatchObject({ code: 'SQLITE_NOTADB' });
      // node:sqlite's errors are rewritten as SqliteError (better-sqlite3's own class names them already).
      if (engine === 'node:sqlite') for (const e of [unique, notadb]) expect(e).toBeInstanceOf(SqliteError);
    });

    it('close() twice is fine; open is false after', () => {
      const db = open();
      expect(db.open).toBe(true);
      db.close();
      expect(db.open).toBe(false);
      expect(() => db.close()).not.toThrow();
      expect(db.open).toBe(false);
    });
  });
}

/** The file of a database opened by `open` (its first-column answer of PRAGMA database_list). */
function dbPath(db: Database): string {
  return (db.prepare('PRAGMA database_list').all() as Array<{ name: string; file: string }>).find((d) => d.name === 'main')!.file;
}

describe('the engine without the option: chosen once, at the first open', () => {
  /** A child's engine for two opens, JOBFIT_SQLITE set to `first` before the first and `second` before the second. */
  function childEngines(first: string | undefined, second: string | undefined): string {
    const src = join(ROOT, 'src/core/sqlite-engines.ts');
    const code = `
      const { openDatabase } = await import(${JSON.stringify(src)});
      const set = (v) => { if (v === undefined) delete process.env.JOBFIT_SQLITE; else process.env.JOBFIT_SQLITE = v; };
      set(${JSON.stringify(first ?? null)} ?? undefined);
      const a = openDatabase(':memory:').engine;
      set(${JSON.stringify(second ?? null)} ?? undefined);
      const b = openDatabase(':memory:').engine;
      console.log(a + ' ' + b);`;
    const env = { ...process.env };
    delete env.JOBFIT_SQLITE;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', env, cwd: ROOT });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.trim();
  }

  it.skipIf(NODE_MAJOR < 24)('Node 24: node:sqlite; JOBFIT_SQLITE=better-sqlite3 chooses better-sqlite3; set after the first open it changes nothing', () => {
    expect(childEngines(undefined, 'better-sqlite3')).toBe('node:sqlite node:sqlite');
    expect(childEngines('better-sqlite3', undefined)).toBe('better-sqlite3 better-sqlite3');
  });

  it.skipIf(NODE_MAJOR >= 24)('Node 22: better-sqlite3 (node:sqlite warns or needs a flag there)', () => {
    expect(childEngines(undefined, undefined)).toBe('better-sqlite3 better-sqlite3');
  });
});
