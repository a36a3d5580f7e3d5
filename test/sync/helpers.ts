/**
 * Shared by the sync tests: a seeded stub on a loopback port, the two
 * backends (a SQLite file, a database on a private PostgreSQL server), and
 * queries that read either through the sync's own store.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';
import { type PgServer, startPgServer } from './pg-server.js';

export async function seededStub(people: number, mix = { pending: 0.1, accepted: 0.15, partial: 0.25, complete: 0.5 }): Promise<StubEnv> {
  const env = await startStubEnv();
  const teams = env.stub.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id').slice(0, 2);
  for (const [i, t] of teams.entries()) await env.stub.store.seedPeople(1, t.id, Math.floor(people / teams.length) + (i === 0 ? people % teams.length : 0), { mix });
  return env;
}

/** Where a suite syncs to. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  setup(): Promise<void>;
  /** A new, empty target for --db (a file in one of `env`'s temporary folders, or a new database); `name` helps reading a failure. */
  target(env: Pick<StubEnv, 'tmp'>, name: string): Promise<string>;
  teardown(): Promise<void>;
}

export const sqliteBackend: Backend = {
  name: 'sqlite',
  async setup() {},
  async target(env, name) {
    return `${env.tmp('jobfit-sync-')}/${name}.sqlite`;
  },
  async teardown() {},
};

export function postgresBackend(): Backend {
  let server: PgServer | undefined;
  return {
    name: 'postgres',
    async setup() {
      server = await startPgServer();
      if (!server) throw new Error('no PostgreSQL server binaries (.ci/run installs Debian\'s postgresql)');
    },
    target: () => server!.newDatabase(),
    async teardown() {
      await server?.close();
    },
  };
}

/** Rows of a query on either backend. */
export async function query<T = Record<string, unknown>>(target: string, sql: string): Promise<T[]> {
  const { openSyncStore } = await import('../../src/sync/open.js');
  const db = await openSyncStore(target);
  try {
    return await db.all<T>(sql);
  } finally {
    await db.close();
  }
}

/** Runs a statement on either backend directly (not through sync: to plant what a test needs). */
export async function exec(target: string, sql: string): Promise<void> {
  if (/^postgres/.test(target)) {
    const c = new pg.Client({ connectionString: target });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
    return;
  }
  const db = new Database(target);
  try {
    db.exec(sql);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

export async function count(target: string, table: string): Promise<number> {
  try {
    return Number((await query<{ n: number }>(target, `SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  } catch {
    return 0;
  }
}

export interface RunRow {
  status: string;
  requests: number;
  by: Record<string, number>;
  rows_inserted: number;
  rows_updated: number;
  errors: number;
}

export async function lastRun(target: string): Promise<RunRow> {
  const r = (await query<RunRow & { requests_by_kind: string }>(target, 'SELECT * FROM sync_runs ORDER BY id DESC LIMIT 1'))[0];
  return { ...r, by: JSON.parse(r.requests_by_kind) as Record<string, number> };
}

export async function dumpOf(target: string): Promise<string> {
  const { openSyncStore } = await import('../../src/sync/open.js');
  const db = await openSyncStore(target);
  try {
    return await db.dump();
  } finally {
    await db.close();
  }
}
