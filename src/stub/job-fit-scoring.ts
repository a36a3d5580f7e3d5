/**
 * The scoring half of the stub's job-fit report (scoring.ts has the model):
 * the RIASEC profile, the interest and trait ranges, the top 15 job families.
 * Pure functions of the seed and the completed assessments.
 */
import { CAREER_INTEREST_TYPES, DIMENSIONS, JOB_FAMILIES, PERSONALITY_TRAITS } from './catalog-content.js';
import type { JobFitReport } from '../api/schemas.js';
import { type RawScores, fitOf, rankedInterests, rawScores, riasecFromScores } from './scoring.js';

export type JobFitReportParts = Pick<
  JobFitReport,
  | 'riasec_profile'
  | 'career_interests_profile'
  | 'career_interests'
  | 'personality_traits_profile'
  | 'personality_traits'
  | 'top_fit_occupations'
>;
type RankedItem = JobFitReport['career_interests_profile'][number];
type CareerInterest = JobFitReport['career_interests'][number];
type CareerInterestFacet = CareerInterest['facets'][number];
type PersonalityTrait = JobFitReport['personality_traits'][number];
type PersonalityTraitFacet = PersonalityTrait['facets'][number];
type JobFamilyJobFit = JobFitReport['top_fit_occupations'][number];
type InterestRange = CareerInterestFacet['test_taker_score_range'];
type TraitRange = PersonalityTraitFacet['test_taker_score_range'];


function interestRange(score: number): InterestRange {
  return score <= 3 ? 'Low' : score <= 7 ? 'Medium' : 'High';
}

function traitRange(score: number): TraitRange {
  return score <= 3 ? 'Less Pronounced' : score <= 7 ? 'Moderately Pronounced' : 'More Pronounced';
}

const dimByShort = new Map(DIMENSIONS.map((d) => [d.short_name, d]));

/** Top 15 job families by fit; ties by raw fit, then catalog order. */
function topFitOccupations(raw: RawScores): JobFamilyJobFit[] {
  return JOB_FAMILIES.map((jf, i) => ({ jf, i, fit: fitOf(raw, jf) }))
    .sort(
      (a, b) =>
        (b.fit.job_fit_percentage ?? 0) - (a.fit.job_fit_percentage ?? 0) ||
        (b.fit.fitscore_raw ?? 0) - (a.fit.fitscore_raw ?? 0) ||
        a.i - b.i,
    )
    .slice(0, 15)
    .map(({ jf, fit }, i) => ({
      object: 'job_family_job_fit' as const,
      job_family_number: jf.job_family_number,
      job_family_name: jf.job_family_name,
      job_family_job_zone: jf.job_family_job_zone,
      job_fit_percentage: fit.job_fit_percentage ?? 0,
      job_fit_star_rating: fit.five_star_score ?? 1,
      rank: i + 1,
    }));
}

/** The scoring half of the job-fit report; null unless Personality (6) and Career Interests (8) are complete. */
export function jobFitReportParts(seed: string, completed: readonly number[]): JobFitReportParts | null {
  const raw = rawScores(seed, completed);
  const interests = raw.interests;
  const personality = raw.personality;
  if (!interests || !personality) return null;

  const ranked = rankedInterests(interests);
  const career_interests_profile: RankedItem[] = ranked.slice(0, 3).map(({ t }, i) => {
    const d = dimByShort.get(t.short_name)!;
    return { id: d.id, display_name: d.display_name, short_name: d.short_name, description: d.description, rank: i + 1 };
  });

  const career_interests: CareerInterest[] = CAREER_INTEREST_TYPES.map((t) => {
    const d = dimByShort.get(t.short_name)!;
    return {
      object: 'career_interest',
      id: d.id,
      display_name: d.display_name,
      short_name: d.short_name,
      description: d.description,
      facets: d.facets.map((f) => ({
        object: 'career_interest_facet',
        id: f.id,
        display_name: f.display_name,
        short_name: f.short_name,
        description: f.description,
        test_taker_score_range: interestRange(interests[f.short_name]),
      })),
    };
  });

  const personality_traits_profile: RankedItem[] = PERSONALITY_TRAITS.map((t, i) => ({
    d: dimByShort.get(t.short_name)!,
    i,
    s: personality[t.short_name],
  }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, 5)
    .map(({ d }, i) => ({
      id: d.id,
      display_name: d.display_name,
      short_name: d.short_name,
      description: d.description,
      rank: i + 1,
    }));

  const personality_traits: PersonalityTrait[] = PERSONALITY_TRAITS.map((t) => {
    const d = dimByShort.get(t.short_name)!;
    return {
      object: 'personality_trait',
      id: d.id,
      display_name: `${d.display_name} Overall`,
      short_name: d.short_name,
      description: d.description,
      facets: d.facets.map((f) => ({
        object: 'personality_trait_facet',
        id: f.id,
        display_name: f.display_name,
        short_name: f.short_name,
        description: f.description,
        anchor_low: f.anchor_low ?? '',
        anchor_high: f.anchor_high ?? '',
        test_taker_score_range: traitRange(personality[f.short_name]),
      })),
    };
  });

  return {
    riasec_profile: riasecFromScores(interests),
    career_interests_profile,
    career_interests,
    personality_traits_profile,
    personality_traits,
    top_fit_occupations: topFitOccupations(raw),
  };
}
