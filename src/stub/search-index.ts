/**
 * The index behind the `email` and `custom_id` filters of GET /invitations
 * and GET /test-takers: one FTS5 table per people table, `trigram` tokenizer
 * (SQLite 3.34 and later; node:sqlite and better-sqlite3 both ship FTS5 with
 * it, docs/stub.md names the versions).
 *
 * A new row is indexed by the code that inserts it (indexPerson); updates and
 * deletes by triggers. Not inserts: FTS5 writes its pending terms out at every
 * statement savepoint, and a trigger runs in one, so a trigger per inserted
 * row left one tiny segment per row to merge (a 30,000-person seed took 14 s
 * instead of 4).
 *
 * The index only narrows: a pattern of three characters or more is asked of
 * it as a phrase (a substring, case folded), and the rows it names are then
 * held to the filter's own rule, `LIKE '%…%'` (SQLite's: ASCII letters
 * ignore case, every other character matches itself). The tokenizer folds
 * more than LIKE does (non-ASCII letters too), never less, so its rows are a
 * superset of the answer and the answer is exactly the old scan's
 * (test/stub/search-index.test.ts compares them on random data).
 */
import { charLength } from '../api/limits.js';
import type { Database } from '../core/sqlite.js';
import type { Store } from './store.js';

export type PeopleTable = 'invitations' | 'test_takers';
const PEOPLE: PeopleTable[] = ['invitations', 'test_takers'];

/** The FTS5 table that indexes a people table's email and custom_id. */
export const searchTable = (t: PeopleTable): string => `${t}_search`;

/** The shortest pattern the trigram index can answer. */
export const INDEXED_MIN = 3;

function schemaOf(t: PeopleTable): string {
  const s = searchTable(t);
  // External content (the text stays in the people table only); columnsize=0:
  // nothing here ranks, so the per-row sizes are not kept.
  return `
CREATE VIRTUAL TABLE IF NOT EXISTS ${s} USING fts5(email, custom_id, content='${t}', content_rowid='id', tokenize='trigram', columnsize=0);
CREATE TRIGGER IF NOT EXISTS ${s}_delete AFTER DELETE ON ${t} BEGIN
  INSERT INTO ${s} (${s}, rowid, email, custom_id) VALUES ('delete', old.id, old.email, old.custom_id);
END;
CREATE TRIGGER IF NOT EXISTS ${s}_update AFTER UPDATE OF email, custom_id ON ${t} BEGIN
  INSERT INTO ${s} (${s}, rowid, email, custom_id) VALUES ('delete', old.id, old.email, old.custom_id);
  INSERT INTO ${s} (rowid, email, custom_id) VALUES (new.id, new.email, new.custom_id);
END;`;
}

/**
 * Creates the indexes (and their triggers) when missing; a store made before
 * them gets its rows indexed once. Call inside a write transaction.
 */
export function ensureSearchIndex(db: Database): void {
  const have = new Set(
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${PEOPLE.map((t) => `'${searchTable(t)}'`).join(', ')})`).values() as string[]),
  );
  for (const t of PEOPLE) {
    db.exec(schemaOf(t));
    if (!have.has(searchTable(t))) db.exec(`INSERT INTO ${searchTable(t)} (${searchTable(t)}) VALUES ('rebuild')`);
  }
}

/**
 * Drops the indexes and their triggers (store.clear empties the people
 * tables then, without a trigger per row); ensureSearchIndex makes them anew.
 */
export function dropSearchIndex(db: Database): void {
  for (const t of PEOPLE) {
    const s = searchTable(t);
    for (const trig of ['delete', 'update']) db.exec(`DROP TRIGGER IF EXISTS ${s}_${trig}`);
    db.exec(`DROP TABLE IF EXISTS ${s}`);
  }
}

/** The names the indexes add to the schema (the FTS5 table and its shadow tables). */
export const isSearchTable = (name: string): boolean => PEOPLE.some((t) => name === searchTable(t) || name.startsWith(`${searchTable(t)}_`));

/** The pattern can be asked of the index: three characters or more (no NUL, which ends an FTS5 query). */
export const indexable = (pattern: string): boolean => charLength(pattern) >= INDEXED_MIN && !pattern.includes('\0');

/**
 * The FTS5 query for the indexable filters among `terms` (column → pattern):
 * each a phrase (quotes doubled) on its column, all of them required; null
 * when none is indexable.
 */
export function matchQuery(terms: Array<[column: 'email' | 'custom_id', pattern: string | undefined]>): string | null {
  const parts = terms.filter((e): e is ['email' | 'custom_id', string] => e[1] !== undefined && indexable(e[1])).map(([col, p]) => `${col} : "${p.replace(/"/g, '""')}"`);
  return parts.length > 0 ? parts.join(' AND ') : null;
}

/** Indexes a row just inserted into a people table (in the same transaction). */
export function indexPerson(store: Store, table: PeopleTable, id: number, email: string, customId: string | null): void {
  store.run(`INSERT INTO ${searchTable(table)} (rowid, email, custom_id) VALUES (?, ?, ?)`, id, email, customId);
}

/** Indexes the rows of a people table from id `first` on, inserted just now (a seed's, at once). */
export function indexFrom(store: Store, table: PeopleTable, first: number): void {
  store.run(`INSERT INTO ${searchTable(table)} (rowid, email, custom_id) SELECT id, email, custom_id FROM ${table} WHERE id >= ?`, first);
}
