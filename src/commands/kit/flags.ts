/**
 * Flag metadata for a command's zod options: each option key's schema carries
 * how it is written on the command line. `flag()` attaches it without zod at
 * run time (a WeakMap keyed by the schema), so that the kit, and with it every
 * command's wiring, stays free of zod until a command's own schema needs it.
 */

export interface FlagMeta {
  /** commander's flag text: `--team <id|name>`, `-d, --data <json>`, `--all`, `--ids <ids...>`. */
  flag: string;
  /** One line for --help. */
  description: string;
  /** Also accept `--no-<name>`, described by this line (a boolean that can be turned off). */
  negate?: string;
  /** Allowed values, listed in --help and checked by commander. */
  choices?: readonly string[];
  /** Default shown in --help and used when the flag is absent. */
  default?: string | boolean | string[];
  /** Repeatable or custom-parsed values: commander's argParser. */
  parse?: (value: string, previous: unknown) => unknown;
  /** Flags that cannot be given with this one (their attribute names, e.g. `dryRun`). */
  conflicts?: readonly string[];
  /** Left out of --help (still accepted). */
  hidden?: boolean;
  /** Must be given (commander says so, exit 2, before the schema runs). */
  required?: boolean;
}

const META = new WeakMap<object, FlagMeta>();

/** Declares how the option `schema` is written on the command line; returns the schema itself. */
export function flag<S extends object>(schema: S, meta: FlagMeta): S {
  META.set(schema, meta);
  return schema;
}

export function flagMetaOf(schema: object): FlagMeta | undefined {
  return META.get(schema);
}

/** Repeatable option: `--query a=1 --query b=2` → ['a=1', 'b=2']. */
export function collect(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? (previous as string[]) : []), value];
}
