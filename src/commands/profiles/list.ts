/** profiles list: GET /career-navigation-profiles, one page or every profile with --all. */
import * as z from 'zod';
import { type ColumnSpec, printList } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { listEverything } from '../../export/list-everything.js';

const LIST_COLUMNS: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'test_taker_id', header: 'TEST TAKER', align: 'right' },
  { key: 'custom_id', header: 'CUSTOM ID' },
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'created_at', header: 'CREATED' },
  { key: 'career_navigation_url', header: 'URL' },
];

const ListOptions = z
  .object({
    all: flag(z.boolean().default(false), { flag: '--all', description: 'every profile, not only the first page the service returns' }),
    out: flag(z.string().min(1).optional(), {
      flag: '--out <file>',
      description: 'with --all: write to FILE, only once the list is complete (a failed run leaves FILE as it was)',
    }),
  })
  .refine((o) => o.out === undefined || o.all, '--out goes with --all.');
type ListOptions = z.output<typeof ListOptions>;

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const client = await ctx.client();
  if (opts.all) {
    // created_at is absent from items found through the test takers: the header is fixed, not taken from the first item.
    const csvColumns = ['id', 'test_taker_id', 'custom_id', 'person_id', 'career_navigation_url', 'created_at'];
    await listEverything(ctx, client, { resource: 'profiles', columns: LIST_COLUMNS, csvColumns, noun: 'career navigation profiles', out: opts.out, mode: ctx.connection?.mode });
    return;
  }
  const list = await client.listCareerNavigationProfiles();
  await printList(ctx, list, { columns: LIST_COLUMNS, noun: 'career navigation profiles', narrowFlags: [] });
}

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List career navigation profiles (GET /career-navigation-profiles)',
  options: ListOptions,
  helpAfter: `
The service lists at most 50 profiles. With --all the rest are found through
the test takers and read one by one; those items have no created_at (the
profile object does not carry it, and jobfit does not guess it): the field is
absent in JSON and the cell empty in CSV. Items the service's list returned
keep its created_at.
`,
  examples: ['jobfit profiles list', 'jobfit profiles list --all -o csv > profiles.csv'],
  run,
});
