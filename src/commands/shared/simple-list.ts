/**
 * The read commands of one route without filters (teams, users, ...): call
 * one client method, hand the list to the output helper (or `--out FILE`).
 * `--fields` takes the names of the route's list item (`item`); it, `-o` and
 * `--out` are checked before the request.
 */
import * as z from 'zod';
import { fieldNames } from '../../api/field-names.js';
import type { JobfitClient } from '../../client/client.js';
import type { ColumnSpec } from '../../format/output.js';
import { type CommandDef, defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { outFlag, printPage } from './list-out.js';

export interface SimpleListSpec {
  description: string;
  noun: string;
  columns: ColumnSpec[];
  /** The schema of one item of the list: what --fields may name. */
  item: z.ZodType;
  fetch(client: JobfitClient): Promise<unknown>;
  examples: string[];
}

const SimpleListOptions = z.object({ out: outFlag('the list') });

export function simpleList(spec: SimpleListSpec): CommandDef<typeof SimpleListOptions> {
  return defineCommand({
    description: spec.description,
    options: SimpleListOptions,
    examples: spec.examples,
    async run(opts, ctx) {
      const fields = { columns: spec.columns, fieldNames: fieldNames(spec.item) };
      checkOutputOptions(ctx, { fields, out: opts?.out });
      const client = await ctx.client();
      // These routes have no filters, so there is nothing to narrow a cut list by.
      await printPage(ctx, opts?.out, () => spec.fetch(client), { ...fields, noun: spec.noun, narrowFlags: [] });
    },
  });
}
