/** test-takers list | get ID: GET /test-takers and GET /test-takers/:id. */
import type { Command } from 'commander';
import type { CommandDeps } from '../../cli/commands.js';
import type { Context } from '../kit/context.js';
import { type ColumnSpec, printObject } from '../../format/output.js';
import { examples } from '../shared/help.js';
import { IdOptions, parseOptions } from '../shared/options.js';
import { addListFilters, fullName, ListOptions, runPeopleList } from '../shared/people-list.js';


export const LIST_COLUMNS: ColumnSpec[] = [
  { key: 'id', header: 'ID', align: 'right' },
  { key: 'name', header: 'NAME', format: fullName },
  { key: 'email', header: 'EMAIL' },
  { key: 'team', header: 'TEAM' },
  { key: 'custom_id', header: 'CUSTOM ID' },
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'invitation_id', header: 'INVITATION', align: 'right' },
  { key: 'created_at', header: 'CREATED' },
];

const completed = (v: unknown) => {
  const list = Array.isArray(v) ? (v as Array<{ completed_at?: string | null; assessment?: { display_name?: string } }>) : [];
  return list.map((a) => `${a.assessment?.display_name ?? '?'}${a.completed_at ? ' ✓' : ''}`).join(', ');
};

export const OBJECT_ROWS: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'invitation_id', header: 'INVITATION' },
  { key: 'custom_id', header: 'CUSTOM ID' },
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'phone', header: 'PHONE' },
  { key: 'assigned_assessments', header: 'ASSESSMENTS (✓ done)', format: completed },
  { key: 'career_navigation_profile_id', header: 'CAREER PROFILE' },
  { key: 'scorecard_url', header: 'SCORECARD URL' },
  { key: 'job_fit_summary_url', header: 'JOB FIT URL' },
  { key: 'career_navigation_url', header: 'CAREER NAVIGATION URL' },
  { key: 'mode', header: 'MODE' },
];

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  await runPeopleList(ctx, opts, 'test-takers', LIST_COLUMNS, 'test takers');
}


export async function runGet(opts: IdOptions, ctx: Context): Promise<void> {
  const client = await ctx.client();
  const tt = await client.getTestTaker(opts.id, ctx.io.signal);
  await printObject(ctx, tt, { columns: OBJECT_ROWS });
}

export function register(program: Command, deps: CommandDeps): void {
  const tt = program
    .command('test-takers')
    .description('List and show test takers (participants who accepted an invitation)')
    .addHelpText('after', examples('jobfit test-takers list --team 3', 'jobfit test-takers get 2001'));

  addListFilters(tt.command('list').alias('ls').description('List test takers, newest first (GET /test-takers)'))
    .addHelpText(
      'after',
      examples('jobfit test-takers list', 'jobfit test-takers list --custom-id REQ-7 -o csv', 'jobfit test-takers list --all -o ndjson > test-takers.ndjson'),
    )
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runList(parseOptions(ListOptions, o), ctx);
    });

  tt.command('get')
    .alias('show')
    .argument('<id>', 'test taker id')
    .description('Show one test taker and the progress of their assessments (GET /test-takers/:id)')
    .addHelpText('after', examples('jobfit test-takers get 2001', 'jobfit test-takers get 2001 -o json | jq ".assigned_assessments"'))
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runGet(parseOptions(IdOptions, { id }, ['id']), ctx);
    });
}
