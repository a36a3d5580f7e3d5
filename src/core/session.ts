/**
 * What the libraries below the commands may use of a run: its I/O, the global
 * options, notices on stderr, and prompts. A command's Context
 * (commands/kit/context.ts) is a Session with a config store and a client.
 */
import type { IOStreams } from './io.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'xlsx' | 'html';

/** The global options, after parsing. */
export interface GlobalOptions {
  profile?: string;
  mode?: 'live' | 'test';
  baseUrl?: string;
  output?: OutputFormat;
  fields?: string[];
  color: boolean;
  quiet: boolean;
  verbose: boolean;
}

/** The part of a run every library may use: I/O, global options and notices. */
export interface Session {
  io: IOStreams;
  globals: GlobalOptions;
  /** Notices on stderr (suppressed by --quiet). */
  info(message: string): void;
  /** Warnings on stderr (always shown). */
  warn(message: string): void;
  /** Trace lines on stderr, only with --verbose. */
  debug(message: string): void;
}

/** A hint for the no-terminal case: which flag (or env var) supplies the answer. */
export interface FlagHint {
  flag?: string;
}

/**
 * Prompts, driven by @inquirer/prompts on a terminal (core/prompter.ts). Without
 * one, a method throws a usage error that names the `flag` giving the answer.
 */
export interface Prompter {
  input(message: string, opts?: { default?: string; validate?: (value: string) => true | string } & FlagHint): Promise<string>;
  password(message: string, opts?: { validate?: (value: string) => true | string } & FlagHint): Promise<string>;
  confirm(message: string, opts?: { default?: boolean } & FlagHint): Promise<boolean>;
  select<T>(message: string, choices: Array<{ name: string; value: T; description?: string }>, opts?: { default?: T } & FlagHint): Promise<T>;
  checkbox<T>(message: string, choices: Array<{ name: string; value: T; checked?: boolean }>, opts?: { required?: boolean } & FlagHint): Promise<T[]>;
}
