/**
 * Routes and faults the issue 31 tests in test/faults add to the fault server
 * of test/helpers/fault-server.ts (which stays as it is: other tests use it):
 * a job-fit report route, someone inviting during a run, and a list whose
 * total_count says more than it holds.
 */
import { type FaultServer, type Inv, send } from '../helpers/fault-server.js';

/** A job-fit report of the reference for a test taker who completed both assessments (the fault server has no such route). */
export function jobFitRoute(s: FaultServer): void {
  s.faults.push((req, res) => {
    const m = /^\/test-takers\/([^/]+)\/job-fit-report$/.exec(req.path);
    if (!m) return false;
    const inv = s.invitations.find((i) => i.test_taker_id !== null && String(i.test_taker_id) === m[1]);
    if (!inv) return send(res, 400, { error: 'Test taker not found' });
    if (!inv.completed) return send(res, 400, { error: 'Job fit report not available' });
    return send(res, 200, jobFit(inv));
  });
}

/**
 * The test taker item with the assessments the reference lists (the fault
 * server's own has none): Personality and Career Interests, completed for a
 * test taker who has results. What a sync reads to know which results to fetch.
 */
export function takerItemRoute(s: FaultServer): void {
  s.faults.push((req, res) => {
    const m = /^\/test-takers\/([^/]+)$/.exec(req.path);
    if (!m || req.method !== 'GET') return false;
    const inv = s.invitations.find((i) => i.test_taker_id !== null && String(i.test_taker_id) === m[1]);
    if (!inv) return send(res, 400, { error: 'Test taker not found' });
    const at = inv.completed ? inv.accepted_at : null;
    const assessments = [
      { id: 6, display_name: 'Personality Traits', short_name: 'Personality' },
      { id: 8, display_name: 'Career Interests', short_name: 'Interests' },
    ].map((a, k) => ({ id: inv.test_taker_id! * 10 + k, completed_at: at, language: at ? 'en' : null, assessment: a }));
    return send(res, 200, {
      mode: 'live',
      object: 'test_taker',
      id: inv.test_taker_id,
      person_id: null,
      custom_id: inv.custom_id,
      invitation_id: inv.id,
      phone: null,
      assigned_assessments: assessments,
      scorecard_url: null,
      job_fit_summary_url: null,
      career_navigation_url: null,
      career_navigation_profile_id: null,
    });
  });
}

function jobFit(i: Inv) {
  return {
    mode: 'live',
    object: 'job_fit_report',
    test_taker_id: i.test_taker_id,
    invitation_id: i.id,
    custom_id: i.custom_id,
    person_id: null,
    career_navigation_profile_id: null,
    first_name: i.first_name,
    last_name: i.last_name,
    email: i.email,
    assessment_url: null,
    career_navigation_url: null,
    scorecard_url: null,
    job_fit_summary_url: null,
    career_options_spotlight_url: null,
    team: { id: i.team_id, display_name: `Team ${i.team_id}` },
    account: { id: 1, display_name: 'Fault Co' },
    riasec_profile: 'ESC',
    career_interests_profile: [],
    career_interests: [],
    personality_traits_profile: [],
    personality_traits: [],
    top_fit_occupations: Array.from({ length: 3 }, (_, k) => ({
      object: 'job_family_job_fit',
      job_family_number: `JF-${100 + k}`,
      job_family_name: `Family ${k}`,
      job_family_job_zone: 1 + k,
      job_fit_percentage: 90 - k * 5,
      job_fit_star_rating: 5 - k,
      rank: k + 1,
    })),
  };
}

/** Someone invites all the while: a new invitation (no test taker) after every list request. */
export function inviting(s: FaultServer): void {
  let k = 0;
  s.afterList = () => void s.create({ email: `during${k++}@d${k % 5}.example` });
}

const team = (i: Inv) => ({ id: i.team_id, display_name: `Team ${i.team_id}` });
const account = { id: 1, display_name: 'Fault Co' };
export const invItem = (i: Inv) => ({
  object: 'invitation_list_item',
  id: i.id,
  first_name: i.first_name,
  last_name: i.last_name,
  email: i.email,
  created_at: i.created_at,
  accepted_at: i.accepted_at,
  assessment_url: null,
  test_taker_id: i.test_taker_id,
  custom_id: i.custom_id,
  person_id: null,
  team: team(i),
  account,
});
/**
 * Answers GET `path` as the reference does (newest first, 50 items, 150
 * with an email filter), through `item`, with `extra` added to every
 * total_count.
 */
export function lyingList(s: FaultServer, path: '/invitations' | '/test-takers', item: (i: Inv) => Record<string, unknown>, extra: number): void {
  s.faults.push((req, res) => {
    if (req.method !== 'GET' || req.path !== path) return false;
    const email = req.query.get('email')?.toLowerCase();
    const people = path === '/invitations' ? s.invitations : s.invitations.filter((i) => i.test_taker_id !== null);
    const m = [...people].reverse().filter((i) => !email || i.email.toLowerCase().includes(email));
    const cap = email ? 150 : 50;
    return send(res, 200, { mode: 'live', object: 'list', total_count: m.length + extra, has_more: m.length > cap, data: m.slice(0, cap).map(item) });
  });
}

