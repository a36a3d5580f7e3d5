/**
 * The parts of the service's catalog that the reference fixes: assessment test
 * ids and the dimension catalog (short names, in catalog order). The stub
 * decorates these with names, descriptions and scoring (src/stub/catalog-content.ts,
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

/**
 * The names people write for the four assessments (`--assessments cognitive`,
 * a CSV cell "Personality Traits"): the catalog's names, and the short ones
 * people use. The one table of them: the commands and the bulk CSV validator
 * both read it through assessmentIdOf. Keys are in assessmentKey form.
 */
export const ASSESSMENT_ALIASES: Readonly<Record<string, TestId>> = {
  prescreen: TEST_ID.prescreen,
  'pre screen': TEST_ID.prescreen,
  screening: TEST_ID.prescreen,
  personality: TEST_ID.personality,
  'personality traits': TEST_ID.personality,
  traits: TEST_ID.personality,
  thinking: TEST_ID.thinking,
  'thinking skills': TEST_ID.thinking,
  cognitive: TEST_ID.thinking,
  interests: TEST_ID.interests,
  'career interests': TEST_ID.interests,
  career: TEST_ID.interests,
};

/** A name as the table keys it: any case, with spaces, hyphens and underscores alike ("Thinking_Skills" → "thinking skills"). */
export function assessmentKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

const BY_KEY = new Map(Object.entries(ASSESSMENT_ALIASES));

/** The test id a name stands for, or undefined when the table does not know it. */
export function assessmentIdOf(name: string): TestId | undefined {
  return BY_KEY.get(assessmentKey(name));
}

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
