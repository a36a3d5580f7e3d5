/**
 * What a test key gets: well-formed fake objects built from the request,
 * nothing read from or written to the account's participant data. The
 * account's configuration (teams, users, templates, score profiles) is real,
 * so that test-mode requests can be built from what test mode lists.
 */
import type {
  CareerNavigationProfile,
  CareerNavigationProfileListItem,
  Invitation,
  InvitationListItem,
  TestTaker,
  TestTakerListItem,
} from '../api/schemas.js';
import { TEST_ID } from './catalog-content.js';
import { hashString } from './random.js';
import type { ResultSubject } from './results.js';
import { profileContent } from './profile-views.js';
import { type ResultUrls, assessmentRef, assessmentUrl, careerNavigationUrl } from './views.js';

export interface FakeContext {
  origin: string;
  account: { id: number; display_name: string };
  team: { id: number; display_name: string };
  now: string;
}

export const FAKE_PERSON = { first_name: 'Test', last_name: 'Participant', email: 'test.participant@example.com' };

/** A fake token: recognisably fake, stable per id. */
function fakeToken(id: number | string): string {
  return `test_${hashString(`fake:${id}`).toString(36)}`;
}

function fakeProfileId(testTakerId: number): string {
  return `cnp_test${hashString(`cnp:${testTakerId}`).toString(36).padStart(8, '0')}`;
}

/** Ids of objects that never existed: stable per request key, in a range no live id reaches. */
export function fakeId(key: string): number {
  return 900_000_000 + (hashString(key) % 99_999_999);
}

function fakeUrls(origin: string, token: string, testTakerId: number | null): ResultUrls {
  if (testTakerId === null) {
    return { scorecard_url: null, job_fit_summary_url: null, career_options_spotlight_url: null, career_navigation_url: null, career_navigation_profile_id: null };
  }
  const profileId = fakeProfileId(testTakerId);
  return {
    scorecard_url: `${origin}/results/${token}/scorecard`,
    job_fit_summary_url: `${origin}/results/${token}/job-fit-summary`,
    career_options_spotlight_url: `${origin}/results/${token}/career-options`,
    career_navigation_url: careerNavigationUrl(origin, profileId),
    career_navigation_profile_id: profileId,
  };
}

/** An invitation object for test mode; `fields` override the defaults (POST/PUT build it from the request). */
export function fakeInvitation(ctx: FakeContext, id: number, fields: Partial<Invitation> = {}): Invitation {
  const token = fakeToken(id);
  const accepted = fields.accepted_at !== undefined ? fields.accepted_at !== null : false;
  const testTakerId = accepted ? id + 1 : null;
  const urls = fakeUrls(ctx.origin, token, testTakerId);
  return {
    mode: 'test',
    object: 'invitation',
    id,
    invited_by_user: null,
    created_at: ctx.now,
    accepted_at: null,
    ...FAKE_PERSON,
    send_via_email: true,
    phone: null,
    send_via_sms: false,
    custom_id: null,
    person_id: null,
    invitation_email_template: null,
    ref_text: null,
    congrats_email_template: null,
    send_congrats_notification: false,
    target_score_profile: null,
    invitation_assessments: [TEST_ID.personality, TEST_ID.thinking, TEST_ID.interests].map(assessmentRef),
    assessment_url: assessmentUrl(ctx.origin, token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: ctx.team,
    account: ctx.account,
    test_taker_id: testTakerId,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    ...fields,
  };
}

export function fakeInvitationListItem(ctx: FakeContext, filters: { custom_id?: string; email?: string }): InvitationListItem {
  const id = fakeId(`inv:${filters.custom_id ?? ''}:${filters.email ?? ''}`);
  return {
    object: 'invitation_list_item',
    id,
    ...FAKE_PERSON,
    email: fakeEmail(filters.email),
    created_at: ctx.now,
    accepted_at: null,
    assessment_url: assessmentUrl(ctx.origin, fakeToken(id)),
    test_taker_id: null,
    custom_id: filters.custom_id ?? null,
    person_id: null,
    team: ctx.team,
    account: ctx.account,
  };
}

/** The fake matches an email filter, as a real match would. */
function fakeEmail(filter: string | undefined): string {
  if (!filter) return FAKE_PERSON.email;
  return filter.includes('@') ? filter : `test.${filter.replace(/[^A-Za-z0-9._+-]/g, '') || 'participant'}@example.com`;
}

export function fakeTestTakerListItem(ctx: FakeContext, filters: { custom_id?: string; email?: string }): TestTakerListItem {
  const id = fakeId(`tt:${filters.custom_id ?? ''}:${filters.email ?? ''}`);
  return {
    object: 'test_taker_list_item',
    id,
    invitation_id: id - 1,
    ...FAKE_PERSON,
    email: fakeEmail(filters.email),
    created_at: ctx.now,
    custom_id: filters.custom_id ?? null,
    person_id: null,
    team: ctx.team,
    account: ctx.account,
  };
}

const FAKE_TESTS = [TEST_ID.personality, TEST_ID.thinking, TEST_ID.interests];

export function fakeTestTaker(ctx: FakeContext, id: number): TestTaker {
  const urls = fakeUrls(ctx.origin, fakeToken(id - 1), id);
  return {
    mode: 'test',
    object: 'test_taker',
    id,
    person_id: null,
    custom_id: null,
    invitation_id: id - 1,
    phone: null,
    assigned_assessments: FAKE_TESTS.map((t, i) => ({ id: id * 10 + i, completed_at: ctx.now, language: 'en', assessment: assessmentRef(t) })),
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_navigation_url: urls.career_navigation_url,
    career_navigation_profile_id: urls.career_navigation_profile_id,
  };
}

/** A fake test taker who completed Personality, Thinking and Interests; scores come from the same scoring. */
export function fakeResultSubject(ctx: FakeContext, testTakerId: number): ResultSubject {
  const token = fakeToken(testTakerId - 1);
  const urls = fakeUrls(ctx.origin, token, testTakerId);
  return {
    test_taker_id: testTakerId,
    invitation_id: testTakerId - 1,
    custom_id: null,
    person_id: null,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    ...FAKE_PERSON,
    phone: null,
    assessment_url: assessmentUrl(ctx.origin, token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: ctx.team,
    account: ctx.account,
    seed: `test:${testTakerId}`,
    completed: FAKE_TESTS,
  };
}

export function fakeProfile(ctx: FakeContext, id: string): CareerNavigationProfile {
  const testTakerId = fakeId(`cnp:${id}`);
  return {
    mode: 'test',
    object: 'career_navigation_profile',
    id,
    person_id: null,
    test_taker_id: testTakerId,
    career_navigation_url: careerNavigationUrl(ctx.origin, id),
    ...profileContent(0, testTakerId),
  };
}

export function fakeProfileListItem(ctx: FakeContext): CareerNavigationProfileListItem {
  const testTakerId = fakeId('cnp-list');
  const id = fakeProfileId(testTakerId);
  return {
    object: 'career_navigation_profile_list_item',
    id,
    test_taker_id: testTakerId,
    custom_id: null,
    person_id: null,
    career_navigation_url: careerNavigationUrl(ctx.origin, id),
    created_at: ctx.now,
  };
}
