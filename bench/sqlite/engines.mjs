#!/usr/bin/env node
/**
 * better-sqlite3 13 against node:sqlite, on the work the stub and `sync` do:
 * open a file database, insert N rows in one transaction, read them all back,
 * and N point lookups through one prepared statement. Rounds alternate the
 * two engines; medians are printed. node:sqlite prints an ExperimentalWarning
 * on the lines where it is not stable yet.
 *
 *   node bench/sqlite/engines.mjs [--rows 100000] [--rounds 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg } from '../lib.mjs';

const rows = Number(arg('--rows', '100000'));
const rounds = Number(arg('--rounds', '7'));
const require = createRequire(import.meta.url);
const BetterSqlite3 = require('better-sqlite3');
let NodeSqlite;
try {
  process.removeAllListeners('warning');
  NodeSqlite = (await import('node:sqlite')).DatabaseSync;
} catch {
  NodeSqlite = undefined;
}

const engines = {
  'better-sqlite3': (file) => {
    const db = new BetterSqlite3(file);
    return { exec: (s) => db.exec(s), prepare: (s) => db.prepare(s), close: () => db.close() };
  },
  ...(NodeSqlite && {
    'node:sqlite': (file) => {
      const db = new NodeSqlite(file);
      return { exec: (s) => db.exec(s), prepare: (s) => db.prepare(s), close: () => db.close() };
    },
  }),
};

function once(open) {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-bench-'));
  try {
    const t0 = performance.now();
    const db = open(join(dir, 'b.db'));
    db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, email TEXT, name TEXT, created_at TEXT, score REAL)');
    const ins = db.prepare('INSERT INTO t (id, email, name, created_at, score) VALUES (?, ?, ?, ?, ?)');
    db.exec('BEGIN');
    for (let i = 1; i <= rows; i++) ins.run(i, `p${i}@example.com`, `Person ${i}`, '2026-11-24T10:00:00Z', i / 7);
    db.exec('COMMIT');
    const t1 = performance.now();
    const all = db.prepare('SELECT * FROM t ORDER BY id').all();
    if (all.length !== rows) throw new Error(`read ${all.length} of ${rows}`);
    const t2 = performance.now();
    const get = db.prepare('SELECT * FROM t WHERE id = ?');
    for (let i = 1; i <= rows; i++) get.get(i);
    const t3 = performance.now();
    db.close();
    return { insert: t1 - t0, readAll: t2 - t1, lookups: t3 - t2 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = Object.fromEntries(Object.keys(engines).map((k) => [k, { insert: [], readAll: [], lookups: [] }]));
for (let r = 0; r < rounds; r++) {
  for (const [name, open] of Object.entries(engines)) {
    const t = once(open);
    for (const k of Object.keys(t)) times[name][k].push(t[k]);
  }
}
console.log(`node ${process.versions.node}, ${rows} rows, ${rounds} rounds, medians in ms`);
const base = times['better-sqlite3'];
for (const [name, t] of Object.entries(times)) {
  const cells = Object.keys(t).map((k) => `${k} ${median(t[k]).toFixed(0)} (${(median(t[k]) / median(base[k])).toFixed(2)}x)`);
  console.log(`${name.padEnd(15)} ${cells.join('  ')}`);
}
if (!NodeSqlite) console.log('node:sqlite: not available on this line');
