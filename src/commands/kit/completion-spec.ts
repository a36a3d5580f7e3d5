/**
 * What a completion script is written from: the commander tree of every
 * command (ctx.everyCommand()) read into plain data (format/completion.ts
 * writes the scripts from it).
 */
import { Command, type Option } from 'commander';
import { ROUTE_NAMES, ROUTES } from '../../api/routes.js';
import { type CompletionCommand, type CompletionSpec, FLAG_VALUE_KINDS, type FlagSpec, SHELLS } from '../../format/completion.js';
import { HELP_TOPIC_NAMES } from '../help-topics.js';
import { globalOptions } from './globals.js';

function valuesOf(o: Option): FlagSpec['values'] {
  const placeholder = /<([^>]+)>|\[([^\]]+)\]/.exec(o.flags);
  const p = (placeholder?.[1] ?? placeholder?.[2] ?? '').toLowerCase();
  if (/\bfile\b/.test(p)) return 'file';
  if (/\bdir\b/.test(p)) return 'dir';
  return o.long ? FLAG_VALUE_KINDS[o.long] : undefined;
}


function flagOf(o: Option): FlagSpec {
  const names = [o.short, o.long].filter((n): n is string => Boolean(n));
  return {
    names,
    takesValue: Boolean(o.required || o.optional),
    choices: o.argChoices ? [...o.argChoices] : undefined,
    description: (o.description ?? '').split('\n')[0],
    values: o.required || o.optional ? valuesOf(o) : undefined,
  };
}

export function commandSpecOf(cmd: Command, argChoices: Record<string, string[]> = {}): CompletionCommand {
  return {
    name: cmd.name(),
    description: (cmd.summary() || cmd.description() || '').split('\n')[0],
    flags: cmd.options.filter((o) => !o.hidden).map(flagOf),
    subcommands: cmd.commands.filter((c) => c.name() !== 'help').map((c) => commandSpecOf(c, argChoices)),
    argChoices: argChoices[cmd.name()],
  };
}


/**
 * Every command of the table, wired on a program that never runs
 * (ctx.everyCommand()), so the script lists the flags each really declares.
 */
export function buildSpec(scratch: Command): CompletionSpec {
  // `jobfit api <TAB>` offers the methods of the route table.
  const api = [...new Set(ROUTE_NAMES.map((n) => ROUTES[n].method))];
  const argChoices = { completion: [...SHELLS], help: [...HELP_TOPIC_NAMES, ...scratch.commands.map((c) => c.name())], api };
  const commands = scratch.commands.map((c) => commandSpecOf(c, argChoices));
  commands.push({ name: 'help', description: 'Help on a command or a topic', flags: [], subcommands: [], argChoices: argChoices.help });
  // The root's options: commander's own --version, then the global ones.
  const root = new Command('jobfit').version('', '-V, --version');
  for (const o of globalOptions()) root.addOption(o);
  return { globals: root.options.filter((o) => !o.hidden).map((o) => commandSpecOf(new Command().addOption(o)).flags[0]), commands };
}
