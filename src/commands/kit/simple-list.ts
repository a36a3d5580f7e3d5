/**
 * The read commands that take no options of their own (teams, users, ...):
 * call one client method, hand the list to the output helper.
 */
import type { JobfitClient } from '../../client/client.js';
import { type ColumnSpec, type ListEnvelope, printList } from '../../format/output.js';
import { type CommandDef, defineCommand } from './define.js';

export interface SimpleListSpec {
  description: string;
  noun: string;
  columns: ColumnSpec[];
  fetch(client: JobfitClient): Promise<unknown>;
  examples: string[];
}

export function simpleList(spec: SimpleListSpec): CommandDef<undefined> {
  return defineCommand({
    description: spec.description,
    examples: spec.examples,
    async run(_opts, ctx) {
      const client = await ctx.client();
      const list = (await spec.fetch(client)) as ListEnvelope;
      // These routes have no filters, so there is nothing to narrow a cut list by.
      await printList(ctx, list, { columns: spec.columns, noun: spec.noun, narrowFlags: [] });
    },
  });
}
