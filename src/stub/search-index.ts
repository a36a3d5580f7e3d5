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
import type { Database } from '../core/sqlite-engines.js';
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

/** The pattern can be asked of the index: three characters or more (no NUL, which ends an FTS5 query). */
export const indexable = (pattern: string): boolean => charLength(pattern) >= INDEXED_MIN && !pattern.includes('\0');

type Column = 'email' | 'custom_id';

/** The pattern's trigrams, each once, in order (code points, as the tokenizer counts them). */
function trigramsOf(pattern: string): string[] {
  const cps = [...pattern];
  const out = new Set<string>();
  for (let i = 0; i + INDEXED_MIN <= cps.length; i++) out.add(cps.slice(i, i + INDEXED_MIN).join(''));
  return [...out];
}

/** Folded as the tokenizer folds it, near enough to find it among the index's terms (a miss only costs speed). */
const foldOf = (t: string): string => [...t].map((ch) => (ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch)).join('');

/** How many rows hold each trigram, per store: looked up once per process (fts5vocab), only to choose which to ask for. */
const docCounts = new WeakMap<Store, Map<string, number>>();
const DOC_COUNTS_MAX = 50_000;

function docsOf(store: Store, table: PeopleTable, column: Column, trigram: string): number {
  let cache = docCounts.get(store);
  if (!cache || cache.size > DOC_COUNTS_MAX) {
    cache = new Map();
    docCounts.set(store, cache);
  }
  const key = `${table} ${column} ${trigram}`;
  let n = cache.get(key);
  if (n === undefined) {
    const vocab = `temp.${searchTable(table)}_terms`;
    store.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, ${searchTable(table)}, 'col')`);
    n = Number(store.stmt(`SELECT doc FROM ${vocab} WHERE term = ? AND col = ?`).value(foldOf(trigram), column) ?? 0);
    cache.set(key, n);
  }
  return n;
}

/** Trigrams asked of the index per pattern: the rarest ones (a phrase reads every trigram's row list, `com` and `.co` hold most rows). */
const ASKED = 2;

/**
 * The FTS5 query for the indexable filters among `terms` (column → pattern):
 * for each, its rarest trigrams, all required (quotes doubled); null when
 * none is indexable. Every row holding the pattern holds each of its
 * trigrams, so the rows found are a superset of the answer (the caller's
 * LIKE decides); asking for the whole pattern as a phrase read the row list
 * of every trigram in it: 6 ms for `38@icloud.com` at 30,000 rows instead of
 * 0.06 ms for `38@` and `8@i`.
 */
export function matchQuery(store: Store, table: PeopleTable, terms: Array<[column: Column, pattern: string | undefined]>): string | null {
  const parts: string[] = [];
  for (const [column, pattern] of terms) {
    if (pattern === undefined || !indexable(pattern)) continue;
    const rarest = trigramsOf(pattern)
      .map((t) => ({ t, n: docsOf(store, table, column, t) }))
      .sort((a, b) => a.n - b.n)
      .slice(0, ASKED);
    parts.push(`${column} : (${rarest.map(({ t }) => `"${t.replace(/"/g, '""')}"`).join(' AND ')})`);
  }
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
