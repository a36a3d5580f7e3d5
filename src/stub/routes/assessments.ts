/** GET /assessments and GET /score-profiles: the catalog, and the score profiles enabled for the account. */
import type { Assessment, ScoreProfile } from '../../api/schemas.js';
import { ASSESSMENTS } from '../catalog-content.js';
import type { Reply } from '../http/reply.js';
import { type Call, list } from './call.js';
import { enabledProfiles } from './account-context.js';

export function listAssessments(c: Call): Reply {
  const data: Assessment[] = ASSESSMENTS.map((a) => ({ object: 'assessment', id: a.id, display_name: a.display_name, short_name: a.short_name }));
  return list(c, data);
}

export function listScoreProfiles(c: Call): Reply {
  const data: ScoreProfile[] = enabledProfiles(c).map((p) => ({
    object: 'score_profile',
    id: p.id,
    display_name: p.display_name,
    short_name: p.short_name,
    riasec_profile: p.riasec_profile,
  }));
  return list(c, data);
}
