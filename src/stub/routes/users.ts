/** GET /users: the account's users and their invitation defaults. */
import type { User } from '../../api/schemas.js';
import type { Reply } from '../http/reply.js';
import { type UserRow, assessmentRef, teamRef, templateRef } from '../views.js';
import { type Call, list } from './call.js';

function userObject(c: Call, u: UserRow): User {
  const tests = JSON.parse(u.default_test_ids) as number[];
  return {
    object: 'user',
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    default_team: u.default_team_id === null ? null : teamRef(c.store, u.default_team_id),
    default_assessments: tests.map(assessmentRef),
    default_invitation_email_template: templateRef(c.store, u.default_invitation_template_id),
    default_congrats_email_template: templateRef(c.store, u.default_congrats_template_id),
    default_scheduling_link: u.default_scheduling_link,
  };
}

export function listUsers(c: Call): Reply {
  const users = c.store.all<UserRow>('SELECT * FROM users WHERE account_id = ? ORDER BY id', c.auth.accountId);
  return list(c, users.map((u) => userObject(c, u)));
}
