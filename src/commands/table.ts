/**
 * Every top-level command, in the order `jobfit --help` lists them. Only the
 * declarations (name, summary, where the code is) load here, so that
 * `jobfit --help` loads nothing else; a command's code is imported when that
 * command runs (or its own --help is asked for).
 */
import type { NounDef } from './kit/define.js';
import { keysHelp } from '../config/keys.js';

export const COMMANDS: readonly NounDef[] = [
  { name: 'login', summary: 'Connect a profile to the service: base URL and live/test keys, verified', command: () => import('./login/login.js') },
  { name: 'logout', summary: 'Forget a profile and its keys', command: () => import('./logout/logout.js') },
  {
    name: 'config',
    summary: 'Show and change settings: config list|get|set|unset|path',
    description: 'Show and change settings (per profile: --profile NAME, else the current one)',
    helpAfter: async () => keysHelp(),
    examples: ['jobfit config list', 'jobfit config set base_url https://api.example.com/v2 --profile work', 'jobfit config get base_url --profile work'],
    verbs: [() => import('./config/list.js'), () => import('./config/get.js'), () => import('./config/set.js'), () => import('./config/unset.js'), () => import('./config/path.js')],
  },
  { name: 'whoami', summary: 'Which account, mode, base URL and key (masked) commands use', command: () => import('./whoami/show.js') },
  { name: 'health', summary: 'Check that the service answers (no key needed)', command: () => import('./health/check.js') },
  { name: 'accounts', summary: 'Show the account linked to the key', command: () => import('./accounts/show.js') },
  { name: 'users', summary: 'List users and their invitation defaults', command: () => import('./users/list.js') },
  { name: 'teams', summary: 'List teams', command: () => import('./teams/list.js') },
  { name: 'templates', summary: 'List email templates', command: () => import('./templates/list.js') },
  { name: 'assessments', summary: 'List the assessment catalog (test ids)', command: () => import('./assessments/list.js') },
  { name: 'score-profiles', summary: 'List score profiles (the --sp of scorecard)', command: () => import('./score-profiles/list.js') },
  { name: 'invite', summary: 'Invite one participant (flags or prompts) or many from a CSV (--csv)', command: () => import('./invite/invite.js') },
  {
    name: 'invitations',
    summary: 'List, show and update invitations',
    examples: ['jobfit invitations list --email @example.com', 'jobfit invitations get 100042', 'jobfit invitations update 100042 --custom-id REQ-7'],
    verbs: [() => import('./invitations/list.js'), () => import('./invitations/get.js'), () => import('./invitations/update.js')],
  },
  {
    name: 'test-takers',
    summary: 'List and show test takers',
    description: 'List and show test takers (participants who accepted an invitation)',
    examples: ['jobfit test-takers list --team 12', 'jobfit test-takers get 500001'],
    verbs: [() => import('./test-takers/list.js'), () => import('./test-takers/get.js')],
  },
  {
    name: 'profiles',
    summary: 'List and show career navigation profiles',
    description: 'List and show career navigation profiles (created when Career Interests is completed)',
    examples: ['jobfit profiles list', 'jobfit profiles get "$(jobfit profiles list -o json | jq -r \'.data[0].id\')"'],
    verbs: [() => import('./profiles/list.js'), () => import('./profiles/get.js')],
  },
  { name: 'scorecard', aliases: ['scorecards'], summary: 'Scorecards for a score profile: many ids, --ids-from or --all (wide CSV)', command: () => import('./scorecard/export.js') },
  { name: 'job-fit', aliases: ['jobfit'], summary: 'Job-fit reports: rendered, or JSON / long-form CSV for many ids or --all', command: () => import('./job-fit/export.js') },
  { name: 'report', summary: 'Group report from a complete export: counts, star distribution, fit, RIASEC', command: () => import('./report/build.js') },
  { name: 'sync', summary: 'Keep a database of every result up to date, incrementally: sync --db results.sqlite', command: () => import('./sync/sync.js') },
  { name: 'mcp', summary: 'Serve jobfit to AI assistants over MCP (stdio): read-only by default, guarded writes', command: () => import('./mcp/serve.js') },
  { name: 'api', summary: 'Send a raw request: api METHOD PATH [--data JSON]', command: () => import('./api/request.js') },
  { name: 'completion', summary: 'Print a shell completion script: completion bash|zsh|fish|powershell', command: () => import('./completion/script.js') },
  {
    name: 'webhook',
    summary: 'Receive webhook events locally: webhook listen [--forward-to URL] [--log FILE]',
    description: 'Receive webhook events locally',
    examples: ['jobfit webhook listen', 'jobfit webhook listen --forward-to http://localhost:3000/webhooks'],
    verbs: [() => import('./webhook/listen.js'), () => import('./webhook/verify.js')],
  },
  {
    name: 'stub',
    summary: 'Run and drive the embedded local stub of the service',
    description: 'Run and drive the embedded local stub of the service (every command takes --data DIR)',
    examples: ['jobfit stub serve --port 4010', 'jobfit stub keys -o json', 'jobfit stub accept 100001', '# prints the new test taker\'s id: 500144 on a fresh stub', 'jobfit stub complete 500144 --assessment all'],
    // The stub's keys are its own fake keys, printed whole on purpose.
    verbs: [
      () => import('./stub/serve.js'),
      () => import('./stub/keys.js'),
      () => import('./stub/reset.js'),
      () => import('./stub/seed.js'),
      () => import('./stub/accept.js'),
      () => import('./stub/complete.js'),
      () => import('./stub/outbox.js'),
      () => import('./stub/webhooks.js'),
      () => import('./stub/events.js'),
      () => import('./stub/trigger.js'),
    ],
  },
];
