/**
 * The shared parts of the API v2 schemas: the mode, the references that
 * resources embed, the list envelope, and the shape check the stub's tests use.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';

export { Mode, listOf } from './envelope.js';

export const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp' });
export const url = z.string().meta({ format: 'uri' });

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

/**
 * The participant's links, team and account, in the reference's order: the
 * same run of fields in an invitation and in a job fit report.
 */
export const participantLinks = {
  assessment_url: url.nullable(),
  career_navigation_url: url.nullable(),
  scorecard_url: url.nullable(),
  job_fit_summary_url: url.nullable(),
  career_options_spotlight_url: url.nullable(),
  team: TeamRef,
  account: AccountRef,
};

// ---------------------------------------------------------------- envelope


/**
 * The top-level keys of an object schema, for "exactly these fields" checks.
 */
export function shapeKeys(schema: z.ZodType): string[] {
  const def = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return def ? Object.keys(def) : [];
}
