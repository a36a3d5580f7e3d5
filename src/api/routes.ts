/**
 * The route table of API v2: the one place where a route's method, path,
 * parameters, list-or-item answer, key requirement, request and response
 * schemas and content type are written. Everything else derives from it:
 * the client's methods (client/client.ts), the stub's router and handler
 * table (route-match.ts, stub/routes/index.ts), docs/openapi.json
 * (api/openapi.ts) and the set of list routes (LIST_ROUTES).
 *
 * The table loads without zod: a schema is named by its export in
 * schemas.ts or requests.ts (the compiler checks the name), and
 * route-schemas.ts resolves the names when a schema is needed (the OpenAPI
 * document, the client's `-v` check). So the stub and the client start light.
 * Paths are relative to the base URL (which ends in /v2).
 */
import type { z } from 'zod';
import type * as Requests from './requests.js';
import type * as Answers from './schemas.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

type SchemaModules = typeof Answers & typeof Requests;

/** The name of a zod schema exported by schemas.ts or requests.ts. */
export type SchemaName = { [K in keyof SchemaModules]: SchemaModules[K] extends z.ZodType ? K : never }[keyof SchemaModules];

/** The schema of that name (a type; route-schemas.ts has the values). */
export type SchemaOf<S extends SchemaName> = SchemaModules[S];

/** How a path parameter is written: a number id, or a string id (career navigation profiles). */
export type ParamType = 'integer' | 'string';

/** The content type of every route that answers JSON. */
export const JSON_TYPE = 'application/json';

export interface RouteDef {
  method: HttpMethod;
  /** Express-style path with :params. */
  path: string;
  summary: string;
  /** Whether the route needs the API key (all but the healthcheck). */
  auth: boolean;
  /** The path's :params and how each is written (one entry per :param, in any order). */
  params?: Readonly<Record<string, ParamType>>;
  /** The documented query parameters: a schema of requests.ts. */
  query?: SchemaName;
  /** The JSON body: a schema of requests.ts. */
  body?: SchemaName;
  /** `list`: a list envelope (an object with a data array); `item`: one object (or, not JSON, one body of bytes). */
  kind: 'list' | 'item';
  /** What the route answers and the client asks for (`accept`). */
  contentType: string;
  /** Status of a successful response. */
  status: 200 | 201;
  /** Schema of a successful JSON response; a route without one answers bytes (of contentType). */
  response?: SchemaName;
  /** The answer is the JSON literal null when the item does not exist (404). */
  nullWhenMissing?: boolean;
  /**
   * What a test key gets: `fake` = a well-formed fake object, nothing stored;
   * `real` = the real data (GET /assessments); `none` = no key needed.
   */
  testKey: 'fake' | 'real' | 'none';
}

const ID = { invitationId: 'integer' } as const;
const TT = { testTakerId: 'integer' } as const;

export const ROUTES = {
  healthcheck: { method: 'GET', path: '/healthcheck', summary: 'Service health (no key)', auth: false, kind: 'item', contentType: JSON_TYPE, status: 200, response: 'Healthcheck', testKey: 'none' },
  getAccount: { method: 'GET', path: '/accounts', summary: 'The account linked to the key', auth: true, kind: 'item', contentType: JSON_TYPE, status: 200, response: 'Account', testKey: 'fake' },
  listUsers: { method: 'GET', path: '/users', summary: 'Users of the account', auth: true, kind: 'list', contentType: JSON_TYPE, status: 200, response: 'UserList', testKey: 'fake' },
  listTeams: { method: 'GET', path: '/teams', summary: 'Teams of the account', auth: true, kind: 'list', contentType: JSON_TYPE, status: 200, response: 'TeamList', testKey: 'fake' },
  listEmailTemplates: { method: 'GET', path: '/email-templates', summary: 'Email templates with the teams they are assigned to', auth: true, kind: 'list', contentType: JSON_TYPE, status: 200, response: 'EmailTemplateList', testKey: 'fake' },
  createInvitation: { method: 'POST', path: '/invitations', summary: 'Create an invitation', auth: true, body: 'CreateInvitationBody', kind: 'item', contentType: JSON_TYPE, status: 201, response: 'Invitation', testKey: 'fake' },
  listInvitations: { method: 'GET', path: '/invitations', summary: 'List invitations, newest first', auth: true, query: 'ListQuery', kind: 'list', contentType: JSON_TYPE, status: 200, response: 'InvitationList', testKey: 'fake' },
  getInvitation: { method: 'GET', path: '/invitations/:invitationId', summary: 'One invitation', auth: true, params: ID, kind: 'item', contentType: JSON_TYPE, status: 200, response: 'Invitation', testKey: 'fake' },
  updateInvitation: { method: 'PUT', path: '/invitations/:invitationId', summary: 'Update an invitation', auth: true, params: ID, body: 'UpdateInvitationBody', kind: 'item', contentType: JSON_TYPE, status: 200, response: 'Invitation', testKey: 'fake' },
  listTestTakers: { method: 'GET', path: '/test-takers', summary: 'List test takers, newest first', auth: true, query: 'ListQuery', kind: 'list', contentType: JSON_TYPE, status: 200, response: 'TestTakerList', testKey: 'fake' },
  getTestTaker: { method: 'GET', path: '/test-takers/:testTakerId', summary: 'One test taker', auth: true, params: TT, kind: 'item', contentType: JSON_TYPE, status: 200, response: 'TestTaker', testKey: 'fake' },
  getScorecard: { method: 'GET', path: '/test-takers/:testTakerId/scorecard', summary: 'Scorecard for a score profile (sp)', auth: true, params: TT, query: 'ScorecardQuery', kind: 'item', contentType: JSON_TYPE, status: 200, response: 'Scorecard', testKey: 'fake' },
  getJobFitReport: { method: 'GET', path: '/test-takers/:testTakerId/job-fit-report', summary: 'Job fit report', auth: true, params: TT, kind: 'item', contentType: JSON_TYPE, status: 200, response: 'JobFitReport', testKey: 'fake' },
  listCareerNavigationProfiles: { method: 'GET', path: '/career-navigation-profiles', summary: 'Career navigation profiles', auth: true, kind: 'list', contentType: JSON_TYPE, status: 200, response: 'CareerNavigationProfileList', testKey: 'fake' },
  getCareerNavigationProfile: {
    method: 'GET',
    path: '/career-navigation-profiles/:careerNavigationProfileId',
    summary: 'One career navigation profile (404 with a null body when not found)',
    auth: true,
    params: { careerNavigationProfileId: 'string' },
    kind: 'item',
    contentType: JSON_TYPE,
    status: 200,
    response: 'CareerNavigationProfile',
    nullWhenMissing: true,
    testKey: 'fake',
  },
  listAssessments: { method: 'GET', path: '/assessments', summary: 'Assessment catalog (real even with a test key)', auth: true, kind: 'list', contentType: JSON_TYPE, status: 200, response: 'AssessmentList', testKey: 'real' },
  listScoreProfiles: { method: 'GET', path: '/score-profiles', summary: 'System score profiles enabled for the account', auth: true, kind: 'list', contentType: JSON_TYPE, status: 200, response: 'ScoreProfileList', testKey: 'fake' },
} as const satisfies Record<string, RouteDef>;

export type RouteTable = typeof ROUTES;
export type RouteName = keyof RouteTable;

/** What a route answers: its response schema's type, or bytes for a route that does not answer JSON. */
export type AnswerOf<R extends RouteDef> = R extends { response: infer S extends SchemaName } ? z.infer<SchemaOf<S>> : Uint8Array;
export type RouteResponse<N extends RouteName> = AnswerOf<RouteTable[N]>;

/** The table's routes, by name, in its order. */
export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

/** The routes whose answer is a list envelope; every other route answers one item. */
export const LIST_ROUTES: ReadonlySet<RouteName> = new Set(ROUTE_NAMES.filter((n) => ROUTES[n].kind === 'list'));

/** The names of a path's :params, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
}

/** The path with its :params filled in (encoded); a missing one is a programming error. */
export function fillPath(path: string, params: Readonly<Record<string, string | number>> = {}): string {
  const parts = pathParts(path);
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const v = params[parts[i]];
    if (v === undefined || v === '') throw new Error(`missing path parameter ${parts[i]}`);
    out += encodeURIComponent(String(v)) + parts[i + 1];
  }
  return out;
}

/** A path split at its :params (text, name, text, …), once per path: a run of thousands of requests fills the same few. */
const PATH_PARTS = new Map<string, string[]>();
function pathParts(path: string): string[] {
  let parts = PATH_PARTS.get(path);
  if (parts === undefined) {
    parts = path.split(/:([A-Za-z]+)/);
    if (PATH_PARTS.size < 256) PATH_PARTS.set(path, parts);
  }
  return parts;
}

