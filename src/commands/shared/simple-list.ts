/**
 * The read commands that take no options of their own (teams, users, ...):
 * call one client method, hand the list to the output helper.
 */
import type { Command } from 'commander';
import type { JobfitClient } from '../../client/client.js';
import type { CommandDeps } from '../../cli/commands.js';
import type { Context } from '../kit/context.js';
import { type ColumnSpec, type ListEnvelope, printList } from '../../format/output.js';
import { examples } from './help.js';

export interface SimpleListSpec {
  name: string;
  description: string;
  noun: string;
  columns: ColumnSpec[];
  fetch(client: JobfitClient): Promise<unknown>;
  examples: string[];
}

export interface SimpleListCommand {
  run(opts: Record<string, never>, ctx: Context): Promise<void>;
  register(program: Command, deps: CommandDeps): void;
}

export function simpleList(spec: SimpleListSpec): SimpleListCommand {
  async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
    const client = await ctx.client();
    const list = (await spec.fetch(client)) as ListEnvelope;
    // These routes have no filters, so there is nothing to narrow a cut list by.
    await printList(ctx, list, { columns: spec.columns, noun: spec.noun, narrowFlags: [] });
  }
  function register(program: Command, deps: CommandDeps): void {
    // No top-level aliases: main.ts finds a command's module by its name alone.
    program
      .command(spec.name)
      .description(spec.description)
      .addHelpText('after', examples(...spec.examples))
      .action(async (_o: unknown, c: Command) => {
        await run({}, deps.context(c));
      });
  }
  return { run, register };
}
