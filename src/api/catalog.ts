/**
 * The parts of the service's catalog that the reference fixes: assessment test
 * ids and the dimension catalog (short names, in catalog order). The stub
 * decorates these with names, descriptions and scoring (src/stub/catalog.ts,
 * checked against this file by a test); the CLI's wide scorecard CSV uses the
 * order. Written once, here.
 */
/** The sections of a scorecard's `scores`, in reference order. */
export const SCORE_SECTIONS = [
  'thinking_skills',
  'personality_traits',
  'career_interests',
  'skill_survey_reference',
  'structured_interview',
] as const;
export type ScoreSection = (typeof SCORE_SECTIONS)[number];

/** Test ids of the assessments (reference: "Assessment identifiers"). */
export const TEST_ID = { prescreen: 1, personality: 6, thinking: 7, interests: 8 } as const;
export type TestId = (typeof TEST_ID)[keyof typeof TEST_ID];

/** The reference's dimension catalog per section: [dimension, ...facets], in catalog order. */
export const DIMENSION_CATALOG: Readonly<Record<Exclude<ScoreSection, 'skill_survey_reference' | 'structured_interview'>, ReadonlyArray<readonly [string, ...string[]]>>> = {
  thinking_skills: [['think', 'think-read', 'think-form', 'think-math']],
  personality_traits: [
    ['agree', 'agree-comp', 'agree-coop', 'agree-help'],
    ['con', 'con-org', 'con-prin', 'con-resp', 'con-amb'],
    ['emot', 'emot-bal', 'emot-comp', 'emot-opt'],
    ['ext', 'ext-assert', 'ext-soc', 'ext-en'],
    ['open', 'open-ana', 'open-cre'],
  ],
  career_interests: [
    ['ci-real', 'ci-real-con', 'ci-real-pro', 'ci-real-eng'],
    ['ci-inv', 'ci-inv-soft', 'ci-inv-ana', 'ci-inv-med'],
    ['ci-art', 'ci-art-cre', 'ci-art-wri'],
    ['ci-soc', 'ci-soc-tea', 'ci-soc-ser', 'ci-soc-cou'],
    ['ci-ent', 'ci-ent-man', 'ci-ent-sal'],
    ['ci-con', 'ci-con-adm', 'ci-con-fin'],
    ['ci-overall', 'ci-flm', 'ci-2lm'],
  ],
};

/** Every dimension and facet short name, in catalog order. */
export const CATALOG_SHORT_NAMES: readonly string[] = Object.values(DIMENSION_CATALOG).flatMap((dims) => dims.flat());
