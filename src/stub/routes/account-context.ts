/**
 * What a handler reads of the calling account beyond its own rows: the
 * context of test-key fakes and the score profiles it has enabled. Apart
 * from call.ts, as these need the catalog and the views, which a handler
 * such as GET /teams does not load.
 */
import { SCORE_PROFILES, type ScoreProfileDef } from '../catalog-content.js';
import type * as F from '../fakes.js';
import { nowIso } from '../ids.js';
import { accountRef } from '../views.js';
import type { Call } from './call.js';

/** Some team of the account, for fakes. */
function anyTeam(c: Call): { id: number; display_name: string } {
  return c.store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE account_id = ? ORDER BY id LIMIT 1', c.auth.accountId) ?? { id: 0, display_name: 'Test Team' };
}

export function fakeCtx(c: Call, team?: { id: number; display_name: string }): F.FakeContext {
  return { origin: c.origin, account: accountRef(c.store, c.auth.accountId), team: team ?? anyTeam(c), now: nowIso() };
}

export function enabledProfiles(c: Call): ScoreProfileDef[] {
  const ids = new Set(c.store.all<{ score_profile_id: number }>('SELECT score_profile_id FROM account_score_profiles WHERE account_id = ?', c.auth.accountId).map((r) => r.score_profile_id));
  return SCORE_PROFILES.filter((p) => ids.has(p.id));
}
