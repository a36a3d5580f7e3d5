/** GET /accounts: the account of the key. */
import type { Account } from '../../api/schemas.js';
import { type Reply, json } from '../http/reply.js';
import type { Call } from './call.js';

export function getAccount(c: Call): Reply {
  const a = c.store.get<{ id: number; display_name: string; webhook_endpoint: string | null; webhook_test_endpoint: string | null; webhooks_enabled: number }>(
    'SELECT * FROM accounts WHERE id = ?',
    c.auth.accountId,
  )!;
  const live = c.auth.mode === 'live';
  const body: Account = {
    mode: c.auth.mode,
    object: 'account',
    id: a.id,
    display_name: a.display_name,
    // Test mode shows the test endpoint; test keys never produce events.
    webhook_endpoint: live ? a.webhook_endpoint : a.webhook_test_endpoint,
    webhooks_enabled: live ? a.webhooks_enabled === 1 : false,
  };
  return json(200, body);
}
