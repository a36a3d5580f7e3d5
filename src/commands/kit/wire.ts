/**
 * From declarations to commander: a noun's verbs are loaded, each becomes a
 * commander command with its arguments, flags, help and an action that parses
 * the options with the command's schema and calls `run(opts, ctx)`.
 */
import { type Command, Option } from 'commander';
import type { Context } from './context.js';
import type { ArgSpec, CommandDef, NounDef } from './define.js';
import { flagMetaOf } from './flags.js';
import { examples } from './help.js';
import { parseOptions } from './parse.js';

export interface WireDeps {
  /** Builds the Context for the command being run, from its global options. */
  context(cmd: Command): Context;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const keyOf = (a: ArgSpec) => a.key ?? camel(a.name);

function argText(a: ArgSpec): string {
  const inner = `${a.name}${a.variadic ? '...' : ''}`;
  return a.optional ? `[${inner}]` : `<${inner}>`;
}

/** Adds `def` under `parent` as `name`, with everything its declaration says. */
export function wireCommand(parent: Command, def: CommandDef, deps: WireDeps, head: { name: string; summary: string; aliases?: readonly string[] }): Command {
  const cmd = parent.command(head.name);
  if (head.aliases?.length) cmd.aliases([...head.aliases]);
  cmd.summary(head.summary).description(def.description ?? head.summary);
  const args = def.args ?? [];
  for (const a of args) cmd.argument(argText(a), a.description);
  const argKeys = args.map(keyOf);
  for (const [key, schema] of Object.entries(def.options?.shape ?? {})) {
    if (argKeys.includes(key)) continue;
    const meta = flagMetaOf(schema);
    if (!meta) throw new Error(`jobfit ${head.name}: option "${key}" has no flag() declaration`);
    const option = new Option(meta.flag, meta.description);
    if (option.attributeName() !== key) throw new Error(`jobfit ${head.name}: flag ${meta.flag} fills "${option.attributeName()}", not "${key}"`);
    if (meta.choices) option.choices([...meta.choices]);
    if (meta.default !== undefined) option.default(meta.default);
    if (meta.parse) option.argParser(meta.parse);
    if (meta.conflicts) option.conflicts([...meta.conflicts]);
    if (meta.hidden) option.hideHelp();
    if (meta.required) option.makeOptionMandatory();
    cmd.addOption(option);
    if (meta.negate) cmd.addOption(new Option(`--no-${option.name()}`, meta.negate));
  }
  let after = def.examples?.length ? examples(...def.examples) : '';
  if (def.helpAfter) after = `${def.helpAfter}${after}`;
  if (def.footer) after += def.footer;
  if (after) cmd.addHelpText('after', after);
  cmd.action(async (...given: unknown[]) => {
    const c = given[given.length - 1] as Command;
    const raw: Record<string, unknown> = { ...c.opts() };
    args.forEach((a, i) => {
      if (given[i] !== undefined) raw[keyOf(a)] = given[i];
    });
    const opts = def.options ? parseOptions(def.options, raw, argKeys) : raw;
    await def.run(opts, deps.context(c));
  });
  return cmd;
}

/** Wires one entry of the table, a whole noun (loading its code), under `program`. */
export async function wireEntry(program: Command, noun: NounDef, deps: WireDeps): Promise<void> {
  if ('command' in noun) {
    const def = (await noun.command()).default;
    wireCommand(program, def, deps, noun);
    return;
  }
  const verbs = await Promise.all(noun.verbs.map(async (load) => (await load()).default));
  const group = program.command(noun.name);
  if (noun.aliases?.length) group.aliases([...noun.aliases]);
  group.summary(noun.summary).description(noun.description ?? noun.summary);
  let after = noun.examples?.length ? examples(...noun.examples) : '';
  const helpAfter = typeof noun.helpAfter === 'function' ? await noun.helpAfter() : noun.helpAfter;
  if (helpAfter) after = `${helpAfter}${after}`;
  if (after) group.addHelpText('after', after);
  for (const def of verbs) {
    if (!def.name || !def.summary) throw new Error(`jobfit ${noun.name}: a verb needs a name and a summary`);
    wireCommand(group, def, deps, { name: def.name, summary: def.summary, aliases: def.aliases });
  }
}
