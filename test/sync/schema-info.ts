/**
 * What a sync database declares, read from the database itself (PostgreSQL's
 * information_schema, SQLite's pragmas), not through the sync's store; and a
 * schema 1 database as an older jobfit left it, for the migration tests.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { migration } from '../../src/sync/schema.js';
import { exec } from './helpers.js';

const isPg = (target: string) => /^postgres/.test(target);

async function pgRows<T>(target: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: target });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

function sqliteRows<T>(target: string, sql: string): T[] {
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

export interface ColumnInfo {
  table: string;
  column: string;
  type: string;
}

/** Every column of every table, as the database declares it (information_schema.columns on PostgreSQL). */
export async function schemaColumns(target: string): Promise<ColumnInfo[]> {
  if (isPg(target)) {
    return pgRows<ColumnInfo>(
      target,
      `SELECT table_name AS table, column_name AS column, data_type AS type FROM information_schema.columns
       WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    );
  }
  return sqliteRows<ColumnInfo>(
    target,
    `SELECT m.name AS "table", p.name AS "column", p.type AS type FROM sqlite_master m JOIN pragma_table_info(m.name) p
     WHERE m.type = 'table' ORDER BY m.name, p.cid`,
  );
}

export interface ForeignKeyInfo {
  table: string;
  column: string;
  /** table.column */
  references: string;
}

/** The foreign keys declared (information_schema's constraints on PostgreSQL). */
export async function schemaForeignKeys(target: string): Promise<ForeignKeyInfo[]> {
  if (isPg(target)) {
    return pgRows<ForeignKeyInfo>(
      target,
      `SELECT k.table_name AS table, k.column_name AS column, r.table_name || '.' || r.column_name AS references
       FROM information_schema.table_constraints c
       JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
       JOIN information_schema.constraint_column_usage r ON r.constraint_name = c.constraint_name AND r.table_schema = c.table_schema
       WHERE c.constraint_type = 'FOREIGN KEY' AND c.table_schema = current_schema()`,
    );
  }
  return sqliteRows<ForeignKeyInfo>(
    target,
    `SELECT m.name AS "table", f."from" AS "column", f."table" || '.' || f."to" AS "references" FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table'`,
  );
}

/**
 * A schema 1 database as jobfit before version 2 wrote it: text timestamps,
 * integer flags, text JSON, no keys, a released lock row, an old run, a
 * person with stale rows (fetched again by the next run) and a scorecard of
 * a test taker never stored (which the keys would refuse).
 */
export async function writeSchemaV1(target: string): Promise<void> {
  const d = isPg(target) ? 'postgres' : 'sqlite';
  if (d === 'sqlite') new Database(target).close();
  await exec(
    target,
    `CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     ${migration(d, 0, { columnsOf: () => [] })}
     INSERT INTO sync_meta (key, value) VALUES ('schema_version', '1'), ('mode', 'live'), ('account_id', '900'), ('score_profiles', '["sales-rep"]');
     INSERT INTO sync_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, 0, '', '', '');
     INSERT INTO sync_runs (started_at, finished_at, status, full_sync, requests, requests_by_kind) VALUES ('2026-11-01T08:00:00.000Z', '2026-11-01T08:00:05.000Z', 'ok', 1, 1, '{"account":1}');
     INSERT INTO invitations (id, created_at, accepted_at, email, send_via_email, send_via_sms, send_congrats_notification, test_taker_id, raw, list_hash, basis)
       VALUES (50005, '2026-11-02T09:04:00.000Z', '2026-11-02T10:04:00.000Z', 'old@example.org', 1, 0, 1, 70005, '{"id":50005}', 'old', 'old');
     INSERT INTO test_takers (id, invitation_id, completed_tests, assessments_open, raw, list_hash, basis) VALUES (70005, 50005, '6', 1, '{"id":70005}', 'old', 'old');
     INSERT INTO assigned_assessments (id, test_taker_id, position, assessment_id, completed_at) VALUES (700050, 70005, 0, 6, '2026-11-02T11:04:00.000Z');
     INSERT INTO scorecards (test_taker_id, score_profile, fitscore_raw, job_fit_percentage, raw, basis) VALUES (70005, 'sales-rep', 0.5, 41.5, '{}', 'old');
     INSERT INTO scorecards (test_taker_id, score_profile, raw, basis) VALUES (79999, 'sales-rep', '{}', 'orphan');`,
  );
}
