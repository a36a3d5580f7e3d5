/**
 * The route table of API v2: one line per endpoint. The stub dispatches on it
 * (through route-lines.ts, its method and path without the schemas, and a
 * handler table that does not compile while a route has no handler), the
 * client has one method per entry, and docs/openapi.json is generated from it.
 * Paths are relative to the base URL (which ends in /v2).
 */
import type { z } from 'zod';
import { CreateInvitationBody, ListQuery, ScorecardQuery, UpdateInvitationBody } from './requests.js';
import * as S from './schemas.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface RouteDef {
  method: HttpMethod;
  /** Express-style path with :params. */
  path: string;
  summary: string;
  /** Whether the route needs the API key (all but the healthcheck). */
  auth: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status and schema of a successful response. */
  status: 200 | 201;
  response: z.ZodType;
  /**
   * What a test key gets: `fake` = a well-formed fake object, nothing stored;
   * `real` = the real data (GET /assessments); `none` = no key needed.
   */
  testKey: 'fake' | 'real' | 'none';
}

export const ROUTES = {
  healthcheck: { method: 'GET', path: '/healthcheck', summary: 'Service health (no key)', auth: false, status: 200, response: S.Healthcheck, testKey: 'none' },
  getAccount: { method: 'GET', path: '/accounts', summary: 'The account linked to the key', auth: true, status: 200, response: S.Account, testKey: 'fake' },
  listUsers: { method: 'GET', path: '/users', summary: 'Users of the account', auth: true, status: 200, response: S.UserList, testKey: 'fake' },
  listTeams: { method: 'GET', path: '/teams', summary: 'Teams of the account', auth: true, status: 200, response: S.TeamList, testKey: 'fake' },
  listEmailTemplates: { method: 'GET', path: '/email-templates', summary: 'Email templates with the teams they are assigned to', auth: true, status: 200, response: S.EmailTemplateList, testKey: 'fake' },
  createInvitation: { method: 'POST', path: '/invitations', summary: 'Create an invitation', auth: true, body: CreateInvitationBody, status: 201, response: S.Invitation, testKey: 'fake' },
  listInvitations: { method: 'GET', path: '/invitations', summary: 'List invitations, newest first', auth: true, query: ListQuery, status: 200, response: S.InvitationList, testKey: 'fake' },
  getInvitation: { method: 'GET', path: '/invitations/:invitationId', summary: 'One invitation', auth: true, status: 200, response: S.Invitation, testKey: 'fake' },
  updateInvitation: { method: 'PUT', path: '/invitations/:invitationId', summary: 'Update an invitation', auth: true, body: UpdateInvitationBody, status: 200, response: S.Invitation, testKey: 'fake' },
  listTestTakers: { method: 'GET', path: '/test-takers', summary: 'List test takers, newest first', auth: true, query: ListQuery, status: 200, response: S.TestTakerList, testKey: 'fake' },
  getTestTaker: { method: 'GET', path: '/test-takers/:testTakerId', summary: 'One test taker', auth: true, status: 200, response: S.TestTaker, testKey: 'fake' },
  getScorecard: { method: 'GET', path: '/test-takers/:testTakerId/scorecard', summary: 'Scorecard for a score profile (sp)', auth: true, query: ScorecardQuery, status: 200, response: S.Scorecard, testKey: 'fake' },
  getJobFitReport: { method: 'GET', path: '/test-takers/:testTakerId/job-fit-report', summary: 'Job fit report', auth: true, status: 200, response: S.JobFitReport, testKey: 'fake' },
  listCareerNavigationProfiles: { method: 'GET', path: '/career-navigation-profiles', summary: 'Career navigation profiles', auth: true, status: 200, response: S.CareerNavigationProfileList, testKey: 'fake' },
  getCareerNavigationProfile: { method: 'GET', path: '/career-navigation-profiles/:careerNavigationProfileId', summary: 'One career navigation profile (404 with a null body when not found)', auth: true, status: 200, response: S.CareerNavigationProfile, testKey: 'fake' },
  listAssessments: { method: 'GET', path: '/assessments', summary: 'Assessment catalog (real even with a test key)', auth: true, status: 200, response: S.AssessmentList, testKey: 'real' },
  listScoreProfiles: { method: 'GET', path: '/score-profiles', summary: 'System score profiles enabled for the account', auth: true, status: 200, response: S.ScoreProfileList, testKey: 'fake' },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof ROUTES;
export type RouteResponse<N extends RouteName> = z.infer<(typeof ROUTES)[N]['response']>;

