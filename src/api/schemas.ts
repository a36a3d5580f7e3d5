/**
 * The contract of the Assessment and Job-Fit Service API v2: every resource,
 * list envelope and error body, described once.
 *
 * - The stub builds its responses to these types and its tests check that a
 *   response has exactly the keys of the schema (`shapeKeys`).
 * - The client validates responses against them but returns what the server
 *   sent (unknown fields pass through; see src/client).
 * - docs/openapi.json is generated from them.
 *
 * Field order follows the reference, so JSON output reads like its tables.
 * Shapes the reference leaves "not shown" are decided in docs/stub.md: our
 * stub sends them, but a field the reference does not state is optional here
 * (so in docs/openapi.json and the library's types), since another server may
 * leave it out. A resource is at least its reference shape (`{ id,
 * display_name }` for an account, `{ id, first_name, last_name, email }` for a
 * user): those stay required.
 */
import * as z from 'zod';

export const Mode = z.enum(['live', 'test']);
export type Mode = z.infer<typeof Mode>;

const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp' });
const url = z.string().meta({ format: 'uri' });

// ---------------------------------------------------------------- references

export const TeamRef = z.object({ id: z.number().int(), display_name: z.string() }).meta({ id: 'TeamRef' });
export const AccountRef = z.object({ id: z.number().int(), display_name: z.string() }).meta({ id: 'AccountRef' });
export const EmailTemplateRef = z.object({ id: z.number().int(), display_name: z.string() }).meta({ id: 'EmailTemplateRef' });
export const AssessmentRef = z
  .object({ id: z.number().int(), display_name: z.string(), short_name: z.string() })
  .meta({ id: 'AssessmentRef' });
export const UserRef = z
  .object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), email: z.string() })
  .meta({ id: 'UserRef' });
export const ScoreProfileRef = z
  .object({ id: z.number().int(), display_name: z.string(), short_name: z.string() })
  .meta({ id: 'ScoreProfileRef' });

export type TeamRef = z.infer<typeof TeamRef>;
export type AccountRef = z.infer<typeof AccountRef>;
export type EmailTemplateRef = z.infer<typeof EmailTemplateRef>;
export type AssessmentRef = z.infer<typeof AssessmentRef>;
export type UserRef = z.infer<typeof UserRef>;
export type ScoreProfileRef = z.infer<typeof ScoreProfileRef>;

// ---------------------------------------------------------------- envelope

/** The list envelope: `total_count` counts all matches, `has_more` says the list was cut. */
function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    mode: Mode,
    object: z.literal('list'),
    total_count: z.number().int(),
    has_more: z.boolean(),
    data: z.array(item),
  });
}

// ---------------------------------------------------------------- invitations

export const Invitation = z
  .object({
    mode: Mode,
    object: z.literal('invitation'),
    id: z.number().int(),
    invited_by_user: UserRef.nullable(),
    created_at: timestamp,
    accepted_at: timestamp.nullable(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    send_via_email: z.boolean(),
    phone: z.string().nullable().meta({ description: 'E.164' }),
    send_via_sms: z.boolean(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    invitation_email_template: EmailTemplateRef.nullable(),
    ref_text: z.string().nullable(),
    congrats_email_template: EmailTemplateRef.nullable(),
    send_congrats_notification: z.boolean(),
    target_score_profile: ScoreProfileRef.nullable(),
    invitation_assessments: z.array(AssessmentRef),
    assessment_url: url.nullable(),
    career_navigation_url: url.nullable(),
    scorecard_url: url.nullable(),
    job_fit_summary_url: url.nullable(),
    career_options_spotlight_url: url.nullable(),
    team: TeamRef,
    account: AccountRef,
    test_taker_id: z.number().int().nullable(),
    career_navigation_profile_id: z.string().nullable(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

export const InvitationListItem = z
  .object({
    object: z.literal('invitation_list_item'),
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    created_at: timestamp,
    accepted_at: timestamp.nullable(),
    assessment_url: url.nullable(),
    test_taker_id: z.number().int().nullable(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    team: TeamRef,
    account: AccountRef,
  })
  .meta({ id: 'InvitationListItem' });
export type InvitationListItem = z.infer<typeof InvitationListItem>;
export const InvitationList = listOf(InvitationListItem).meta({ id: 'InvitationList' });

// ---------------------------------------------------------------- teams, users, templates, account

export const TeamListItem = z
  .object({
    object: z.literal('team_list_item'),
    id: z.number().int(),
    display_name: z.string(),
    users_count: z.number().int(),
    invitations_count: z.number().int(),
    test_takers_count: z.number().int(),
  })
  .meta({ id: 'TeamListItem' });
export type TeamListItem = z.infer<typeof TeamListItem>;
export const TeamList = listOf(TeamListItem).meta({ id: 'TeamList' });

/** Reference: "not shown beyond webhook_endpoint and webhooks_enabled"; `id` and `display_name` are the account reference's. */
export const Account = z
  .object({
    mode: Mode,
    object: z.literal('account').optional(),
    id: z.number().int(),
    display_name: z.string(),
    webhook_endpoint: url.nullable(),
    webhooks_enabled: z.boolean(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof Account>;

/** Reference: "not shown beyond the inviter defaults"; the rest of the user reference stays required. */
export const User = z
  .object({
    object: z.literal('user').optional(),
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    default_team: TeamRef.nullable(),
    default_assessments: z.array(AssessmentRef),
    default_invitation_email_template: EmailTemplateRef.nullable(),
    default_congrats_email_template: EmailTemplateRef.nullable(),
    default_scheduling_link: url.nullable().optional(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;
export const UserList = listOf(User).meta({ id: 'UserList' });

export const EmailTemplateKind = z.enum(['invitation', 'congrats']);
/** Reference: the template reference `{ id, display_name }`, "with the teams they are assigned to". */
export const EmailTemplate = z
  .object({
    object: z.literal('email_template').optional(),
    id: z.number().int(),
    display_name: z.string(),
    template_type: EmailTemplateKind.optional(),
    teams: z.array(TeamRef),
  })
  .meta({ id: 'EmailTemplate' });
export type EmailTemplate = z.infer<typeof EmailTemplate>;
export const EmailTemplateList = listOf(EmailTemplate).meta({ id: 'EmailTemplateList' });

// ---------------------------------------------------------------- assessments, score profiles

export const Assessment = z
  .object({ object: z.literal('assessment').optional(), id: z.number().int(), display_name: z.string(), short_name: z.string() })
  .meta({ id: 'Assessment' });
export type Assessment = z.infer<typeof Assessment>;
export const AssessmentList = listOf(Assessment).meta({ id: 'AssessmentList' });

export const ScoreProfile = z
  .object({
    object: z.literal('score_profile').optional(),
    id: z.number().int(),
    display_name: z.string(),
    short_name: z.string(),
    riasec_profile: z.string().nullable(),
  })
  .meta({ id: 'ScoreProfile' });
export type ScoreProfile = z.infer<typeof ScoreProfile>;
export const ScoreProfileList = listOf(ScoreProfile).meta({ id: 'ScoreProfileList' });

// ---------------------------------------------------------------- test takers

export const AssignedAssessment = z
  .object({
    id: z.number().int(),
    completed_at: timestamp.nullable(),
    language: z.string().nullable().meta({ description: 'locale id such as en or es; null until started' }),
    assessment: AssessmentRef,
  })
  .meta({ id: 'AssignedAssessment' });
export type AssignedAssessment = z.infer<typeof AssignedAssessment>;

export const TestTaker = z
  .object({
    mode: Mode,
    object: z.literal('test_taker'),
    id: z.number().int(),
    person_id: z.string().nullable(),
    custom_id: z.string().nullable(),
    invitation_id: z.number().int(),
    phone: z.string().nullable(),
    assigned_assessments: z.array(AssignedAssessment),
    scorecard_url: url.nullable(),
    job_fit_summary_url: url.nullable(),
    career_navigation_url: url.nullable(),
    career_navigation_profile_id: z.string().nullable(),
  })
  .meta({ id: 'TestTaker' });
export type TestTaker = z.infer<typeof TestTaker>;

/**
 * The reference states only `custom_id`, `person_id`, `team` and `account` (and
 * the list's items are addressed by `id`): everything else is optional, as a
 * strict server (`stub serve --minimal-fields`) leaves it out. Our stub sends it.
 */
export const TestTakerListItem = z
  .object({
    object: z.literal('test_taker_list_item').optional(),
    id: z.number().int(),
    invitation_id: z.number().int().optional(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    email: z.string().optional(),
    created_at: timestamp.optional(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    team: TeamRef,
    account: AccountRef,
  })
  .meta({ id: 'TestTakerListItem' });
export type TestTakerListItem = z.infer<typeof TestTakerListItem>;
export const TestTakerList = listOf(TestTakerListItem).meta({ id: 'TestTakerList' });

// ---------------------------------------------------------------- career navigation profiles

export const CareerNavigationProfile = z
  .object({
    mode: Mode,
    object: z.literal('career_navigation_profile'),
    id: z.string(),
    person_id: z.string().nullable(),
    test_taker_id: z.number().int(),
    career_navigation_url: url,
    exercises: z.record(z.string(), z.string()).meta({ description: 'keys seen: strengthsCareerInterests, targetJobName' }),
    plan_job_1: z.object({ jobName: z.string(), onetCode: z.string() }),
  })
  .meta({ id: 'CareerNavigationProfile' });
export type CareerNavigationProfile = z.infer<typeof CareerNavigationProfile>;

/**
 * The reference states only `custom_id` and `person_id` (and `id`, by which an
 * item is fetched): everything else is optional. `created_at` is also absent
 * from the items `profiles list --all` finds through the test takers.
 */
export const CareerNavigationProfileListItem = z
  .object({
    object: z.literal('career_navigation_profile_list_item').optional(),
    id: z.string(),
    test_taker_id: z.number().int().optional(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    career_navigation_url: url.optional(),
    created_at: timestamp.optional(),
  })
  .meta({ id: 'CareerNavigationProfileListItem' });
export type CareerNavigationProfileListItem = z.infer<typeof CareerNavigationProfileListItem>;
export const CareerNavigationProfileList = listOf(CareerNavigationProfileListItem).meta({ id: 'CareerNavigationProfileList' });

// ---------------------------------------------------------------- scorecard

const scoreBase = {
  object: z.literal('score'),
  id: z.number().int(),
  display_name: z.string(),
  short_name: z.string(),
  description: z.string(),
  is_starred: z.boolean(),
  yellow_band: z.number().int(),
  test_taker_score: z.number().int().nullable(),
};
export const FacetScore = z.object(scoreBase).meta({ id: 'FacetScore' });
export const DimensionScore = z.object({ ...scoreBase, facets: z.array(FacetScore).optional() }).meta({ id: 'DimensionScore' });
export type FacetScore = z.infer<typeof FacetScore>;
export type DimensionScore = z.infer<typeof DimensionScore>;

// The sections of a scorecard's `scores`, in reference order (catalog.ts, which needs no zod).
export { SCORE_SECTIONS, type ScoreSection } from './catalog.js';

const section = z.array(DimensionScore).nullable();
export const Scores = z
  .object({
    thinking_skills: section,
    personality_traits: section,
    career_interests: section,
    skill_survey_reference: section,
    structured_interview: section,
  })
  .meta({ id: 'Scores' });
export type Scores = z.infer<typeof Scores>;

export const Scorecard = z
  .object({
    mode: Mode,
    object: z.literal('scorecard'),
    test_taker_id: z.number().int(),
    invitation_id: z.number().int(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    career_navigation_profile_id: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    fitscore_raw: z.number().nullable(),
    five_star_score: z.number().int().min(1).max(5).nullable(),
    job_fit_percentage: z.number().nullable(),
    scorecard_url: url.nullable(),
    score_profile: z
      .object({ id: z.number().int(), display_name: z.string(), short_name: z.string(), riasec_profile: z.string().nullable() })
      .nullable(),
    riasec_profile: z.string().nullable(),
    scores: Scores,
  })
  .meta({ id: 'Scorecard' });
export type Scorecard = z.infer<typeof Scorecard>;

// ---------------------------------------------------------------- job fit report

const described = { id: z.number().int(), display_name: z.string(), short_name: z.string(), description: z.string() };

export const JobFitReport = z
  .object({
    mode: Mode,
    object: z.literal('job_fit_report'),
    test_taker_id: z.number().int(),
    invitation_id: z.number().int(),
    custom_id: z.string().nullable(),
    person_id: z.string().nullable(),
    career_navigation_profile_id: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    assessment_url: url.nullable(),
    career_navigation_url: url.nullable(),
    scorecard_url: url.nullable(),
    job_fit_summary_url: url.nullable(),
    career_options_spotlight_url: url.nullable(),
    team: TeamRef,
    account: AccountRef,
    riasec_profile: z.string(),
    career_interests_profile: z.array(z.object({ ...described, rank: z.number().int().min(1).max(3) })),
    career_interests: z.array(
      z.object({
        object: z.literal('career_interest'),
        ...described,
        facets: z.array(
          z.object({
            object: z.literal('career_interest_facet'),
            ...described,
            test_taker_score_range: z.enum(['Low', 'Medium', 'High']),
          }),
        ),
      }),
    ),
    personality_traits_profile: z.array(z.object({ ...described, rank: z.number().int().min(1).max(5) })),
    personality_traits: z.array(
      z.object({
        object: z.literal('personality_trait'),
        ...described,
        facets: z.array(
          z.object({
            object: z.literal('personality_trait_facet'),
            ...described,
            anchor_low: z.string(),
            anchor_high: z.string(),
            test_taker_score_range: z.enum(['Less Pronounced', 'Moderately Pronounced', 'More Pronounced']),
          }),
        ),
      }),
    ),
    top_fit_occupations: z.array(
      z.object({
        object: z.literal('job_family_job_fit'),
        job_family_number: z.string(),
        job_family_name: z.string(),
        job_family_job_zone: z.number().int().min(1).max(5),
        job_fit_percentage: z.number().min(0).max(100),
        job_fit_star_rating: z.number().int().min(1).max(5),
        rank: z.number().int().min(1).max(15),
      }),
    ),
  })
  .meta({ id: 'JobFitReport' });
export type JobFitReport = z.infer<typeof JobFitReport>;

// ---------------------------------------------------------------- misc

export const Healthcheck = z
  .object({ status: z.literal('ok'), timestamp, version: z.literal('v2') })
  .meta({ id: 'Healthcheck' });
export type Healthcheck = z.infer<typeof Healthcheck>;

/**
 * Error body. The reference: `{ error: <message> }`, or for some schema errors
 * `{ error: [ ... ] }`. We decided the array holds strings of the same
 * `<field>: <message>` form (docs/stub.md).
 */
export const ErrorBody = z.object({ error: z.union([z.string(), z.array(z.unknown())]) }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---------------------------------------------------------------- webhook events

export const EVENT_TYPES = [
  'invitation.accepted',
  'test_taker.created',
  'test_taker.assessment_completed',
  'career_navigation_profile.created',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

export const Event = z
  .object({
    id: z.string(),
    type: z.string(),
    object: z.literal('event'),
    created_at: z.string().meta({ description: 'ISO 8601 with milliseconds' }),
    api_version: z.string(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

/**
 * The top-level keys of an object schema, for "exactly these fields" checks.
 */
export function shapeKeys(schema: z.ZodType): string[] {
  const def = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return def ? Object.keys(def) : [];
}
