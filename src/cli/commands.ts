/**
 * The command table. Only names and one-line summaries live here, so that
 * `jobfit --help` loads nothing else; a command's module is imported when that
 * command runs (or its own --help is asked for).
 */
import type { Command } from 'commander';
import type { Context } from './context.js';

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
  summary: string;
  group: 'Setup' | 'Read' | 'Write' | 'Results' | 'Webhooks' | 'Local stub' | 'Other';
  load(): Promise<CommandModule>;
}

export const COMMANDS: CommandEntry[] = [
  { name: 'stub', summary: 'Run and drive the embedded local stub of the service', group: 'Local stub', load: () => import('../commands/stub/index.js') },
];
