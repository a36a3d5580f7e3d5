/** Who is calling: the API key of the Authorization header → account and mode. */
import { MSG } from '../../api/messages.js';
import type { Mode } from '../../api/schemas.js';
import type { Store } from '../store.js';
import { type Reply, error } from './reply.js';

export interface Auth {
  accountId: number;
  mode: Mode;
}

/**
 * Reference, Authentication 4: a missing or invalid key (any key the service
 * does not know, whatever its form) → "API key is required"; a known key
 * whose account is gone → "Account not found for API key".
 */
export function authenticate(store: Store, header: string | undefined): Auth | Reply {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) return error(404, MSG.apiKeyRequired);
  const key = m[1];
  const row = store.get<{ account_id: number; mode: Mode; exists: number | null }>(
    'SELECT k.account_id, k.mode, a.id AS "exists" FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE k.key = ?',
    key,
  );
  if (!row) return error(404, MSG.apiKeyRequired);
  if (row.exists === null) return error(404, MSG.accountNotFound);
  return { accountId: row.account_id, mode: row.mode };
}
