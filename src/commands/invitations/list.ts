/** invitations list: GET /invitations, one page or every match with --all. */
import type { ColumnSpec } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { PeopleListOptions, personColumns, runPeopleList } from '../shared/people-list.js';

/** On a narrow terminal, left out first: the test taker id, the custom id, the creation date, the team; the acceptance last. */
const LIST_COLUMNS: ColumnSpec[] = [
  ...personColumns({ team: 4, customId: 2 }),
  { key: 'created_at', header: 'CREATED', drop: 3 },
  { key: 'accepted_at', header: 'ACCEPTED', drop: 5 },
  { key: 'test_taker_id', header: 'TEST TAKER', align: 'right', drop: 1 },
];

async function run(opts: PeopleListOptions, ctx: Context): Promise<void> {
  await runPeopleList(ctx, opts, 'invitations', LIST_COLUMNS, 'invitations');
}

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List invitations, newest first (GET /invitations)',
  options: PeopleListOptions,
  examples: [
    'jobfit invitations list',
    'jobfit invitations list --team 12 --custom-id store-0042',
    'jobfit invitations list --all -o csv > invitations.csv',
    'jobfit invitations list --all -o xlsx --out invitations.xlsx',
    'jobfit invitations list --email @acme.com -o json | jq ".data[].id"',
  ],
  run,
});
