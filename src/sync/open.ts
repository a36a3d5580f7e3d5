/** Which store a `--db` names, opened: the backends load only when named. */
import { UsageError } from '../core/errors.js';
import type { SyncStore } from './store.js';

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/**
 * A `--db` that is neither a URL nor a path a person would type: a libpq
 * key=value string (`host=h user=u password=pw dbname=d`), which would
 * otherwise become a SQLite file named with the password. Refused, naming the
 * forms taken and never echoing it (it may hold a password).
 */
export function checkSyncTarget(target: string): void {
  if (isPostgresUrl(target)) return;
  if (/\s/.test(target) && /(^|[\s/\\])[a-z_]+\s*=/i.test(target)) {
    throw new UsageError(
      '--db takes a PostgreSQL URL (postgres://user:password@host:5432/dbname, options as ?sslmode=require) or a SQLite file path (sync.db); a key=value connection string ("host=… dbname=…") is not read: write it as a URL.',
    );
  }
}

/** Opens the database a `--db` names: a postgres:// URL, or a SQLite file path. */
export async function openSyncStore(target: string): Promise<SyncStore> {
  checkSyncTarget(target);
  if (isPostgresUrl(target)) return (await import('./postgres.js')).PostgresStore.open(target);
  return (await import('./sqlite.js')).SqliteStore.open(target);
}
