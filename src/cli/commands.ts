/**
 * The command table. Only names and one-line summaries live here, so that
 * `jobfit --help` loads nothing else; a command's module is imported when that
 * command runs (or its own --help is asked for).
 */
import type { Command } from 'commander';
import type { Context } from '../commands/kit/context.js';

export interface CommandDeps {
  /** Builds the Context for the command being run, from its global options. */
  context(cmd: Command): Context;
}

export interface CommandModule {
  /** Adds the full command (options, help, action) to `program`. */
  register(program: Command, deps: CommandDeps): void;
}

export interface CommandEntry {
  name: string;
  /** Other names the command answers to (the module declares them too, with commander's .alias()). */
  aliases?: string[];
  summary: string;
  group: 'Setup' | 'Read' | 'Write' | 'Results' | 'Webhooks' | 'Local stub' | 'Other';
  load(): Promise<CommandModule>;
}

export const COMMANDS: CommandEntry[] = [
  { name: 'login', summary: 'Connect a profile to the service: base URL and live/test keys, verified', group: 'Setup', load: () => import('../commands/login/index.js') },
  { name: 'logout', summary: 'Forget a profile and its keys', group: 'Setup', load: () => import('../commands/logout/index.js') },
  { name: 'config', summary: 'Show and change settings: config list|get|set|unset|path', group: 'Setup', load: () => import('../commands/config/index.js') },
  { name: 'whoami', summary: 'Which account, mode, base URL and key (masked) commands use', group: 'Setup', load: () => import('../commands/whoami/index.js') },
  { name: 'health', summary: 'Check that the service answers (no key needed)', group: 'Setup', load: () => import('../commands/health/index.js') },
  { name: 'accounts', summary: 'Show the account linked to the key', group: 'Read', load: () => import('../commands/accounts/index.js') },
  { name: 'users', summary: 'List users and their invitation defaults', group: 'Read', load: () => import('../commands/users/index.js') },
  { name: 'teams', summary: 'List teams', group: 'Read', load: () => import('../commands/teams/index.js') },
  { name: 'templates', summary: 'List email templates', group: 'Read', load: () => import('../commands/templates/index.js') },
  { name: 'assessments', summary: 'List the assessment catalog (test ids)', group: 'Read', load: () => import('../commands/assessments/index.js') },
  { name: 'score-profiles', summary: 'List score profiles (the --sp of scorecard)', group: 'Read', load: () => import('../commands/score-profiles/index.js') },
  { name: 'invite', summary: 'Invite one participant (flags or prompts) or many from a CSV (--csv)', group: 'Write', load: () => import('../commands/invite/index.js') },
  { name: 'invitations', summary: 'List, show and update invitations', group: 'Read', load: () => import('../commands/invitations/index.js') },
  { name: 'test-takers', summary: 'List and show test takers', group: 'Read', load: () => import('../commands/test-takers/index.js') },
  { name: 'profiles', summary: 'List and show career navigation profiles', group: 'Read', load: () => import('../commands/profiles/index.js') },
  { name: 'scorecard', aliases: ['scorecards'], summary: 'Scorecards for a score profile: many ids, --ids-from or --all (wide CSV)', group: 'Results', load: () => import('../commands/scorecard/index.js') },
  { name: 'job-fit', aliases: ['jobfit'], summary: 'Job-fit reports: rendered, or JSON / long-form CSV for many ids or --all', group: 'Results', load: () => import('../commands/job-fit/index.js') },
  { name: 'report', summary: 'Group report from a complete export: counts, star distribution, fit, RIASEC', group: 'Results', load: () => import('../commands/report/index.js') },
  { name: 'sync', summary: 'Keep a database of every result up to date, incrementally: sync --db results.sqlite', group: 'Results', load: () => import('../commands/sync/index.js') },
  { name: 'api', summary: 'Send a raw request: api METHOD PATH [--data JSON]', group: 'Other', load: () => import('../commands/api/index.js') },
  { name: 'completion', summary: 'Print a shell completion script: completion bash|zsh|fish', group: 'Other', load: () => import('../commands/completion/index.js') },
  { name: 'webhook', summary: 'Receive webhook events locally: webhook listen [--forward-to URL] [--log FILE]', group: 'Webhooks', load: () => import('../commands/webhook/index.js') },
  { name: 'stub', summary: 'Run and drive the embedded local stub of the service', group: 'Local stub', load: () => import('../commands/stub/index.js') },
];
