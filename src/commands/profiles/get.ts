/** profiles get ID: GET /career-navigation-profiles/:id (the id is a string). */
import * as z from 'zod';
import { NotFoundError } from '../../client/errors.js';
import { JobfitError } from '../../core/errors.js';
import { fieldNames } from '../../api/field-names.js';
import { CareerNavigationProfile } from '../../api/schemas/profiles.js';
import { type ColumnSpec, printObject } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';

const OBJECT_ROWS: ColumnSpec[] = [
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

const GetOptions = z.object({ id: z.string().trim().min(1, 'the profile id must not be empty') });
type GetOptions = z.output<typeof GetOptions>;

async function run(opts: GetOptions, ctx: Context): Promise<void> {
  const fields = { columns: OBJECT_ROWS, fieldNames: fieldNames(CareerNavigationProfile) };
  checkOutputOptions(ctx, { fields: fields });
  const client = await ctx.client();
  try {
    const profile = await client.getCareerNavigationProfile(opts.id, ctx.io.signal);
    await printObject(ctx, profile, fields);
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

export default defineCommand({
  name: 'get',
  aliases: ['show'],
  summary: 'Show one career navigation profile (GET /career-navigation-profiles/:id)',
  args: [{ name: 'id', description: 'profile id (a string)' }],
  options: GetOptions,
  examples: [
    'jobfit profiles list',
    '# an id from that list, or a test taker\'s career_navigation_profile_id:',
    'jobfit profiles get "$(jobfit profiles list -o json | jq -r \'.data[0].id\')"',
    'jobfit profiles get "$(jobfit test-takers get 500001 -o json | jq -r .career_navigation_profile_id)" -o json | jq -r .career_navigation_url',
  ],
  run,
});
