/** Which store a `--db` names, opened: the backends load only when named. */
import type { SyncStore } from './store.js';

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/** Opens the database a `--db` names: a postgres:// URL, or a SQLite file path. */
export async function openSyncStore(target: string): Promise<SyncStore> {
  if (isPostgresUrl(target)) return (await import('./postgres.js')).PostgresStore.open(target);
  return (await import('./sqlite.js')).SqliteStore.open(target);
}
