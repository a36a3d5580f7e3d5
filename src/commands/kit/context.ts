/**
 * Everything a command may touch of the outside world arrives through one
 * Context: a Session (streams, TTY facts, environment, clock, notices) plus
 * the config store, the client and the prompter. Tests build one with
 * in-memory streams (test/helpers) and run commands in-process; main() builds
 * the real one (cli/create-context.ts).
 */
import type { JobfitClient } from '../../client/client.js';
import type { ConfigStore } from '../../config/store.js';
import type { Prompter, Session } from '../../core/session.js';
import type { Command } from 'commander';

export interface Context extends Session {
  /** A program with every command of the table wired (for reading, never run): what `completion` describes. */
  everyCommand(): Promise<Command>;
  /** The config store (profiles), loaded on first use. */
  config(): Promise<ConfigStore>;
  /**
   * The typed API client for the resolved connection, created on first use.
   * With nothing configured it starts the embedded stub (and says so once).
   * The first call shows a person the mode line (which mode, server and key),
   * unless `announce: false` (shell completion, background syncs).
   */
  client(opts?: { announce?: boolean }): Promise<JobfitClient>;
  /** The prompter: the real one on a terminal, a scripted one in tests. */
  prompter(): Promise<Prompter>;
  /**
   * The profile client() will use (flags, environment, config), resolved
   * without connecting: no embedded stub started, no key read. Undefined when
   * none; throws what client() would throw for a config it refuses.
   */
  profileName(): Promise<string | undefined>;
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
  /** A profile's key was read from the OS keyring (not the config file). */
  keyInKeyring?: boolean;
}

