/**
 * The PostgreSQL backend of `jobfit sync` (`--db postgres://user@host/db`),
 * through `pg`. The same tables, rules and refusals as SQLite
 * (src/sync/store.ts); the tables live in the connection's current schema.
 */
import { requirePackage } from '../core/packages.js';
import { hostname } from 'node:os';
import type pg from 'pg';
import { JobfitError, UsageError } from '../core/errors.js';
import { MIRROR_TABLES, SCHEMA_VERSION, migration } from './schema.js';
import {
  HEARTBEAT_MS,
  type LockHolder,
  type RunRecord,
  type SyncMeta,
  type SyncStore,
  type Writer,
  DatabaseGoneError,
  checkLockHolder,
  newerSchemaError,
} from './store.js';

/** Any constant: serialises migrations of one database across processes. */
const MIGRATION_LOCK = 74_201_317;

let pgModule: typeof pg | undefined;
function loadPg(): typeof pg {
  // CommonJS, loaded at run time (and only by a postgres:// sync).
  pgModule ??= requirePackage('pg') as typeof pg;
  return pgModule;
}

/** The URL without its passwords (userinfo, `?password=`, `?sslpassword=`, any `*password*`), for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const name of [...u.searchParams.keys()]) if (/password/i.test(name)) u.searchParams.set(name, '***');
    return u.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}

type Queryable = Pick<pg.Client, 'query'>;

/** SQLSTATE classes and socket errors that mean the server or the connection went away, not the statement failed. */
function connectionLost(err: unknown): boolean {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (/^(08|57P)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
  return /Connection terminated|connection error|not queryable|Client was closed/i.test((err as Error | null)?.message ?? '');
}

export class PostgresStore implements SyncStore {
  readonly label: string;
  private readonly client: pg.Client;
  private heartbeat?: NodeJS.Timeout;
  private lockHeld = false;
  private upserts = new Map<string, { sql: string; cols: string[] }>();

  private constructor(client: pg.Client, label: string) {
    this.client = client;
    this.label = label;
  }

  static async open(url: string): Promise<PostgresStore> {
    const label = redactUrl(url);
    const { Client, types } = loadPg();
    // Values read back as SQLite gives them, so a row reads the same on both backends: BIGINT ids and
    // NUMERIC scores as numbers (ids stay far below 2^53), JSONB as its text, TIMESTAMPTZ as ISO 8601 in UTC.
    const parseDate = types.getTypeParser(1184) as (v: string) => Date;
    const parsers: Record<number, (v: string) => unknown> = {
      20: Number,
      1700: Number,
      3802: (v) => v,
      1184: (v) => parseDate(v).toISOString(),
    };
    const client = new Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      types: { getTypeParser: (oid: number, format?: 'text' | 'binary') => parsers[oid] ?? types.getTypeParser(oid, format) } as pg.CustomTypesConfig,
    });
    // A dropped connection is reported by the query that needed it.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (err) {
      throw new JobfitError(`Cannot connect to ${label}: ${(err as Error).message}.`, { hint: 'check the URL, that the server runs and that the user may log in' });
    }
    const s = new PostgresStore(client, label);
    try {
      await s.migrate();
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    return s;
  }

  /** A query of the run; a connection the server dropped is DatabaseGoneError. */
  private async q<R extends pg.QueryResultRow = Record<string, unknown>>(text: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.client.query<R>(text as string, values);
    } catch (err) {
      throw connectionLost(err) ? new DatabaseGoneError(`PostgreSQL went away (${this.label}: ${(err as Error).message}).`, { cause: err }) : err;
    }
  }

  private async tables(q: Queryable = this.client): Promise<string[]> {
    const r = await q.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`);
    return r.rows.map((x) => x.table_name);
  }

  private async version(q: Queryable): Promise<number> {
    if (!(await this.tables(q)).includes('sync_meta')) return 0;
    const r = await q.query<{ value: string }>(`SELECT value FROM sync_meta WHERE key = 'schema_version'`);
    return r.rows.length ? Number(r.rows[0].value) : 0;
  }

  private async migrate(): Promise<void> {
    const tables = await this.tables();
    if (tables.length > 0 && !tables.includes('sync_meta')) {
      throw new UsageError(`${this.label} already has tables that jobfit sync did not create; nothing was changed.`, 'give a new database (or schema), or one written by `jobfit sync`');
    }
    const current = await this.version(this.client);
    if (!Number.isInteger(current) || current > SCHEMA_VERSION) throw newerSchemaError(this.label, current, SCHEMA_VERSION);
    for (let v = current; v < SCHEMA_VERSION; v++) {
      await this.inTransaction(async () => {
        await this.client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        // Another run may have migrated while we waited.
        if ((await this.version(this.client)) > v) return;
        if (v === 0) await this.client.query('CREATE TABLE IF NOT EXISTS sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
        await this.client.query(migration('postgres', v, { columnsOf: () => [] }));
        await this.client.query(`INSERT INTO sync_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [String(v + 1)]);
      });
    }
  }

  private async inTransaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.q('BEGIN');
    try {
      const out = await fn();
      await this.q('COMMIT');
      return out;
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }

  async acquireLock(now: () => Date = () => new Date()): Promise<void> {
    const me = { pid: process.pid, host: hostname() };
    await this.inTransaction(async () => {
      // The row is created once and then locked: two runs cannot both pass the check.
      await this.q(`INSERT INTO sync_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, 0, '', 'epoch', 'epoch') ON CONFLICT (id) DO NOTHING`);
      const r = await this.q<LockHolder>('SELECT pid, host, started_at, heartbeat_at FROM sync_lock WHERE id = 1 FOR UPDATE');
      const held = r.rows[0] && r.rows[0].pid !== 0 ? r.rows[0] : undefined;
      checkLockHolder(this.label, held, me, now().getTime());
      const at = now().toISOString();
      await this.q('UPDATE sync_lock SET pid = $1, host = $2, started_at = $3, heartbeat_at = $3 WHERE id = 1', [me.pid, me.host, at]);
    });
    this.lockHeld = true;
    this.heartbeat = setInterval(() => {
      this.q('UPDATE sync_lock SET heartbeat_at = $1 WHERE id = 1 AND pid = $2 AND host = $3', [now().toISOString(), me.pid, me.host]).catch(() => {});
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async releaseLock(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!this.lockHeld) return;
    this.lockHeld = false;
    await this.q(`UPDATE sync_lock SET pid = 0, host = '' WHERE id = 1 AND pid = $1 AND host = $2`, [process.pid, hostname()]).catch(() => {});
  }

  async close(): Promise<void> {
    await this.releaseLock();
    await this.client.end().catch(() => {});
  }

  async meta(): Promise<SyncMeta> {
    const r = await this.q<{ key: string; value: string }>('SELECT key, value FROM sync_meta');
    return Object.fromEntries(r.rows.map((x) => [x.key, x.value])) as SyncMeta;
  }

  async setMeta(key: keyof SyncMeta, value: string): Promise<void> {
    await this.q('INSERT INTO sync_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
  }

  private readonly writer: Writer = {
    upsert: async (table, keys, row, counts) => {
      let u = this.upserts.get(table);
      if (!u) {
        const cols = Object.keys(row);
        const rest = cols.filter((c) => !keys.includes(c));
        u = {
          cols,
          sql:
            `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) ` +
            `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${rest.map((c) => `${c} = EXCLUDED.${c}`).join(', ')} ` +
            `WHERE (${rest.map((c) => `${table}.${c}`).join(', ')}) IS DISTINCT FROM (${rest.map((c) => `EXCLUDED.${c}`).join(', ')}) ` +
            // xmax is 0 on a row this statement inserted.
            `RETURNING (xmax = 0) AS inserted`,
        };
        this.upserts.set(table, u);
      }
      const r = await this.q<{ inserted: boolean }>({ name: `upsert_${table}`, text: u.sql, values: u.cols.map((c) => row[c]) });
      if (r.rows.length === 0) return;
      if (r.rows[0].inserted) counts.inserted++;
      else counts.updated++;
    },
    prune: async (table, parentKey, parent, key, keep, counts) => {
      const r = await this.q(`DELETE FROM ${table} WHERE ${parentKey} = $1 AND NOT (${key} = ANY($2::bigint[]))`, [parent, keep]);
      counts.updated += r.rowCount ?? 0;
    },
    setGone: async (table, ids, at, counts) => {
      const r = await this.q(`UPDATE ${table} SET gone_at = $1 WHERE id = ANY($2::bigint[]) AND gone_at IS ${at === null ? 'NOT ' : ''}NULL`, [at, ids]);
      if (at !== null) counts.gone += r.rowCount ?? 0;
    },
  };

  async transaction(fn: (w: Writer) => Promise<void>): Promise<void> {
    await this.inTransaction(() => fn(this.writer));
  }

  async all<T>(sql: string): Promise<T[]> {
    return (await this.q(sql)).rows as T[];
  }

  async allIn<T>(select: string, column: string, keys: readonly number[] | readonly string[]): Promise<T[]> {
    if (keys.length === 0) return [];
    const type = typeof keys[0] === 'number' ? 'bigint' : 'text';
    return (await this.q(`${select} WHERE ${column} = ANY($1::${type}[])`, [keys])).rows as T[];
  }

  async startRun(startedAt: string, full: boolean): Promise<number> {
    const r = await this.q<{ id: number }>(`INSERT INTO sync_runs (started_at, status, full_sync) VALUES ($1, 'running', $2) RETURNING id`, [startedAt, full ? 1 : 0]);
    return r.rows[0].id;
  }

  async finishRun(id: number, r: RunRecord): Promise<void> {
    await this.q(
      `UPDATE sync_runs SET finished_at = $1, status = $2, requests = $3, requests_by_kind = $4, rows_inserted = $5, rows_updated = $6, rows_gone = $7, errors = $8, message = $9 WHERE id = $10`,
      [r.finishedAt, r.status, r.requests, JSON.stringify(r.byKind), r.inserted, r.updated, r.gone, r.errors, r.message ?? null, id],
    );
  }

  async dump(): Promise<string> {
    const out: string[] = [];
    for (const t of MIRROR_TABLES) {
      out.push(`# ${t.name}`);
      for (const row of (await this.q(`SELECT * FROM ${t.name} ORDER BY ${t.key}`)).rows) out.push(JSON.stringify(row));
    }
    return `${out.join('\n')}\n`;
  }
}
