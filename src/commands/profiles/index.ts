/** profiles list | get ID: career navigation profiles. */
import type { Command } from 'commander';
import * as z from 'zod';
import { NotFoundError } from '../../client/errors.js';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { type ColumnSpec, printList, printObject } from '../../format/output.js';
import { examples } from '../kit/help.js';
import { listEverything } from '../../export/list-everything.js';
import { parseOptions } from '../kit/parse.js';

export const LIST_COLUMNS: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'test_taker_id', header: 'TEST TAKER', align: 'right' },
  { key: 'custom_id', header: 'CUSTOM ID' },
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'created_at', header: 'CREATED' },
  { key: 'career_navigation_url', header: 'URL' },
];

export const OBJECT_ROWS: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'test_taker_id', header: 'TEST TAKER' },
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'plan_job_1.jobName', header: 'PLANNED JOB' },
  { key: 'plan_job_1.onetCode', header: 'O*NET CODE' },
  { key: 'exercises.targetJobName', header: 'TARGET JOB' },
  { key: 'exercises.strengthsCareerInterests', header: 'STRENGTHS' },
  { key: 'career_navigation_url', header: 'URL' },
  { key: 'mode', header: 'MODE' },
];

export const ListOpts = z.object({ all: z.boolean().default(false), out: z.string().min(1).optional() });
export type ListOpts = z.output<typeof ListOpts>;

export async function runList(opts: ListOpts, ctx: Context): Promise<void> {
  const client = await ctx.client();
  if (opts.out !== undefined && !opts.all) throw new UsageError('--out goes with --all.');
  if (opts.all) {
    // created_at is absent from items found through the test takers: the header is fixed, not taken from the first item.
    const csvColumns = ['id', 'test_taker_id', 'custom_id', 'person_id', 'career_navigation_url', 'created_at'];
    await listEverything(ctx, client, { resource: 'profiles', columns: LIST_COLUMNS, csvColumns, noun: 'career navigation profiles', out: opts.out, mode: ctx.connection?.mode });
    return;
  }
  const list = await client.listCareerNavigationProfiles();
  await printList(ctx, list, { columns: LIST_COLUMNS, noun: 'career navigation profiles', narrowFlags: [] });
}

export const GetOptions = z.object({ id: z.string().trim().min(1, 'the profile id must not be empty') });
export type GetOptions = z.output<typeof GetOptions>;

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const client = await ctx.client();
  try {
    const profile = await client.getCareerNavigationProfile(opts.id, ctx.io.signal);
    await printObject(ctx, profile, { columns: OBJECT_ROWS });
  } catch (err) {
    // The service answers an unknown profile with 404 and a null body: say what that means.
    if (err instanceof NotFoundError) {
      throw new JobfitError(`No career navigation profile with id ${opts.id}.`, {
        hint: 'see `jobfit profiles list`, or `jobfit test-takers get ID` for a test taker\'s profile id',
      });
    }
    throw err;
  }
}

export function register(program: Command, deps: CommandDeps): void {
  const p = program
    .command('profiles')
    .description('List and show career navigation profiles (created when Career Interests is completed)')
    .addHelpText('after', examples('jobfit profiles list', 'jobfit profiles get cnp_8f2a'));

  p.command('list')
    .alias('ls')
    .description('List career navigation profiles (GET /career-navigation-profiles)')
    .option('--all', 'every profile, not only the first page the service returns')
    .option('--out <file>', 'with --all: write to FILE, only once the list is complete (a failed run leaves FILE as it was)')
    .addHelpText(
      'after',
      `
The service lists at most 50 profiles. With --all the rest are found through
the test takers and read one by one; those items have no created_at (the
profile object does not carry it, and jobfit does not guess it): the field is
absent in JSON and the cell empty in CSV. Items the service's list returned
keep its created_at.
${examples('jobfit profiles list', 'jobfit profiles list --all -o csv > profiles.csv')}`,
    )
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runList(parseOptions(ListOpts, o), ctx);
    });

  p.command('get')
    .alias('show')
    .argument('<id>', 'profile id (a string)')
    .description('Show one career navigation profile (GET /career-navigation-profiles/:id)')
    .addHelpText('after', examples('jobfit profiles get cnp_8f2a', 'jobfit profiles get cnp_8f2a -o json | jq -r .career_navigation_url'))
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runGet(parseOptions(GetOptions, { id }, ['id']), ctx);
    });
}
