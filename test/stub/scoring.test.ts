import { TEST_ID as ASSESSMENT_ALIASES } from '../../src/api/catalog.js';
import { describe, expect, it } from 'vitest';
import { DimensionScore as DimensionScoreSchema, JobFitReport, Scores as ScoresSchema } from '../../src/api/schemas.js';
import {
  ALL_SCORE_SHORT_NAMES,
  ASSESSMENTS,
  CAREER_INTEREST_TYPES,
  DIMENSIONS,
  JOB_FAMILIES,
  SCORE_PROFILES,
  resolveAssessment,
  scoreProfileByShortName,
} from '../../src/stub/catalog-content.js';
import {
  fitFor,
  oneLetterMatch,
  percentageFromRaw,
  rawScores,
  riasecOf,
  roundTo,
  scorecardParts,
  scoresFor,
  starsFromPercentage,
  twoLetterMatch,
} from '../../src/stub/scoring.js';
import { jobFitReportParts } from '../../src/stub/job-fit-scoring.js';

const ALL = [6, 7, 8];
const salesRep = scoreProfileByShortName('sales-rep')!;
const seeds = Array.from({ length: 200 }, (_, i) => `1:${i + 1}`);

const SCORE_KEYS = ['object', 'id', 'display_name', 'short_name', 'description', 'is_starred', 'yellow_band', 'test_taker_score'];

describe('catalog', () => {
  it('has the four assessments and the aliases', () => {
    expect(ASSESSMENTS.map((a) => [a.id, a.short_name])).toEqual([
      [1, 'Prescreen'],
      [6, 'Personality'],
      [7, 'Thinking'],
      [8, 'Interests'],
    ]);
    expect(ASSESSMENT_ALIASES).toEqual({ prescreen: 1, personality: 6, thinking: 7, interests: 8 });
    expect(resolveAssessment('Interests')?.id).toBe(8);
    expect(resolveAssessment('7')?.id).toBe(7);
    expect(resolveAssessment('nope')).toBeUndefined();
  });

  it('lists every dimension and facet of the reference, in catalog order', () => {
    expect(ALL_SCORE_SHORT_NAMES).toEqual(
      `think think-read think-form think-math
       agree agree-comp agree-coop agree-help con con-org con-prin con-resp con-amb
       emot emot-bal emot-comp emot-opt ext ext-assert ext-soc ext-en open open-ana open-cre
       ci-real ci-real-con ci-real-pro ci-real-eng ci-inv ci-inv-soft ci-inv-ana ci-inv-med
       ci-art ci-art-cre ci-art-wri ci-soc ci-soc-tea ci-soc-ser ci-soc-cou ci-ent ci-ent-man ci-ent-sal
       ci-con ci-con-adm ci-con-fin ci-overall ci-flm ci-2lm`.split(/\s+/),
    );
    const ids = DIMENSIONS.flatMap((d) => [d.id, ...d.facets.map((f) => f.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of DIMENSIONS) {
      expect(d.description.length).toBeGreaterThan(10);
      if (d.section === 'personality_traits') for (const f of d.facets) expect(f.anchor_low && f.anchor_high).toBeTruthy();
    }
  });

  it('has at least 40 job families, some sharing a number across zones, and at least 8 profiles', () => {
    expect(JOB_FAMILIES.length).toBeGreaterThanOrEqual(40);
    for (const jf of JOB_FAMILIES) {
      expect(jf.job_family_number).toMatch(/^JF-\d{4}$/);
      expect(jf.job_family_name).toContain(`(Zone ${jf.job_family_job_zone})`);
      expect(jf.riasec).toMatch(/^(?!.*(.).*\1)[RIASEC]{3}$/);
      for (const t of Object.values(jf.traits)) {
        expect(t.target).toBeGreaterThanOrEqual(1);
        expect(t.target).toBeLessThanOrEqual(10);
      }
    }
    const numbers = JOB_FAMILIES.map((j) => j.job_family_number);
    expect(new Set(numbers).size).toBeLessThan(numbers.length);
    expect(SCORE_PROFILES.length).toBeGreaterThanOrEqual(8);
    for (const p of SCORE_PROFILES) expect(p.riasec_profile).toMatch(/^(?!.*(.).*\1)[RIASEC]{3}$/);
    expect(new Set(SCORE_PROFILES.map((p) => p.short_name)).size).toBe(SCORE_PROFILES.length);
  });
});

describe('scores', () => {
  it('is deterministic and independent of completion order and of other sections', () => {
    for (const seed of seeds.slice(0, 20)) {
      expect(scoresFor(seed, ALL, salesRep)).toEqual(scoresFor(seed, [8, 7, 6], salesRep));
      expect(scoresFor(seed, [6], null).personality_traits).toEqual(scoresFor(seed, ALL, null).personality_traits);
    }
    expect(scoresFor('1:1', ALL, salesRep)).not.toEqual(scoresFor('1:2', ALL, salesRep));
  });

  it('has null sections for incomplete assessments and for the two unused sections', () => {
    const none = scoresFor('1:1', [], salesRep);
    expect(Object.keys(none)).toEqual(['thinking_skills', 'personality_traits', 'career_interests', 'skill_survey_reference', 'structured_interview']);
    expect(Object.values(none).every((v) => v === null)).toBe(true);
    const onlyInterests = scoresFor('1:1', [8], salesRep);
    expect(onlyInterests.thinking_skills).toBeNull();
    expect(onlyInterests.personality_traits).toBeNull();
    expect(onlyInterests.career_interests).not.toBeNull();
    expect(scoresFor('1:1', ALL, salesRep).skill_survey_reference).toBeNull();
    expect(scoresFor('1:1', ALL, salesRep).structured_interview).toBeNull();
  });

  it('Prescreen gives the overall thinking score only', () => {
    const t = scoresFor('1:3', [1], null).thinking_skills!;
    expect(t).toHaveLength(1);
    expect(t[0].test_taker_score).toBe(scoresFor('1:3', [7], null).thinking_skills![0].test_taker_score);
    expect(t[0].facets!.every((f) => f.test_taker_score === null)).toBe(true);
  });

  it('builds score objects with exactly the reference keys, no nested facets, valid against the contract', () => {
    const s = scoresFor('1:5', ALL, salesRep);
    expect(ScoresSchema.strict().safeParse(s).success).toBe(true);
    for (const section of [s.thinking_skills!, s.personality_traits!, s.career_interests!]) {
      for (const d of section) {
        expect(Object.keys(d)).toEqual([...SCORE_KEYS, 'facets']);
        expect(DimensionScoreSchema.strict().safeParse(d).success).toBe(true);
        for (const f of d.facets!) expect(Object.keys(f)).toEqual(SCORE_KEYS);
      }
    }
    const names = [s.thinking_skills!, s.personality_traits!, s.career_interests!].flatMap((sec) =>
      sec.flatMap((d) => [d.short_name, ...d.facets!.map((f) => f.short_name)]),
    );
    expect(names).toEqual(ALL_SCORE_SHORT_NAMES);
  });

  it('keeps scores in range', () => {
    for (const seed of seeds) {
      const raw = rawScores(seed, ALL);
      for (const v of [...Object.values(raw.personality!), ...Object.values(raw.interests!), ...Object.values(raw.thinking!)]) {
        expect(Number.isInteger(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(1);
        expect(v).toBeLessThanOrEqual(10);
      }
    }
  });
});

describe('RIASEC and ci-overall', () => {
  it('riasec is the three highest interests, ties in RIASEC order', () => {
    for (const seed of seeds) {
      const code = riasecOf(seed, [8])!;
      const ci = scoresFor(seed, [8], null).career_interests!;
      const score = (letter: string) =>
        ci.find((d) => d.short_name === CAREER_INTEREST_TYPES.find((t) => t.letter === letter)!.short_name)!.test_taker_score!;
      const expected = [...'RIASEC'].sort((a, b) => score(b) - score(a) || 'RIASEC'.indexOf(a) - 'RIASEC'.indexOf(b)).slice(0, 3).join('');
      expect(code).toBe(expected);
    }
    expect(riasecOf('1:1', [6, 7])).toBeNull();
  });

  it('match rules', () => {
    expect(oneLetterMatch('ESC', 'ESC')).toBe(3);
    expect(oneLetterMatch('SEC', 'ESC')).toBe(2);
    expect(oneLetterMatch('RIC', 'ESA')).toBe(1);
    expect(oneLetterMatch('RIE', 'ESA')).toBe(2); // profile's first letter elsewhere in the taker's code
    expect(twoLetterMatch('SEC', 'ESA')).toBe(3);
    expect(twoLetterMatch('SIC', 'ESA')).toBe(2);
    expect(twoLetterMatch('RIC', 'ESA')).toBe(1);
  });

  it('ci-overall = ci-flm + ci-2lm, each 1..3, matching the codes', () => {
    for (const seed of seeds) {
      for (const p of SCORE_PROFILES) {
        const ci = scoresFor(seed, [8], p).career_interests!;
        const overall = ci.find((d) => d.short_name === 'ci-overall')!;
        const [flm, tlm] = overall.facets!;
        expect([flm.short_name, tlm.short_name]).toEqual(['ci-flm', 'ci-2lm']);
        expect(overall.test_taker_score).toBe(flm.test_taker_score! + tlm.test_taker_score!);
        const code = riasecOf(seed, [8])!;
        expect(flm.test_taker_score).toBe(oneLetterMatch(code, p.riasec_profile));
        expect(tlm.test_taker_score).toBe(twoLetterMatch(code, p.riasec_profile));
      }
    }
  });

  it('ci-overall is null without a score profile', () => {
    const overall = scoresFor('1:1', [8], null).career_interests!.find((d) => d.short_name === 'ci-overall')!;
    expect(overall.test_taker_score).toBeNull();
    expect(overall.facets!.map((f) => f.test_taker_score)).toEqual([null, null]);
  });
});

describe('fit', () => {
  it('is null without Personality and Career Interests or without a profile', () => {
    const nulls = { fitscore_raw: null, job_fit_percentage: null, five_star_score: null };
    expect(fitFor('1:1', [6, 7], salesRep)).toEqual(nulls);
    expect(fitFor('1:1', [8], salesRep)).toEqual(nulls);
    expect(fitFor('1:1', [1], salesRep)).toEqual(nulls);
    expect(fitFor('1:1', ALL, null)).toEqual(nulls);
  });

  it('rounds to 3 decimals, derives percentage and stars consistently', () => {
    const stars = new Set<number>();
    for (const seed of seeds) {
      for (const p of SCORE_PROFILES) {
        const f = fitFor(seed, ALL, p);
        expect(f.fitscore_raw).toBe(roundTo(f.fitscore_raw!, 3));
        expect(Math.round(f.fitscore_raw! * 1000) / 1000).toBe(f.fitscore_raw);
        expect(f.fitscore_raw).toBeGreaterThanOrEqual(0);
        expect(f.fitscore_raw).toBeLessThanOrEqual(1);
        expect(f.job_fit_percentage).toBe(percentageFromRaw(f.fitscore_raw!));
        expect(Math.round(f.job_fit_percentage! * 10) / 10).toBe(f.job_fit_percentage);
        expect(f.five_star_score).toBe(starsFromPercentage(f.job_fit_percentage!));
        stars.add(f.five_star_score!);
        expect(fitFor(seed, ALL, p)).toEqual(f);
      }
    }
    expect([...stars].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('scorecardParts agrees with the separate functions', () => {
    const parts = scorecardParts('2:7', ALL, salesRep);
    expect(Object.keys(parts)).toEqual(['fitscore_raw', 'five_star_score', 'job_fit_percentage', 'riasec_profile', 'scores']);
    expect(parts.riasec_profile).toBe(riasecOf('2:7', ALL));
    expect(parts.scores).toEqual(scoresFor('2:7', ALL, salesRep));
    expect(parts.fitscore_raw).toBe(fitFor('2:7', ALL, salesRep).fitscore_raw);
  });

  it('roundTo handles float noise', () => {
    expect(roundTo(1.0005, 3)).toBe(1.001);
    expect(roundTo(0.1235, 3)).toBe(0.124);
    expect(roundTo(2 / 3, 3)).toBe(0.667);
  });
});

describe('job-fit report parts', () => {
  it('is null unless Personality and Career Interests are complete', () => {
    expect(jobFitReportParts('1:1', [6, 7])).toBeNull();
    expect(jobFitReportParts('1:1', [7, 8])).toBeNull();
    expect(jobFitReportParts('1:1', [1])).toBeNull();
    expect(jobFitReportParts('1:1', [6, 8])).not.toBeNull();
  });

  it('has the reference fields in order, exact key sets, and validates against the contract', () => {
    const r = jobFitReportParts('1:9', ALL)!;
    expect(Object.keys(r)).toEqual([
      'riasec_profile',
      'career_interests_profile',
      'career_interests',
      'personality_traits_profile',
      'personality_traits',
      'top_fit_occupations',
    ]);
    const described = ['id', 'display_name', 'short_name', 'description'];
    for (const x of r.career_interests_profile) expect(Object.keys(x)).toEqual([...described, 'rank']);
    for (const x of r.personality_traits_profile) expect(Object.keys(x)).toEqual([...described, 'rank']);
    for (const ci of r.career_interests) {
      expect(Object.keys(ci)).toEqual(['object', ...described, 'facets']);
      expect(ci.object).toBe('career_interest');
      for (const f of ci.facets) {
        expect(Object.keys(f)).toEqual(['object', ...described, 'test_taker_score_range']);
        expect(f.object).toBe('career_interest_facet');
        expect(['Low', 'Medium', 'High']).toContain(f.test_taker_score_range);
      }
    }
    for (const pt of r.personality_traits) {
      expect(Object.keys(pt)).toEqual(['object', ...described, 'facets']);
      expect(pt.display_name).toMatch(/ Overall$/);
      for (const f of pt.facets) {
        expect(Object.keys(f)).toEqual(['object', ...described, 'anchor_low', 'anchor_high', 'test_taker_score_range']);
        expect(f.object).toBe('personality_trait_facet');
        expect(['Less Pronounced', 'Moderately Pronounced', 'More Pronounced']).toContain(f.test_taker_score_range);
      }
    }
    for (const o of r.top_fit_occupations) {
      expect(Object.keys(o)).toEqual([
        'object',
        'job_family_number',
        'job_family_name',
        'job_family_job_zone',
        'job_fit_percentage',
        'job_fit_star_rating',
        'rank',
      ]);
    }
    const shape = JobFitReport.pick({
      riasec_profile: true,
      career_interests_profile: true,
      career_interests: true,
      personality_traits_profile: true,
      personality_traits: true,
      top_fit_occupations: true,
    }).strict();
    expect(shape.safeParse(r).success).toBe(true);
  });

  it('ranks top 3 interests, top 5 traits and top 15 occupations', () => {
    let repeated = 0;
    for (const seed of seeds) {
      const r = jobFitReportParts(seed, [6, 8])!;
      expect(r.riasec_profile).toBe(riasecOf(seed, [8]));
      expect(r.career_interests_profile.map((x) => x.rank)).toEqual([1, 2, 3]);
      const letters = r.career_interests_profile.map((x) => CAREER_INTEREST_TYPES.find((t) => t.short_name === x.short_name)!.letter);
      expect(letters.join('')).toBe(r.riasec_profile);
      expect(r.career_interests.map((x) => x.display_name)).toEqual(['Realistic', 'Investigative', 'Artistic', 'Social', 'Enterprising', 'Conventional']);
      expect(r.personality_traits.map((x) => x.display_name)).toEqual([
        'Agreeableness Overall',
        'Conscientiousness Overall',
        'Emotional Stability Overall',
        'Extroversion Overall',
        'Openness Overall',
      ]);
      expect(r.personality_traits_profile.map((x) => x.rank)).toEqual([1, 2, 3, 4, 5]);
      const pScores = scoresFor(seed, [6], null).personality_traits!;
      const traitScores = r.personality_traits_profile.map((x) => pScores.find((d) => d.short_name === x.short_name)!.test_taker_score!);
      expect([...traitScores].sort((a, b) => b - a)).toEqual(traitScores);

      const occ = r.top_fit_occupations;
      expect(occ).toHaveLength(15);
      expect(occ.map((o) => o.rank)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      for (let i = 1; i < occ.length; i++) expect(occ[i].job_fit_percentage).toBeLessThanOrEqual(occ[i - 1].job_fit_percentage);
      for (const o of occ) {
        expect(o.job_fit_star_rating).toBe(starsFromPercentage(o.job_fit_percentage));
        expect(o.job_fit_percentage).toBeGreaterThanOrEqual(0);
        expect(o.job_fit_percentage).toBeLessThanOrEqual(100);
      }
      if (new Set(occ.map((o) => o.job_family_number)).size < 15) repeated++;
      expect(jobFitReportParts(seed, [8, 6])).toEqual(r);
    }
    // The reference says one family number can appear twice; the catalog makes that happen.
    expect(repeated).toBeGreaterThan(0);
  });
});
