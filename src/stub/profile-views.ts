/**
 * A test taker's career navigation profile as the API shows it (object, list
 * item, and the strict server's minimal list item), and the content the
 * career exploration site would hold, derived from the deterministic scoring.
 */
import type { CareerNavigationProfile, CareerNavigationProfileListItem, Mode } from '../api/schemas.js';
import { CAREER_INTEREST_TYPES, JOB_FAMILIES, TEST_ID } from './catalog-content.js';
import { oneLetterMatch, riasecOf, twoLetterMatch } from './scoring.js';
import type { Store } from './store.js';
import { type ProfileRow, careerNavigationUrl, scoreSeed } from './views.js';

/**
 * What the career exploration site would have: the test taker's strongest
 * interests and the job family that best matches their code. Derived, like
 * scores, from the deterministic scoring.
 */
export function profileContent(accountId: number, testTakerId: number): Pick<CareerNavigationProfile, 'exercises' | 'plan_job_1'> {
  const code = riasecOf(scoreSeed(accountId, testTakerId), [TEST_ID.interests]) ?? 'RIA';
  const names = [...code].map((l) => CAREER_INTEREST_TYPES.find((t) => t.letter === l)?.name ?? l);
  let best = JOB_FAMILIES[0];
  let bestScore = -1;
  for (const jf of JOB_FAMILIES) {
    const s = oneLetterMatch(code, jf.riasec) * 10 + twoLetterMatch(code, jf.riasec);
    if (s > bestScore) {
      best = jf;
      bestScore = s;
    }
  }
  const jobName = best.job_family_name.replace(/ \(Zone \d\)$/, '');
  return {
    exercises: { strengthsCareerInterests: names.join(', '), targetJobName: jobName },
    plan_job_1: { jobName, onetCode: onetCodeOf(best.job_family_number, best.job_family_job_zone) },
  };
}

/** A made-up code in the O*NET-SOC layout (NN-NNNN.NN), stable per job family. */
function onetCodeOf(familyNumber: string, zone: number): string {
  const n = familyNumber.replace(/\D/g, '').padStart(4, '0');
  return `${11 + (Number(n) % 43)}-${n}.0${zone}`;
}

export function profileObject(store: Store, p: ProfileRow, mode: Mode, origin: string): CareerNavigationProfile {
  const tt = store.get<{ person_id: string | null }>('SELECT person_id FROM test_takers WHERE id = ?', p.test_taker_id);
  return {
    mode,
    object: 'career_navigation_profile',
    id: p.id,
    person_id: tt?.person_id ?? null,
    test_taker_id: p.test_taker_id,
    career_navigation_url: careerNavigationUrl(origin, p.id),
    ...profileContent(p.account_id, p.test_taker_id),
  };
}

export type ProfileListRow = ProfileRow & { custom_id: string | null; person_id: string | null };

export function profileListItem(p: ProfileListRow, origin: string): CareerNavigationProfileListItem {
  return {
    object: 'career_navigation_profile_list_item',
    id: p.id,
    test_taker_id: p.test_taker_id,
    custom_id: p.custom_id,
    person_id: p.person_id,
    career_navigation_url: careerNavigationUrl(origin, p.id),
    created_at: p.created_at,
  };
}

export function minimalProfileListItem(it: Pick<CareerNavigationProfileListItem, 'id' | 'custom_id' | 'person_id'>): Record<string, unknown> {
  return { id: it.id, custom_id: it.custom_id, person_id: it.person_id };
}
