/**
 * Method, path and key requirement of every route of API v2, without the
 * schemas, so that it loads without zod: the stub routes on it (src/stub/http/router.ts).
 * routes.ts adds the schemas; the `satisfies` clause holds the two to one
 * another (a route missing here, or a method, path or auth that differs, does
 * not compile).
 */
import type { ROUTES, RouteName } from './routes.js';

type RouteTable = typeof ROUTES;

export const ROUTE_LINES = {
  healthcheck: { method: 'GET', path: '/healthcheck', auth: false },
  getAccount: { method: 'GET', path: '/accounts', auth: true },
  listUsers: { method: 'GET', path: '/users', auth: true },
  listTeams: { method: 'GET', path: '/teams', auth: true },
  listEmailTemplates: { method: 'GET', path: '/email-templates', auth: true },
  createInvitation: { method: 'POST', path: '/invitations', auth: true },
  listInvitations: { method: 'GET', path: '/invitations', auth: true },
  getInvitation: { method: 'GET', path: '/invitations/:invitationId', auth: true },
  updateInvitation: { method: 'PUT', path: '/invitations/:invitationId', auth: true },
  listTestTakers: { method: 'GET', path: '/test-takers', auth: true },
  getTestTaker: { method: 'GET', path: '/test-takers/:testTakerId', auth: true },
  getScorecard: { method: 'GET', path: '/test-takers/:testTakerId/scorecard', auth: true },
  getJobFitReport: { method: 'GET', path: '/test-takers/:testTakerId/job-fit-report', auth: true },
  listCareerNavigationProfiles: { method: 'GET', path: '/career-navigation-profiles', auth: true },
  getCareerNavigationProfile: { method: 'GET', path: '/career-navigation-profiles/:careerNavigationProfileId', auth: true },
  listAssessments: { method: 'GET', path: '/assessments', auth: true },
  listScoreProfiles: { method: 'GET', path: '/score-profiles', auth: true },
} as const satisfies { [K in RouteName]: { method: RouteTable[K]['method']; path: RouteTable[K]['path']; auth: RouteTable[K]['auth'] } };
