/**
 * The handler of every route of API v2, keyed by the route's name in
 * api/routes.ts. The type makes a route without a handler (or a handler
 * without a route) a compile error; api/route-match.ts finds the route of a
 * request from the same table.
 */
import { type Reply, json } from '../http/reply.js';
import { nowIso } from '../store.js';
import { getAccount } from './accounts.js';
import { listAssessments, listScoreProfiles } from './assessments.js';
import type { Handlers } from './call.js';
import { createInvitation, getInvitation, listInvitations, updateInvitation } from './invitations.js';
import { getProfile, listProfiles } from './profiles.js';
import { getJobFitReport, getScorecard } from './results.js';
import { listTeams } from './teams.js';
import { listEmailTemplates } from './templates.js';
import { getTestTaker, listTestTakers } from './test-takers.js';
import { listUsers } from './users.js';

const healthcheck = (): Reply => json(200, { status: 'ok', timestamp: nowIso(), version: 'v2' });

export const HANDLERS: Handlers = {
  healthcheck,
  getAccount,
  listUsers,
  listTeams,
  listEmailTemplates,
  createInvitation,
  listInvitations,
  getInvitation,
  updateInvitation,
  listTestTakers,
  getTestTaker,
  getScorecard,
  getJobFitReport,
  listCareerNavigationProfiles: listProfiles,
  getCareerNavigationProfile: getProfile,
  listAssessments,
  listScoreProfiles,
};
