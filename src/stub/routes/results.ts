/** GET /test-takers/:id/scorecard and /job-fit-report: results derived from the completed assessments (stub/results.ts). */
import { MSG } from '../../api/messages.js';
import * as F from '../fakes.js';
import { type Reply, fail, json } from '../http/reply.js';
import { type ResultSubject, jobFitReportObject, scorecardObject } from '../results.js';
import type { TakerReads } from '../taker-reads.js';
import { type InvitationRow, type TestTakerRow, accountRef, assessmentUrl, assignedAssessments, completedTestIds, profileOfTaker, scoreSeed, teamRef, urlsOf } from '../views.js';
import { type Call } from './call.js';
import type { Store } from '../store.js';
import { enabledProfiles, fakeCtx } from './account-context.js';
import { findTestTaker, testIdParam } from './test-takers.js';

const subjectOf = (c: Call, { row, reads }: { row: TestTakerRow; reads: TakerReads }): ResultSubject => subjectFor(c.store, c.origin, row, reads);

/**
 * Who a result is about and its links under `origin` (the API routes, and the
 * result pages of stub/results-page.ts); `reads` has what was read of the test
 * taker at this version and takes what is read here (taker-reads.ts).
 */
export function subjectFor(store: Store, origin: string, tt: TestTakerRow, reads: TakerReads = {}): ResultSubject {
  const c = { store, origin };
  const inv = (reads.invitation ??= c.store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', tt.invitation_id) ?? null)!;
  const assigned = (reads.assigned ??= assignedAssessments(store, tt.id));
  const profile = (reads.profile ??= profileOfTaker(store, tt.id) ?? null);
  const completed = completedTestIds(assigned);
  const urls = urlsOf(c.origin, inv.token, completed, profile ?? undefined);
  return {
    test_taker_id: tt.id,
    invitation_id: tt.invitation_id,
    custom_id: tt.custom_id,
    person_id: tt.person_id,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    first_name: tt.first_name,
    last_name: tt.last_name,
    email: tt.email,
    phone: inv.phone,
    assessment_url: assessmentUrl(c.origin, inv.token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: teamRef(c.store, tt.team_id),
    account: accountRef(c.store, tt.account_id),
    seed: scoreSeed(tt.account_id, tt.id),
    completed,
  };
}

export function getScorecard(c: Call): Reply {
  const subject = c.auth.mode === 'test' ? F.fakeResultSubject(fakeCtx(c), testIdParam(c)) : subjectOf(c, findTestTaker(c, c.params[0]));
  const sp = c.query.get('sp');
  if (sp === null || sp.trim() === '') fail(MSG.spRequired);
  const profile = enabledProfiles(c).find((p) => p.short_name === sp);
  if (!profile) fail(MSG.spInvalid(sp));
  return json(200, scorecardObject(subject, profile, c.auth.mode));
}

export function getJobFitReport(c: Call): Reply {
  const subject = c.auth.mode === 'test' ? F.fakeResultSubject(fakeCtx(c), testIdParam(c)) : subjectOf(c, findTestTaker(c, c.params[0]));
  const report = jobFitReportObject(subject, c.auth.mode);
  if (!report) fail(MSG.jobFitNotReady);
  return json(200, report);
}
