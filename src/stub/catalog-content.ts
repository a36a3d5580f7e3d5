// The stub's static catalog: assessments, the dimension catalog of the
// scorecard, the RIASEC career interest types, the personality traits, job
// families and system score profiles. All names and descriptions are written
// for this project; the short_names are the reference's identifiers.
//
// Ids are fixed integers so that every run, every process and every export
// agrees on them. Dimension ids: thinking 100s, personality 200s, career
// interests 300s (facets follow their dimension).

// ---------------------------------------------------------------- assessments

import { TEST_ID } from '../api/catalog.js';

export { TEST_ID };
export type { TestId } from '../api/catalog.js';

export interface CatalogAssessment {
  id: number;
  display_name: string;
  short_name: string;
}

export const ASSESSMENTS: readonly CatalogAssessment[] = [
  { id: 1, display_name: 'Prescreen', short_name: 'Prescreen' },
  { id: 6, display_name: 'Personality Traits', short_name: 'Personality' },
  { id: 7, display_name: 'Thinking Skills', short_name: 'Thinking' },
  { id: 8, display_name: 'Career Interests', short_name: 'Interests' },
];

export function assessmentById(id: number): CatalogAssessment | undefined {
  return ASSESSMENTS.find((a) => a.id === id);
}

/** Accepts an alias, a short_name or a numeric id (any case); undefined when unknown. */
export function resolveAssessment(nameOrId: string | number): CatalogAssessment | undefined {
  if (typeof nameOrId === 'number') return assessmentById(nameOrId);
  const key = nameOrId.trim().toLowerCase();
  if (/^\d+$/.test(key)) return assessmentById(Number(key));
  const id = (TEST_ID as Readonly<Record<string, number>>)[key];
  if (id !== undefined) return assessmentById(id);
  return ASSESSMENTS.find((a) => a.short_name.toLowerCase() === key || a.display_name.toLowerCase() === key);
}

// ---------------------------------------------------------- dimension catalog

export type SectionKey = 'thinking_skills' | 'personality_traits' | 'career_interests';

export interface FacetDef {
  id: number;
  short_name: string;
  display_name: string;
  description: string;
  is_starred: boolean;
  yellow_band: number;
  /** Personality facets only: what a low and a high score look like. */
  anchor_low?: string;
  anchor_high?: string;
}

export interface DimensionDef extends FacetDef {
  section: SectionKey;
  facets: FacetDef[];
}

type FacetSpec = [short: string, display: string, description: string, anchorLow?: string, anchorHigh?: string];

function dim(
  section: SectionKey,
  id: number,
  short_name: string,
  display_name: string,
  description: string,
  is_starred: boolean,
  facets: FacetSpec[],
): DimensionDef {
  return {
    section,
    id,
    short_name,
    display_name,
    description,
    is_starred,
    // Score points outside the profile's target range still drawn yellow.
    yellow_band: 1,
    facets: facets.map(([s, d, desc, lo, hi], i) => ({
      id: id + i + 1,
      short_name: s,
      display_name: d,
      description: desc,
      is_starred: false,
      yellow_band: 1,
      ...(lo !== undefined ? { anchor_low: lo, anchor_high: hi } : {}),
    })),
  };
}

export const DIMENSIONS: readonly DimensionDef[] = [
  dim('thinking_skills', 100, 'think', 'Thinking Skills', 'How readily the person learns, reasons and solves new problems.', true, [
    ['think-read', 'Verbal Reasoning', 'Drawing sound conclusions from written passages.'],
    ['think-form', 'Pattern Reasoning', 'Spotting the rule behind sequences of shapes and symbols.'],
    ['think-math', 'Numerical Reasoning', 'Working through problems that involve numbers and quantities.'],
  ]),
  dim('personality_traits', 200, 'agree', 'Agreeableness', 'How warm, trusting and accommodating the person tends to be with others.', false, [
    ['agree-comp', 'Compassion', 'Attention to how other people feel.', 'Keeps feelings out of decisions', 'Tuned in to the feelings of others'],
    ['agree-coop', 'Cooperation', 'Willingness to go along with the group and avoid friction.', 'Stands ground and challenges others', 'Seeks harmony and compromise'],
    ['agree-help', 'Helpfulness', 'Readiness to lend a hand without being asked.', 'Focuses on own tasks first', 'Steps in to support colleagues'],
  ]),
  dim('personality_traits', 210, 'con', 'Conscientiousness', 'How organized, dependable and driven the person tends to be.', true, [
    ['con-org', 'Organization', 'Preference for order, plans and tidy routines.', 'Flexible and spontaneous', 'Plans ahead and keeps things in order'],
    ['con-prin', 'Integrity', 'Commitment to rules, honesty and doing things the right way.', 'Bends rules when they get in the way', 'Holds firmly to rules and standards'],
    ['con-resp', 'Dependability', 'Following through on commitments and deadlines.', 'Relaxed about commitments', 'Reliably delivers what was promised'],
    ['con-amb', 'Drive', 'Desire to achieve, improve and take on demanding goals.', 'Content with the current level', 'Sets and chases ambitious goals'],
  ]),
  dim('personality_traits', 220, 'emot', 'Emotional Stability', 'How steady and resilient the person tends to be under pressure.', false, [
    ['emot-bal', 'Even Temper', 'Keeping moods level from day to day.', 'Moods shift with events', 'Stays on an even keel'],
    ['emot-comp', 'Composure', 'Staying calm when things go wrong.', 'Feels pressure strongly', 'Keeps a cool head in a crisis'],
    ['emot-opt', 'Optimism', 'Expecting things to turn out well.', 'Cautious and sceptical about outcomes', 'Confident that things will work out'],
  ]),
  dim('personality_traits', 230, 'ext', 'Extroversion', 'How outgoing, assertive and energetic the person tends to be.', false, [
    ['ext-assert', 'Assertiveness', 'Taking charge and voicing opinions.', 'Lets others lead', 'Takes the lead and speaks up'],
    ['ext-soc', 'Sociability', 'Enjoyment of company and meeting new people.', 'Prefers small groups or working alone', 'Energized by people and conversation'],
    ['ext-en', 'Energy', 'Pace and liveliness in daily activity.', 'Works at a measured pace', 'Keeps a brisk, active pace'],
  ]),
  dim('personality_traits', 240, 'open', 'Openness', 'How curious, imaginative and receptive to new ideas the person tends to be.', false, [
    ['open-ana', 'Intellectual Curiosity', 'Interest in ideas, analysis and how things work.', 'Prefers the practical and proven', 'Enjoys digging into complex ideas'],
    ['open-cre', 'Imagination', 'Inventiveness and appreciation of new approaches.', 'Favours familiar methods', 'Generates original ideas and approaches'],
  ]),
  dim('career_interests', 300, 'ci-real', 'Realistic', 'Interest in hands-on work with tools, machines, materials or the outdoors.', false, [
    ['ci-real-con', 'Building and Repair', 'Constructing, fixing and maintaining physical things.'],
    ['ci-real-pro', 'Production and Operations', 'Running equipment and processes that make or move goods.'],
    ['ci-real-eng', 'Engineering and Technology', 'Applying technical know-how to practical problems.'],
  ]),
  dim('career_interests', 310, 'ci-inv', 'Investigative', 'Interest in observing, analysing and solving problems through study.', false, [
    ['ci-inv-soft', 'Social Science', 'Studying how people, groups and societies behave.'],
    ['ci-inv-ana', 'Analysis and Research', 'Gathering data and testing ideas systematically.'],
    ['ci-inv-med', 'Health Science', 'Understanding the body, illness and treatment.'],
  ]),
  dim('career_interests', 320, 'ci-art', 'Artistic', 'Interest in self-expression, design and original work.', false, [
    ['ci-art-cre', 'Visual and Performing Arts', 'Creating art, music, design or performance.'],
    ['ci-art-wri', 'Writing and Media', 'Crafting stories, articles and other written content.'],
  ]),
  dim('career_interests', 330, 'ci-soc', 'Social', 'Interest in helping, teaching and caring for people.', false, [
    ['ci-soc-tea', 'Teaching', 'Explaining things and helping others learn.'],
    ['ci-soc-ser', 'Service', 'Looking after the needs of customers and the public.'],
    ['ci-soc-cou', 'Counselling', 'Guiding people through personal or work challenges.'],
  ]),
  dim('career_interests', 340, 'ci-ent', 'Enterprising', 'Interest in leading, persuading and running ventures.', false, [
    ['ci-ent-man', 'Management', 'Directing people, budgets and projects.'],
    ['ci-ent-sal', 'Sales and Persuasion', 'Winning people over to a product or an idea.'],
  ]),
  dim('career_interests', 350, 'ci-con', 'Conventional', 'Interest in orderly work with data, records and clear procedures.', false, [
    ['ci-con-adm', 'Administration', 'Keeping records, schedules and office processes running.'],
    ['ci-con-fin', 'Finance and Accounting', 'Handling figures, budgets and financial records.'],
  ]),
  dim('career_interests', 360, 'ci-overall', 'Interest Match', "How closely the person's interest code matches the score profile's code.", true, [
    ['ci-flm', 'One-Letter Match', "How the person's strongest interest compares with the profile's leading interest."],
    ['ci-2lm', 'Two-Letter Match', "How the person's two strongest interests compare with the profile's first two."],
  ]),
];

export function dimensionsOf(section: SectionKey): DimensionDef[] {
  return DIMENSIONS.filter((d) => d.section === section);
}

/** Every dimension and facet short_name in catalog order (dimension, then its facets). */
export const ALL_SCORE_SHORT_NAMES: readonly string[] = DIMENSIONS.flatMap((d) => [
  d.short_name,
  ...d.facets.map((f) => f.short_name),
]);

const byShortName = new Map<string, FacetDef>();
for (const d of DIMENSIONS) {
  byShortName.set(d.short_name, d);
  for (const f of d.facets) byShortName.set(f.short_name, f);
}

// ------------------------------------------------- career interests (RIASEC)

export type RiasecLetter = 'R' | 'I' | 'A' | 'S' | 'E' | 'C';

export interface CareerInterestType {
  letter: RiasecLetter;
  name: string;
  short_name: string; // the ci-* dimension
}

/** In RIASEC order, which is also the tie-break order everywhere. */
export const CAREER_INTEREST_TYPES: readonly CareerInterestType[] = [
  { letter: 'R', name: 'Realistic', short_name: 'ci-real' },
  { letter: 'I', name: 'Investigative', short_name: 'ci-inv' },
  { letter: 'A', name: 'Artistic', short_name: 'ci-art' },
  { letter: 'S', name: 'Social', short_name: 'ci-soc' },
  { letter: 'E', name: 'Enterprising', short_name: 'ci-ent' },
  { letter: 'C', name: 'Conventional', short_name: 'ci-con' },
];

// ------------------------------------------------------- personality traits

export type TraitShortName = 'agree' | 'con' | 'emot' | 'ext' | 'open';

/** The five traits in catalog order, which is also the tie-break order. */
export const PERSONALITY_TRAITS: readonly { short_name: TraitShortName; name: string }[] = [
  { short_name: 'agree', name: 'Agreeableness' },
  { short_name: 'con', name: 'Conscientiousness' },
  { short_name: 'emot', name: 'Emotional Stability' },
  { short_name: 'ext', name: 'Extroversion' },
  { short_name: 'open', name: 'Openness' },
];

export const TRAIT_KEYS: readonly TraitShortName[] = ['agree', 'con', 'emot', 'ext', 'open'];

// ------------------------------------------------------------ fit targets

/**
 * What a role asks for: its RIASEC code, the ideal level (1-10) of each
 * personality trait with an importance weight (0-3), and optionally a minimum
 * thinking level with its weight.
 */
export interface FitTarget {
  riasec: string;
  traits: Record<TraitShortName, { target: number; weight: number }>;
  thinking?: { min: number; weight: number };
}

function traits(targets: string, weights: string): FitTarget['traits'] {
  // Compact notation: one character per trait in TRAIT_KEYS order;
  // targets use 1-9 and 'X' for 10.
  const t = [...targets].map((c) => (c === 'X' ? 10 : Number(c)));
  const w = [...weights].map(Number);
  const out = {} as FitTarget['traits'];
  TRAIT_KEYS.forEach((k, i) => {
    out[k] = { target: t[i], weight: w[i] };
  });
  return out;
}

// ------------------------------------------------------------ job families

export interface JobFamily extends FitTarget {
  job_family_number: string;
  job_family_name: string;
  job_family_job_zone: 1 | 2 | 3 | 4 | 5;
}

// [number, name, zone, riasec, trait targets, trait weights]
type JobFamilyRow = [number, string, 1 | 2 | 3 | 4 | 5, string, string, string];

// Several families appear in two zones under one number (entry and advanced
// levels of the same work), so one number can occur twice in a top 15.
const JOB_FAMILY_ROWS: JobFamilyRow[] = [
  [1010, 'Software Development', 3, 'ICR', '57567', '13013'],
  [1010, 'Software Development', 4, 'ICE', '58568', '13113'],
  [1020, 'Data Analysis', 4, 'ICE', '58458', '02012'],
  [1030, 'Network and Systems Support', 3, 'RIC', '57546', '02111'],
  [1040, 'Cybersecurity', 4, 'ICR', '48656', '03112'],
  [1110, 'Electrical and Electronics Engineering', 4, 'RIC', '58557', '03012'],
  [1120, 'Civil Engineering', 4, 'RIC', '58557', '03112'],
  [1130, 'Mechanical Maintenance', 2, 'RCI', '67545', '12101'],
  [1130, 'Mechanical Maintenance', 3, 'RCI', '68545', '12111'],
  [1210, 'Construction Trades', 2, 'RCE', '66555', '12101'],
  [1220, 'Skilled Manufacturing', 2, 'RCI', '67545', '12101'],
  [1230, 'Transportation and Delivery', 1, 'RCS', '66544', '12200'],
  [1240, 'Warehouse and Logistics', 1, 'RCE', '67554', '12101'],
  [1250, 'Agriculture and Grounds', 2, 'RIC', '65644', '11101'],
  [1310, 'Protective Services', 3, 'RSE', '58766', '12311'],
  [1320, 'Firefighting and Rescue', 2, 'RSE', '78776', '12311'],
  [2010, 'Nursing', 3, 'SIC', '88756', '33211'],
  [2010, 'Nursing', 4, 'SIC', '88766', '33212'],
  [2020, 'Medical Technology', 3, 'IRC', '68546', '13101'],
  [2030, 'Personal Care and Support', 2, 'SRC', '96765', '32211'],
  [2040, 'Pharmacy Services', 3, 'CIS', '68645', '13101'],
  [2110, 'Teaching', 4, 'SAE', '87777', '22222'],
  [2120, 'Training and Development', 4, 'SEA', '77777', '22122'],
  [2130, 'Counselling and Social Work', 5, 'SIA', '97767', '31212'],
  [2140, 'Childcare', 2, 'SAR', '97765', '32211'],
  [3010, 'Sales Representatives', 2, 'ESC', '57788', '11232'],
  [3010, 'Sales Representatives', 3, 'ECS', '57897', '11333'],
  [3020, 'Retail Sales', 1, 'ESC', '76776', '21131'],
  [3030, 'Customer Service', 2, 'SEC', '87765', '32221'],
  [3040, 'Marketing and Communications', 4, 'EAI', '67779', '11223'],
  [3110, 'General Management', 4, 'ECS', '58877', '13222'],
  [3110, 'General Management', 5, 'ECI', '59887', '13323'],
  [3120, 'Project Management', 4, 'ECI', '69767', '23212'],
  [3130, 'Human Resources', 4, 'SEC', '87767', '22212'],
  [3140, 'Hospitality Management', 3, 'ESR', '77876', '22232'],
  [4010, 'Accounting and Auditing', 4, 'CEI', '59644', '13100'],
  [4020, 'Bookkeeping and Clerical Finance', 2, 'CER', '68543', '13100'],
  [4030, 'Office Administration', 2, 'CES', '78654', '23111'],
  [4040, 'Banking and Lending', 3, 'CES', '68664', '13121'],
  [4050, 'Legal Support', 4, 'CEI', '68655', '13111'],
  [5010, 'Graphic and Digital Design', 3, 'AER', '66559', '11103'],
  [5020, 'Writing and Editing', 4, 'AIS', '66549', '11103'],
  [5030, 'Performing Arts', 3, 'AES', '65689', '11123'],
  [5040, 'Culinary Arts', 2, 'ARE', '67667', '12112'],
  [6010, 'Scientific Research', 5, 'IRA', '58449', '02003'],
  [6020, 'Physicians and Surgeons', 5, 'ISR', '79757', '23212'],
];

export const JOB_FAMILIES: readonly JobFamily[] = JOB_FAMILY_ROWS.map(([num, name, zone, riasec, t, w]) => ({
  job_family_number: `JF-${num}`,
  job_family_name: `${name} (Zone ${zone})`,
  job_family_job_zone: zone,
  riasec,
  traits: traits(t, w),
  // Higher zones ask more of reasoning; used only when Thinking is complete.
  thinking: { min: zone + 3, weight: zone >= 4 ? 2 : 1 },
}));

// ------------------------------------------------------ system score profiles

export interface ScoreProfileDef extends FitTarget {
  id: number;
  display_name: string;
  short_name: string;
  riasec_profile: string;
}

type ProfileRow = [number, string, string, string, string, string, number, number];

// [id, display_name, short_name, riasec, trait targets, trait weights, thinking min, thinking weight]
const SCORE_PROFILE_ROWS: ProfileRow[] = [
  [501, 'Sales Representative', 'sales-rep', 'ESC', '57897', '11332', 5, 1],
  [502, 'Customer Service Agent', 'customer-service', 'SEC', '87765', '32221', 4, 1],
  [503, 'Software Engineer', 'software-engineer', 'ICR', '57568', '13013', 7, 3],
  [504, 'Registered Nurse', 'registered-nurse', 'SIC', '88756', '33211', 6, 2],
  [505, 'Staff Accountant', 'accountant', 'CEI', '59644', '13100', 6, 2],
  [506, 'Project Manager', 'project-manager', 'ECI', '69767', '23212', 6, 2],
  [507, 'Teacher', 'teacher', 'SAE', '87777', '22222', 6, 2],
  [508, 'Warehouse Associate', 'warehouse-associate', 'RCE', '67554', '12101', 3, 1],
  [509, 'Graphic Designer', 'graphic-designer', 'AER', '66559', '11103', 5, 1],
  [510, 'Data Analyst', 'data-analyst', 'ICE', '58458', '02012', 7, 3],
];

export const SCORE_PROFILES: readonly ScoreProfileDef[] = SCORE_PROFILE_ROWS.map(
  ([id, display_name, short_name, riasec, t, w, min, weight]) => ({
    id,
    display_name,
    short_name,
    riasec_profile: riasec,
    riasec,
    traits: traits(t, w),
    thinking: { min, weight },
  }),
);

export function scoreProfileByShortName(shortName: string): ScoreProfileDef | undefined {
  return SCORE_PROFILES.find((p) => p.short_name === shortName);
}

