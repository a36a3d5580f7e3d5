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
 *
 * The schemas live in src/api/schemas/, one module per resource, so that a
 * command loads only the ones it needs (start-up: building every schema costs
 * about 10 ms); this module re-exports them all, in the order of the contract
 * (zod registers each `.meta({ id })` as it is built, and docs/openapi.json
 * lists them in that order).
 */
export { Mode, TeamRef, AccountRef, EmailTemplateRef, AssessmentRef, UserRef, ScoreProfileRef, shapeKeys } from './schemas/base.js';
export * from './schemas/invitations.js';
export * from './schemas/account.js';
export * from './schemas/assessments.js';
export * from './schemas/test-takers.js';
export * from './schemas/profiles.js';
export * from './schemas/scorecard.js';
export * from './schemas/job-fit.js';
export * from './schemas/misc.js';
export * from './schemas/events.js';
