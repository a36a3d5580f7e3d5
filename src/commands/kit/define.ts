/**
 * The command kit: one declaration per command. `defineCommand` takes the
 * options (a zod object whose keys carry flag metadata, see flags.ts), the
 * positional arguments, the summary, the examples and `run(opts, ctx)`; from
 * it the kit produces the commander wiring, the parsing (zod at the door) and
 * the help. A `NounDef` declares a top-level command for the lazy table
 * (commands/table.ts): its name, summary, and where its code is loaded from.
 *
 * Nothing here loads zod: a command without options never pays for it.
 */
import type * as z from 'zod';
import type { Context } from './context.js';

/** A positional argument; its value arrives in the options under `key` (default: the name, camelCased). */
export interface ArgSpec {
  name: string;
  description: string;
  key?: string;
  /** `[name]` rather than `<name>`. */
  optional?: boolean;
  /** `<name...>`: the rest of the arguments, as a string array. */
  variadic?: boolean;
}

export type OptionsSchema = z.ZodObject;

export interface CommandSpec<S extends OptionsSchema | undefined> {
  /** The verb (`list`); a noun's only command takes the noun's name and summary. */
  name?: string;
  aliases?: readonly string[];
  /** One line, in the parent's list of commands. */
  summary?: string;
  /** The head of this command's own --help (default: the summary). */
  description?: string;
  args?: readonly ArgSpec[];
  /**
   * Options and positionals, parsed by the kit before `run`. Absent: no options,
   * zod is never loaded, and the positionals arrive as typed (strings).
   */
  options?: S;
  /** Shown under "Examples:" in --help. */
  examples?: readonly string[];
  /** More help, shown before the examples (a table of keys, a note). */
  helpAfter?: string;
  /** Help shown after the examples (the columns of an export, its exit codes). */
  footer?: string;
  run(opts: Parsed<S>, ctx: Context): Promise<void>;
}

export type Parsed<S> = S extends OptionsSchema ? z.output<S> : Record<string, string>;

export type CommandDef<S extends OptionsSchema | undefined = OptionsSchema | undefined> = CommandSpec<S>;

/** Types `run`'s options from the schema; the declaration is the command. */
export function defineCommand<S extends OptionsSchema | undefined = undefined>(spec: CommandSpec<S>): CommandDef<S> {
  return spec;
}

export type Loader = () => Promise<{ default: CommandDef }>;

interface NounBase {
  name: string;
  /** Other names the command answers to. */
  aliases?: readonly string[];
  /** The line in `jobfit --help`. */
  summary: string;
}

/** A top-level command that is itself the command (`jobfit teams`). */
export interface SingleNoun extends NounBase {
  command: Loader;
}

/** A top-level command with verbs (`jobfit invitations list`). */
export interface VerbNoun extends NounBase {
  /** The head of `jobfit <noun> --help` (default: the summary). */
  description?: string;
  examples?: readonly string[];
  /** More help before the examples; a loader when the text is built from code the table should not load. */
  helpAfter?: string | (() => Promise<string>);
  /** In the order --help lists them. */
  verbs: readonly Loader[];
}

export type NounDef = SingleNoun | VerbNoun;

