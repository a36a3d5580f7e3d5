/** GET /career-navigation-profiles and GET /career-navigation-profiles/:id. */
import { LIST_CAP } from '../../api/limits.js';
import * as F from '../fakes.js';
import { type Reply, json } from '../http/reply.js';
import { type ProfileListRow, minimalProfileListItem, profileListItem, profileObject } from '../profile-views.js';
import type { ProfileRow } from '../views.js';
import { type Call, list } from './call.js';
import { fakeCtx } from './account-context.js';

export function listProfiles(c: Call): Reply {
  if (c.auth.mode === 'test') {
    const fake = F.fakeProfileListItem(fakeCtx(c));
    return list(c, [c.minimal ? minimalProfileListItem(fake) : fake]);
  }
  return c.store.read(() => {
    const total = c.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM career_navigation_profiles WHERE account_id = ?', c.auth.accountId)!.n;
    const rows = c.store.all<ProfileListRow>(
      `SELECT p.*, t.custom_id, t.person_id FROM career_navigation_profiles p JOIN test_takers t ON t.id = p.test_taker_id
       WHERE p.account_id = ? ORDER BY p.created_at DESC, p.seq DESC LIMIT ?`,
      c.auth.accountId,
      LIST_CAP,
    );
    return list(c, rows.map((r) => (c.minimal ? minimalProfileListItem(profileListItem(r, c.origin)) : profileListItem(r, c.origin))), total);
  });
}

export function getProfile(c: Call): Reply {
  const id = c.params[0];
  if (c.auth.mode === 'test') return json(200, F.fakeProfile(fakeCtx(c), id));
  const p = c.store.get<ProfileRow>('SELECT * FROM career_navigation_profiles WHERE id = ? AND account_id = ?', id, c.auth.accountId);
  // The one "not found" that is a 404, with a literal null body (reference).
  if (!p) return json(404, null);
  return json(200, profileObject(c.store, p, 'live', c.origin));
}
