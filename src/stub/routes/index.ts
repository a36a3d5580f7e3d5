/**
 * The handler of every route of API v2, keyed by the route's name in
 * api/routes.ts. The type makes a route without a handler (or a handler
 * without a route) a compile error; api/route-match.ts finds the route of a
 * request from the same table. Each handler's module is loaded on its
 * route's first request: an offline command (one request, in process) loads
 * only its own, not the fakes, the catalog or the invitations' checks.
 */
import type { RouteName } from '../../api/routes.js';
import { type Reply, json } from '../http/reply.js';
import { nowIso } from '../ids.js';
import type { Handlers } from './call.js';

const healthcheck = (): Reply => json(200, { status: 'ok', timestamp: nowIso(), version: 'v2' });

export const HANDLERS: Handlers = {
  healthcheck: async () => healthcheck,
  getAccount: async () => (await import('./accounts.js')).getAccount,
  listUsers: async () => (await import('./users.js')).listUsers,
  listTeams: async () => (await import('./teams.js')).listTeams,
  listEmailTemplates: async () => (await import('./templates.js')).listEmailTemplates,
  createInvitation: async () => (await import('./invitations.js')).createInvitation,
  listInvitations: async () => (await import('./invitations.js')).listInvitations,
  getInvitation: async () => (await import('./invitations.js')).getInvitation,
  updateInvitation: async () => (await import('./invitations.js')).updateInvitation,
  listTestTakers: async () => (await import('./test-takers.js')).listTestTakers,
  getTestTaker: async () => (await import('./test-takers.js')).getTestTaker,
  getScorecard: async () => (await import('./results.js')).getScorecard,
  getJobFitReport: async () => (await import('./results.js')).getJobFitReport,
  listCareerNavigationProfiles: async () => (await import('./profiles.js')).listProfiles,
  getCareerNavigationProfile: async () => (await import('./profiles.js')).getProfile,
  listAssessments: async () => (await import('./assessments.js')).listAssessments,
  listScoreProfiles: async () => (await import('./assessments.js')).listScoreProfiles,
};

type Loaded = Awaited<ReturnType<Handlers[RouteName]>>;
const loaded = new Map<RouteName, Loaded>();

/**
 * The handler of a route, its module loaded once: in the bundle each
 * `import()` above is a require() wrapped anew on every call (a copy of the
 * module's exports), which a run of thousands of requests paid on each one
 * (docs/performance.md, "Fairness report"). Synchronous once loaded, so a
 * request of a route already served awaits nothing for it.
 */
export function handlerOf(name: RouteName): Loaded | Promise<Loaded> {
  return (
    loaded.get(name) ??
    HANDLERS[name]().then((h: Loaded) => {
      loaded.set(name, h);
      return h;
    })
  );
}
