/**
 * A tool's inputs, read from its command: every option and positional of the
 * command's zod schema (commands/kit) becomes an input with the same name,
 * the JSON schema of what the command line accepts and the flag's own
 * description. A call becomes the command line the person would type
 * (argvOf), which the command parses and checks as it always does: its
 * sentence, not the SDK's, answers bad input.
 */
import * as z from 'zod';
import type { ArgSpec, CommandDef } from '../commands/kit/define.js';
import { type FlagMeta, flagMetaOf } from '../commands/kit/flags.js';
import { COMMANDS } from '../commands/table.js';
import type { ToolSpec } from './catalog.js';

/** The command a tool stands for, loaded from the command table. */
export async function loadCommand(path: readonly string[]): Promise<CommandDef> {
  const noun = COMMANDS.find((c) => c.name === path[0]);
  if (noun && 'command' in noun) return (await noun.command()).default;
  for (const load of noun?.verbs ?? []) {
    const def = (await load()).default;
    if (def.name === path[1]) return def;
  }
  throw new Error(`jobfit mcp: no command "${path.join(' ')}"`);
}

/** One input of a tool and where it goes on the command line. */
export interface Slot {
  key: string;
  /** A positional argument, or a flag with its metadata. */
  arg?: ArgSpec;
  meta?: FlagMeta;
  input: z.ZodType;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const argKey = (a: ArgSpec) => a.key ?? camel(a.name);

type Json = Record<string, unknown>;

/**
 * What the SDK checks before a call: only the types of the JSON schema. A
 * number is taken for a string (an id typed as 500001), as the command line
 * would take it.
 */
function typesOf(j: Json): z.ZodType {
  if (j.type === 'array') return z.array(typesOf((j.items ?? {}) as Json));
  if (j.type === 'string') return z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string());
  if (j.type === 'boolean') return z.boolean();
  if (j.type === 'number' || j.type === 'integer') return z.number();
  return z.unknown();
}

/**
 * One option as an input: the JSON schema of what the command line accepts is
 * what the tool publishes (its limits, pattern, default and the flag's
 * description, as zod metadata); the SDK checks the types only, and the
 * command checks the rest, answering a bad value with its own sentence.
 * Required inputs are said so in words: a call with only a cursor needs none.
 */
function inputOf(schema: z.ZodType, description: string, required: boolean, choices?: readonly string[]): z.ZodType {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  delete json.$schema;
  // Choices commander checks (the flag's, not the schema's) are published too.
  if (choices && json.type === 'string' && !json.enum) json.enum = [...choices];
  const published = { ...json, description: required ? `Required. ${description}` : description };
  return typesOf(json).meta(published).optional();
}

/** The inputs of `spec`'s tool, in the order of the command's options. */
export function slotsOf(def: CommandDef, spec: ToolSpec): Slot[] {
  const args = def.args ?? [];
  const shape: Record<string, z.ZodType> = { ...(def.options?.shape as Record<string, z.ZodType> | undefined) };
  for (const a of args) shape[argKey(a)] ??= z.string();
  const slots: Slot[] = [];
  for (const [key, schema] of Object.entries(shape)) {
    if (spec.omit?.includes(key)) continue;
    const arg = args.find((a) => argKey(a) === key);
    const meta = arg ? undefined : flagMetaOf(schema);
    if (!arg && !meta) continue;
    if (meta?.hidden) continue;
    const required = spec.require?.includes(key) || !schema.safeParse(arg?.variadic ? [] : undefined).success;
    const description = arg ? `${arg.description}${arg.variadic ? ' (one or more)' : ''}` : meta!.description;
    slots.push({ key, arg, meta, input: inputOf(schema, description, required, meta?.choices) });
  }
  return slots;
}

/** `--custom-id <text>` → `--custom-id`; whether it takes a value. */
function longFlag(meta: FlagMeta): { name: string; value: boolean } {
  const name = meta.flag.split(/[ ,]+/).find((t) => t.startsWith('--')) ?? meta.flag;
  return { name, value: /[<[]/.test(meta.flag) };
}

function flagArgv(meta: FlagMeta, value: unknown): string[] {
  const { name, value: takesValue } = longFlag(meta);
  if (!takesValue) {
    if (value === true) return [name];
    return value === false && meta.negate ? [`--no-${name.slice(2)}`] : [];
  }
  // `--flag=value`: a value that begins with a dash stays a value.
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => `${name}=${String(v)}`);
}

/** The command line of a call: the command, its flags, the global options, then `--` and the positionals. */
export function argvOf(command: readonly string[], slots: readonly Slot[], input: Record<string, unknown>, globals: readonly string[] = []): string[] {
  const flags: string[] = [];
  const positionals: string[] = [];
  for (const slot of slots) {
    const value = input[slot.key];
    if (value === undefined || value === null) continue;
    if (slot.arg) positionals.push(...(Array.isArray(value) ? value : [value]).map(String));
    else flags.push(...flagArgv(slot.meta!, value));
  }
  return [...command, ...flags, ...globals, ...(positionals.length ? ['--', ...positionals] : [])];
}
