/**
 * Everything a command may touch of the outside world arrives through one
 * Context: streams, TTY facts, environment, clock, config, client, prompter.
 * Tests build one with in-memory streams (test/helpers) and run commands
 * in-process; main() builds the real one.
 */
import type { Readable } from 'node:stream';
import type { JobfitClient } from '../client/client.js';
import type { ConfigStore } from '../config/store.js';

export interface OutStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface IOStreams {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** The clock, injectable for tests. */
  now(): Date;
  /** stdout is a terminal: tables, colour, progress allowed. */
  readonly stdoutIsTTY: boolean;
  /** stderr is a terminal: progress bars, spinners. */
  readonly stderrIsTTY: boolean;
  /** Colour on stdout / stderr: only on a TTY and never with NO_COLOR or --no-color. */
  readonly colorStdout: boolean;
  readonly colorStderr: boolean;
  /** A person can answer prompts: stdin and stderr are terminals and JOBFIT_NO_PROMPT is unset. */
  readonly canPrompt: boolean;
  /** Terminal width for tables (80 when unknown). */
  readonly columns: number;
  /** Ctrl-C arrives here; long-running commands subscribe and finish cleanly. */
  readonly signal: AbortSignal;
}

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'xlsx';

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

export interface Context {
  io: IOStreams;
  globals: GlobalOptions;
  /** Notices on stderr (suppressed by --quiet). */
  info(message: string): void;
  /** Warnings on stderr (always shown). */
  warn(message: string): void;
  /** Trace lines on stderr, only with --verbose. */
  debug(message: string): void;
  /** The config store (profiles), loaded on first use. */
  config(): Promise<ConfigStore>;
  /**
   * The typed API client for the resolved connection, created on first use.
   * With nothing configured it starts the embedded stub (and says so once).
   */
  client(): Promise<JobfitClient>;
  /** What client() connected to; undefined until it was called. */
  readonly connection?: ConnectionInfo;
  /** Closes kept-alive connections and the embedded stub. main() calls it in a finally. */
  close(): Promise<void>;
}

/** Where the client talks to, safe to print (the key is masked). */
export interface ConnectionInfo {
  baseUrl: string;
  mode?: 'live' | 'test';
  /** `sk_live_…a1b2`, or `(none)`. */
  maskedKey: string;
  /** `env`, `flag`, `profile:<name>` or `embedded-stub`. */
  source: string;
  profileName?: string;
  embedded: boolean;
  /** The embedded stub's account, e.g. `Northwind Talent (1)` (for the mode line). */
  account?: string;
}

/** Prompts, driven by @inquirer/prompts on a terminal; never called when !io.canPrompt. */
export interface Prompter {
  input(message: string, opts?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string, opts?: { validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
  select<T>(message: string, choices: Array<{ name: string; value: T; description?: string }>, opts?: { default?: T }): Promise<T>;
  checkbox<T>(message: string, choices: Array<{ name: string; value: T; checked?: boolean }>, opts?: { required?: boolean }): Promise<T[]>;
}
