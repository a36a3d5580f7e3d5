/**
 * Scorecard and job-fit report objects. The numbers come from scoring.ts; the
 * person and the links from the store (live) or from a fake (test key).
 */
import type { AccountRef, JobFitReport, Mode, Scorecard, TeamRef } from '../api/schemas.js';
import type { ScoreProfileDef } from './catalog-content.js';
import { jobFitReportParts } from './job-fit-scoring.js';
import { scorecardParts } from './scoring.js';

export interface ResultSubject {
  test_taker_id: number;
  invitation_id: number;
  custom_id: string | null;
  person_id: string | null;
  career_navigation_profile_id: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  assessment_url: string | null;
  career_navigation_url: string | null;
  scorecard_url: string | null;
  job_fit_summary_url: string | null;
  career_options_spotlight_url: string | null;
  team: TeamRef;
  account: AccountRef;
  /** Scoring seed and the completed test ids. */
  seed: string;
  completed: number[];
}

/** Who a result is about, in the order both result objects list it. */
function whoOf(s: ResultSubject) {
  return {
    test_taker_id: s.test_taker_id,
    invitation_id: s.invitation_id,
    custom_id: s.custom_id,
    person_id: s.person_id,
    career_navigation_profile_id: s.career_navigation_profile_id,
    first_name: s.first_name,
    last_name: s.last_name,
    email: s.email,
  };
}

export function scorecardObject(s: ResultSubject, profile: ScoreProfileDef, mode: Mode): Scorecard {
  const parts = scorecardParts(s.seed, s.completed, profile);
  return {
    mode,
    object: 'scorecard',
    ...whoOf(s),
    phone: s.phone,
    fitscore_raw: parts.fitscore_raw,
    five_star_score: parts.five_star_score,
    job_fit_percentage: parts.job_fit_percentage,
    scorecard_url: s.scorecard_url,
    score_profile: { id: profile.id, display_name: profile.display_name, short_name: profile.short_name, riasec_profile: profile.riasec_profile },
    riasec_profile: parts.riasec_profile,
    scores: parts.scores as Scorecard['scores'],
  };
}

/** The job-fit report, or null before Personality and Career Interests are complete. */
export function jobFitReportObject(s: ResultSubject, mode: Mode): JobFitReport | null {
  const parts = jobFitReportParts(s.seed, s.completed);
  if (!parts) return null;
  return {
    mode,
    object: 'job_fit_report',
    ...whoOf(s),
    assessment_url: s.assessment_url,
    career_navigation_url: s.career_navigation_url,
    scorecard_url: s.scorecard_url,
    job_fit_summary_url: s.job_fit_summary_url,
    career_options_spotlight_url: s.career_options_spotlight_url,
    team: s.team,
    account: s.account,
    riasec_profile: parts.riasec_profile,
    career_interests_profile: parts.career_interests_profile,
    career_interests: parts.career_interests,
    personality_traits_profile: parts.personality_traits_profile,
    personality_traits: parts.personality_traits,
    top_fit_occupations: parts.top_fit_occupations as JobFitReport['top_fit_occupations'],
  };
}
