/** test-takers list: GET /test-takers, one page or every match with --all. */
import { type ColumnSpec } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { ListOptions, PERSON_COLUMNS, runPeopleList } from '../shared/people-list.js';

const LIST_COLUMNS: ColumnSpec[] = [
  ...PERSON_COLUMNS,
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'invitation_id', header: 'INVITATION', align: 'right' },
  { key: 'created_at', header: 'CREATED' },
];

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  await runPeopleList(ctx, opts, 'test-takers', LIST_COLUMNS, 'test takers');
}

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List test takers, newest first (GET /test-takers)',
  options: ListOptions,
  examples: ['jobfit test-takers list', 'jobfit test-takers list --custom-id REQ-7 -o csv', 'jobfit test-takers list --all -o ndjson > test-takers.ndjson'],
  run,
});
