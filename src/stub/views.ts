/**
 * Rows to API objects, in the field order of src/api/schemas.ts. Shared by the
 * HTTP routes and the lifecycle (event snapshots), so both say the same thing.
 *
 * URLs live under the stub's own origin and are built when an object is
 * shown, never stored, so the same data served on another port is right:
 *   /take/<token>                      assessment_url (always)
 *   /results/<token>/scorecard         scorecard_url (after acceptance)
 *   /results/<token>/job-fit-summary   job_fit_summary_url (Personality and Interests complete)
 *   /results/<token>/career-options    career_options_spotlight_url (Interests complete)
 *   /career/<profile id>               career_navigation_url (profile exists)
 */
import type {
  AccountRef,
  AssessmentRef,
  EmailTemplateRef,
  Invitation,
  InvitationListItem,
  Mode,
  TeamRef,
  TestTaker,
  TestTakerListItem,
  UserRef,
} from '../api/schemas.js';
import { ASSESSMENTS, SCORE_PROFILES, TEST_ID } from './catalog-content.js';
import type { Store } from './store.js';

export interface InvitationRow {
  id: number;
  account_id: number;
  team_id: number;
  invited_by_user_id: number | null;
  created_at: string;
  accepted_at: string | null;
  first_name: string;
  last_name: string;
  email: string;
  send_via_email: number;
  phone: string | null;
  send_via_sms: number;
  custom_id: string | null;
  person_id: string | null;
  invitation_template_id: number | null;
  ref_text: string | null;
  congrats_template_id: number | null;
  send_congrats_notification: number;
  target_score_profile_id: number | null;
  token: string;
  test_taker_id: number | null;
  status_callback_url: string | null;
}

export interface TestTakerRow {
  id: number;
  account_id: number;
  team_id: number;
  invitation_id: number;
  created_at: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  custom_id: string | null;
  person_id: string | null;
}

export interface AssignedRow {
  id: number;
  test_id: number;
  completed_at: string | null;
  language: string | null;
}

export interface UserRow {
  id: number;
  account_id: number;
  first_name: string;
  last_name: string;
  email: string;
  default_team_id: number | null;
  default_test_ids: string;
  default_invitation_template_id: number | null;
  default_congrats_template_id: number | null;
  default_scheduling_link: string | null;
  send_congrats_notification: number;
  notify_on_completion: number;
}

export interface ProfileRow {
  id: string;
  account_id: number;
  test_taker_id: number;
  created_at: string;
}

const ASSESSMENT_REFS = new Map<number, AssessmentRef>(
  ASSESSMENTS.map((a) => [a.id, { id: a.id, display_name: a.display_name, short_name: a.short_name }]),
);

export function assessmentRef(testId: number): AssessmentRef {
  return ASSESSMENT_REFS.get(testId) ?? { id: testId, display_name: `Assessment ${testId}`, short_name: String(testId) };
}

function cached<T>(store: Store, key: string, load: () => T): T {
  if (store.refCache.has(key)) return store.refCache.get(key) as T;
  const v = load();
  // Misses are not remembered: a row may appear later (another process seeding).
  if (v !== null && v !== undefined) store.refCache.set(key, v);
  return v;
}

export function teamRef(store: Store, id: number): TeamRef {
  return cached(store, `team:${id}`, () => {
    const t = store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE id = ?', id);
    return t ? { id: t.id, display_name: t.display_name } : null;
  }) ?? { id, display_name: '' };
}

export function accountRef(store: Store, id: number): AccountRef {
  return cached(store, `account:${id}`, () => {
    const a = store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM accounts WHERE id = ?', id);
    return a ? { id: a.id, display_name: a.display_name } : null;
  }) ?? { id, display_name: '' };
}

export function templateRef(store: Store, id: number | null): EmailTemplateRef | null {
  if (id === null) return null;
  return cached(store, `template:${id}`, () => {
    const t = store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM templates WHERE id = ?', id);
    return t ? { id: t.id, display_name: t.display_name } : null;
  });
}

export function userRef(store: Store, id: number | null): UserRef | null {
  if (id === null) return null;
  return cached(store, `user:${id}`, () => {
    const u = store.get<UserRow>('SELECT * FROM users WHERE id = ?', id);
    return u ? { id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email } : null;
  });
}

export function scoreProfileRefById(id: number | null): { id: number; display_name: string; short_name: string } | null {
  if (id === null) return null;
  const p = SCORE_PROFILES.find((x) => x.id === id);
  return p ? { id: p.id, display_name: p.display_name, short_name: p.short_name } : null;
}

/** Seed string of the deterministic scoring (scoring.ts). */
export function scoreSeed(accountId: number, testTakerId: number): string {
  return `${accountId}:${testTakerId}`;
}

/** A test taker's assigned assessments, in their order. */
export function assignedAssessments(store: Store, testTakerId: number): AssignedRow[] {
  return store.all<AssignedRow>('SELECT id, test_id, completed_at, language FROM assigned_assessments WHERE test_taker_id = ? ORDER BY position', testTakerId);
}

/** The tests of these assigned assessments that are complete, in the same order (what completedTests reads). */
export function completedTestIds(assigned: AssignedRow[]): number[] {
  return assigned.filter((a) => a.completed_at !== null).map((a) => a.test_id);
}

export function completedTests(store: Store, testTakerId: number): number[] {
  return store
    .all<{ test_id: number }>('SELECT test_id FROM assigned_assessments WHERE test_taker_id = ? AND completed_at IS NOT NULL ORDER BY position', testTakerId)
    .map((r) => r.test_id);
}

export function profileOfTaker(store: Store, testTakerId: number): ProfileRow | undefined {
  return store.get<ProfileRow>('SELECT * FROM career_navigation_profiles WHERE test_taker_id = ?', testTakerId);
}

export interface ResultUrls {
  scorecard_url: string | null;
  job_fit_summary_url: string | null;
  career_options_spotlight_url: string | null;
  career_navigation_url: string | null;
  career_navigation_profile_id: string | null;
}

/** The result links of an invitation, by how far its test taker has come. */
export function resultUrls(store: Store, origin: string, token: string, testTakerId: number | null): ResultUrls {
  if (testTakerId === null) {
    return { scorecard_url: null, job_fit_summary_url: null, career_options_spotlight_url: null, career_navigation_url: null, career_navigation_profile_id: null };
  }
  return urlsOf(origin, token, completedTests(store, testTakerId), profileOfTaker(store, testTakerId));
}

/** The result links of a test taker with these tests completed and this career navigation profile (or none). */
export function urlsOf(origin: string, token: string, done: number[], profile: { id: string } | undefined): ResultUrls {
  const interests = done.includes(TEST_ID.interests);
  const jobFit = interests && done.includes(TEST_ID.personality);
  return {
    scorecard_url: `${origin}/results/${token}/scorecard`,
    job_fit_summary_url: jobFit ? `${origin}/results/${token}/job-fit-summary` : null,
    career_options_spotlight_url: interests ? `${origin}/results/${token}/career-options` : null,
    career_navigation_url: profile ? careerNavigationUrl(origin, profile.id) : null,
    career_navigation_profile_id: profile?.id ?? null,
  };
}

export function careerNavigationUrl(origin: string, profileId: string): string {
  return `${origin}/career/${encodeURIComponent(profileId)}`;
}

export function assessmentUrl(origin: string, token: string): string {
  return `${origin}/take/${token}`;
}

export function invitationTests(store: Store, invitationId: number): number[] {
  return store
    .all<{ test_id: number }>('SELECT test_id FROM invitation_assessments WHERE invitation_id = ? ORDER BY position', invitationId)
    .map((r) => r.test_id);
}

/** `tests`: the invitation's test ids when the caller has them (a new invitation), saving a read. */
export function invitationObject(store: Store, row: InvitationRow, mode: Mode, origin: string, tests?: number[]): Invitation {
  const urls = resultUrls(store, origin, row.token, row.test_taker_id);
  return {
    mode,
    object: 'invitation',
    id: row.id,
    invited_by_user: userRef(store, row.invited_by_user_id),
    created_at: row.created_at,
    accepted_at: row.accepted_at,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    send_via_email: row.send_via_email === 1,
    phone: row.phone,
    send_via_sms: row.send_via_sms === 1,
    custom_id: row.custom_id,
    person_id: row.person_id,
    invitation_email_template: templateRef(store, row.invitation_template_id),
    ref_text: row.ref_text,
    congrats_email_template: templateRef(store, row.congrats_template_id),
    send_congrats_notification: row.send_congrats_notification === 1,
    target_score_profile: scoreProfileRefById(row.target_score_profile_id),
    invitation_assessments: (tests ?? invitationTests(store, row.id)).map(assessmentRef),
    assessment_url: assessmentUrl(origin, row.token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: teamRef(store, row.team_id),
    account: accountRef(store, row.account_id),
    test_taker_id: row.test_taker_id,
    career_navigation_profile_id: urls.career_navigation_profile_id,
  };
}

export type InvitationListRow = InvitationRow & { team_name: string; account_name: string };

export function invitationListItem(row: InvitationListRow, origin: string): InvitationListItem {
  return {
    object: 'invitation_list_item',
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    created_at: row.created_at,
    accepted_at: row.accepted_at,
    assessment_url: assessmentUrl(origin, row.token),
    test_taker_id: row.test_taker_id,
    custom_id: row.custom_id,
    person_id: row.person_id,
    team: { id: row.team_id, display_name: row.team_name },
    account: { id: row.account_id, display_name: row.account_name },
  };
}

export type TestTakerListRow = TestTakerRow & { team_name: string; account_name: string };

export function testTakerListItem(row: TestTakerListRow): TestTakerListItem {
  return {
    object: 'test_taker_list_item',
    id: row.id,
    invitation_id: row.invitation_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    created_at: row.created_at,
    custom_id: row.custom_id,
    person_id: row.person_id,
    team: { id: row.team_id, display_name: row.team_name },
    account: { id: row.account_id, display_name: row.account_name },
  };
}

/** What a test taker's answer needs besides its row and its assessments: its invitation's token and its career navigation profile, if any. */
export interface TestTakerLinks {
  token: string;
  profile: { id: string } | undefined;
}

/**
 * The test taker's answer; `links` when the caller read them with the row
 * (routes/test-takers.ts), else read here; `assigned` when the caller has
 * them (taker-reads.ts), else read here.
 */
export function testTakerObject(store: Store, tt: TestTakerRow, mode: Mode, origin: string, links?: TestTakerLinks, assigned = assignedAssessments(store, tt.id)): TestTaker {
  const { token, profile } = links ?? { token: store.get<{ token: string }>('SELECT token FROM invitations WHERE id = ?', tt.invitation_id)?.token ?? '', profile: profileOfTaker(store, tt.id) };
  // The completed tests (completedTests) are the assigned ones with a completion time, in the same order.
  const urls = urlsOf(origin, token, completedTestIds(assigned), profile);
  return {
    mode,
    object: 'test_taker',
    id: tt.id,
    person_id: tt.person_id,
    custom_id: tt.custom_id,
    invitation_id: tt.invitation_id,
    phone: tt.phone,
    assigned_assessments: assigned.map((a) => ({
      id: a.id,
      completed_at: a.completed_at,
      language: a.language,
      assessment: assessmentRef(a.test_id),
    })),
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_navigation_url: urls.career_navigation_url,
    career_navigation_profile_id: urls.career_navigation_profile_id,
  };
}

/** Drops `mode` from an object: event snapshots are not answers to a keyed request. */
export function withoutMode<T extends { mode?: unknown }>(o: T): Omit<T, 'mode'> {
  const { mode: _mode, ...rest } = o;
  return rest;
}

/**
 * A strict server (`stub serve --minimal-fields`): the "not shown" list items
 * carry only what the reference states. A test taker list item: `id`,
 * `custom_id`, `person_id`, `team`, `account`; a career navigation profile
 * list item: `id`, `custom_id`, `person_id`. Clients must work with these.
 */
export function minimalTestTakerListItem(it: Pick<TestTakerListItem, 'id' | 'custom_id' | 'person_id' | 'team' | 'account'>): Record<string, unknown> {
  return { id: it.id, custom_id: it.custom_id, person_id: it.person_id, team: it.team, account: it.account };
}
