/** profiles list: GET /career-navigation-profiles, one page or every profile with --all. */
import * as z from 'zod';
import { fieldNames } from '../../api/field-names.js';
import { CareerNavigationProfileListItem } from '../../api/schemas/profiles.js';
import type { ColumnSpec } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { outFlag, printPage } from '../shared/list-out.js';
import { listEverything } from '../../export/list-everything.js';

/** On a narrow terminal, left out first: the person id, the custom id, the creation date, the test taker id; the URL is kept whole. */
const LIST_COLUMNS: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'test_taker_id', header: 'TEST TAKER', align: 'right', drop: 4 },
  { key: 'custom_id', header: 'CUSTOM ID', drop: 2 },
  { key: 'person_id', header: 'PERSON ID', drop: 1 },
  { key: 'created_at', header: 'CREATED', drop: 3 },
  { key: 'career_navigation_url', header: 'URL', whole: true },
];

const ListOptions = z.object({
  all: flag(z.boolean().default(false), { flag: '--all', description: 'every profile, not only the first page the service returns' }),
  out: outFlag('the list (the page, or with --all every profile)'),
});
type ListOptions = z.output<typeof ListOptions>;

async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const names = fieldNames(CareerNavigationProfileListItem);
  checkOutputOptions(ctx, { fields: { columns: LIST_COLUMNS, fieldNames: names }, out: opts.out });
  const client = await ctx.client();
  if (opts.all) {
    // created_at is absent from items found through the test takers: the header is fixed, not taken from the first item.
    const csvColumns = ['id', 'test_taker_id', 'custom_id', 'person_id', 'career_navigation_url', 'created_at'];
    await listEverything(ctx, client, { resource: 'profiles', columns: LIST_COLUMNS, csvColumns, fieldNames: names, noun: 'career navigation profiles', out: opts.out, mode: ctx.connection?.mode });
    return;
  }
  await printPage(ctx, opts.out, () => client.listCareerNavigationProfiles(), { columns: LIST_COLUMNS, fieldNames: names, noun: 'career navigation profiles', narrowFlags: [] });
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
