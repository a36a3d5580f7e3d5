/** test-takers list: GET /test-takers, one page or every match with --all. */
import { type ColumnSpec } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { PeopleListOptions, personColumns, runPeopleList } from '../shared/people-list.js';

/** On a narrow terminal, left out first: the person id, the invitation id, the custom id, the creation date, the team. */
const LIST_COLUMNS: ColumnSpec[] = [
  ...personColumns({ team: 5, customId: 3 }),
  { key: 'person_id', header: 'PERSON ID', drop: 1 },
  { key: 'invitation_id', header: 'INVITATION', align: 'right', drop: 2 },
  { key: 'created_at', header: 'CREATED', drop: 4 },
];

async function run(opts: PeopleListOptions, ctx: Context): Promise<void> {
  await runPeopleList(ctx, opts, 'test-takers', LIST_COLUMNS, 'test takers');
}

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List test takers, newest first (GET /test-takers)',
  options: PeopleListOptions,
  examples: ['jobfit test-takers list', 'jobfit test-takers list --custom-id REQ-7 -o csv', 'jobfit test-takers list --all -o ndjson > test-takers.ndjson'],
  run,
});
