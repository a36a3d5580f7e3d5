/** GET /teams: the account's teams with their counts. */
import type { TeamListItem } from '../../api/schemas.js';
import type { Reply } from '../http/reply.js';
import { type Call, list } from './call.js';

export function listTeams(c: Call): Reply {
  const live = c.auth.mode === 'live';
  const rows = c.store.all<{ id: number; display_name: string; users_count: number; invitations_count: number; test_takers_count: number }>(
    `SELECT t.id, t.display_name,
       (SELECT COUNT(*) FROM user_teams ut WHERE ut.team_id = t.id) AS users_count,
       (SELECT COUNT(*) FROM invitations i WHERE i.team_id = t.id) AS invitations_count,
       (SELECT COUNT(*) FROM test_takers tt WHERE tt.team_id = t.id) AS test_takers_count
     FROM teams t WHERE t.account_id = ? ORDER BY t.id`,
    c.auth.accountId,
  );
  const data: TeamListItem[] = rows.map((r) => ({
    object: 'team_list_item',
    id: r.id,
    display_name: r.display_name,
    users_count: r.users_count,
    // Test mode stores nothing, so its teams hold no invitations or test takers.
    invitations_count: live ? r.invitations_count : 0,
    test_takers_count: live ? r.test_takers_count : 0,
  }));
  return list(c, data);
}
