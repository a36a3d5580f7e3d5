/**
 * Which commands `jobfit mcp` serves as tools, and nothing else: the command
 * a tool stands for, the toolset it belongs to, the options it leaves out
 * (file plumbing, terminals, tuning) and the API schema of what it answers.
 * Everything else (the inputs, their checks and descriptions, the --fields
 * names, the answer itself) is read from the command and from src/api/ when
 * the server starts (derive.ts): a new option or field reaches the tool
 * without an edit here.
 */
import type * as z from 'zod';

/** The groups `--toolsets` picks; `writes` needs --allow-writes. */
export const TOOLSETS = {
  context: 'who am I: account, mode, base URL, key (masked)',
  invitations: 'list and get invitations',
  test_takers: 'list and get test takers',
  profiles: 'list and get career navigation profiles',
  results: 'scorecards, job-fit reports and the group report',
  catalog: 'account, teams, users, templates, assessments, score profiles',
  service: 'health of the service (not served by default)',
  writes: 'invite one, invite from a CSV/xlsx file, update an invitation (only with --allow-writes)',
} as const;
export type Toolset = keyof typeof TOOLSETS;

/** Served when neither --toolsets nor --tools is given. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['context', 'invitations', 'test_takers', 'profiles', 'results', 'catalog'];

/**
 * What a tool's command prints with -o json: a list envelope, one object,
 * objects for several ids (an array, or one object for one id), or a shape
 * of our own (no API schema).
 */
export type Answer = 'list' | 'object' | 'many' | 'own';

/** How a write is shown to the person before it is sent (guard.ts). */
export type WriteKind = 'invite' | 'invite_csv' | 'update';

export interface ToolSpec {
  name: string;
  title: string;
  toolset: Toolset;
  /** The command as typed: noun, then verb. */
  command: readonly string[];
  /** One tool over several commands without options of their own: `what` picks the command. */
  choices?: Readonly<Record<string, readonly string[]>>;
  /** Options of the command the tool leaves out. */
  omit?: readonly string[];
  /** Options the command takes as optional that the tool needs. */
  require?: readonly string[];
  answer: Answer;
  /** The API schema of the answer (of one item for lists and many), for outputSchema and `fields`. */
  schema?: () => Promise<z.ZodType>;
  write?: WriteKind;
  /** Said after the command's own description. */
  note?: string;
}

const api = () => import('../api/schemas.js');

/** Export tuning and sources an agent has no use for: ids come as arguments, failures in the answer. */
const EXPORT_OMIT = ['idsFrom', 'concurrency', 'errors'];
const BULK_ONLY = ['sheet', 'headerRow', 'nameOrder', 'out', 'dryRun', 'resume', 'retryFailed', 'errors', 'skipInvalid', 'concurrency', 'map'];
const ONE_PERSON = ['firstName', 'lastName', 'email', 'phone', 'customId', 'personId', 'refText'];

export const TOOL_SPECS: readonly ToolSpec[] = [
  { name: 'whoami', title: 'Who am I', toolset: 'context', command: ['whoami'], answer: 'own' },
  { name: 'invitations_list', title: 'List invitations', toolset: 'invitations', command: ['invitations', 'list'], answer: 'list', schema: async () => (await api()).InvitationListItem },
  { name: 'invitations_get', title: 'Get an invitation', toolset: 'invitations', command: ['invitations', 'get'], answer: 'object', schema: async () => (await api()).Invitation },
  { name: 'test_takers_list', title: 'List test takers', toolset: 'test_takers', command: ['test-takers', 'list'], answer: 'list', schema: async () => (await api()).TestTakerListItem },
  { name: 'test_takers_get', title: 'Get a test taker', toolset: 'test_takers', command: ['test-takers', 'get'], answer: 'object', schema: async () => (await api()).TestTaker },
  {
    name: 'profiles_list',
    title: 'List career navigation profiles',
    toolset: 'profiles',
    command: ['profiles', 'list'],
    answer: 'list',
    schema: async () => (await api()).CareerNavigationProfileListItem,
  },
  { name: 'profiles_get', title: 'Get a career navigation profile', toolset: 'profiles', command: ['profiles', 'get'], answer: 'object', schema: async () => (await api()).CareerNavigationProfile },
  { name: 'scorecards', title: 'Scorecards', toolset: 'results', command: ['scorecard'], omit: EXPORT_OMIT, answer: 'many', schema: async () => (await api()).Scorecard },
  { name: 'job_fit', title: 'Job-fit reports', toolset: 'results', command: ['job-fit'], omit: EXPORT_OMIT, answer: 'many', schema: async () => (await api()).JobFitReport },
  { name: 'group_report', title: 'Group report', toolset: 'results', command: ['report'], omit: ['concurrency', 'errors', 'top'], answer: 'own' },
  {
    name: 'catalog',
    title: 'Account and catalog',
    toolset: 'catalog',
    command: ['teams'],
    choices: { account: ['accounts'], teams: ['teams'], users: ['users'], templates: ['templates'], assessments: ['assessments'], score_profiles: ['score-profiles'] },
    answer: 'own',
    note: 'One of: the account, its teams, users (with their invitation defaults), email templates, the assessment catalog, or the score profiles (the `sp` of scorecards and group_report).',
  },
  { name: 'health', title: 'Service health', toolset: 'service', command: ['health'], answer: 'object', schema: async () => (await api()).Healthcheck },
  {
    name: 'invite',
    title: 'Invite one participant',
    toolset: 'writes',
    command: ['invite'],
    omit: ['csv', 'file', 'yes', 'phoneCountry', ...BULK_ONLY],
    require: ['firstName', 'lastName', 'email'],
    answer: 'object',
    schema: async () => (await api()).Invitation,
    write: 'invite',
  },
  {
    name: 'invite_csv',
    title: 'Invite everyone in a CSV or xlsx file',
    toolset: 'writes',
    command: ['invite'],
    omit: ['csv', 'yes', 'concurrency', 'errors', ...ONE_PERSON],
    require: ['file'],
    answer: 'own',
    write: 'invite_csv',
    note: 'Give dryRun: true first to validate every row and see the counts; nothing is sent then.',
  },
  {
    name: 'invitations_update',
    title: 'Update an invitation',
    toolset: 'writes',
    command: ['invitations', 'update'],
    answer: 'object',
    schema: async () => (await api()).Invitation,
    write: 'update',
  },
];
