/**
 * Shared by the sync tests: a seeded stub on a loopback port, a database
 * opened read-only for checks, the last sync_runs row.
 */
import Database from 'better-sqlite3';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';

export async function seededStub(people: number, mix = { pending: 0.1, accepted: 0.15, partial: 0.25, complete: 0.5 }): Promise<StubEnv> {
  const env = await startStubEnv();
  const teams = env.stub.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id').slice(0, 2);
  for (const [i, t] of teams.entries()) await env.stub.store.seedPeople(1, t.id, Math.floor(people / teams.length) + (i === 0 ? people % teams.length : 0), { mix });
  return env;
}

export function readDb<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
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

export function lastRun(file: string): RunRow {
  return readDb(file, (db) => {
    const r = db.prepare('SELECT * FROM sync_runs ORDER BY id DESC LIMIT 1').get() as RunRow & { requests_by_kind: string };
    return { ...r, by: JSON.parse(r.requests_by_kind) as Record<string, number> };
  });
}

export async function dumpOf(target: string): Promise<string> {
  const { openSyncStore } = await import('../../src/sync/store.js');
  const db = await openSyncStore(target);
  try {
    return await db.dump();
  } finally {
    await db.close();
  }
}
