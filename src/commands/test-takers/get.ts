/** test-takers get ID: GET /test-takers/:id. */
import { fieldNames } from '../../api/field-names.js';
import { TestTaker } from '../../api/schemas/test-takers.js';
import { type ColumnSpec, printObject } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { IdOptions } from '../kit/options.js';
import * as z from 'zod';
import { openWeb, webFlag } from '../shared/web.js';

const completed = (v: unknown) => {
  const list = Array.isArray(v) ? (v as Array<{ completed_at?: string | null; assessment?: { display_name?: string } }>) : [];
  return list.map((a) => `${a.assessment?.display_name ?? '?'}${a.completed_at ? ' ✓' : ''}`).join(', ');
};

const OBJECT_ROWS: ColumnSpec[] = [
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

const GetOptions = IdOptions.extend({ web: webFlag("the test taker's scorecard page") });
type GetOptions = z.output<typeof GetOptions>;

async function run(opts: GetOptions, ctx: Context): Promise<void> {
  const fields = { columns: OBJECT_ROWS, fieldNames: fieldNames(TestTaker) };
  checkOutputOptions(ctx, { fields: fields });
  const client = await ctx.client();
  const tt = await client.getTestTaker(opts.id, ctx.io.signal);
  if (opts.web) return openWeb(ctx, tt.scorecard_url, `the scorecard of test taker ${tt.id}`, `Test taker ${tt.id} has no scorecard page yet (scorecard_url is empty).`);
  await printObject(ctx, tt, fields);
}

export default defineCommand({
  name: 'get',
  aliases: ['show'],
  summary: 'Show one test taker and the progress of their assessments (GET /test-takers/:id)',
  args: [{ name: 'id', description: 'test taker id' }],
  options: GetOptions,
  examples: ['jobfit test-takers get 500001', 'jobfit test-takers get 500001 -o json | jq ".assigned_assessments"', 'jobfit test-takers get 500001 --web'],
  run,
});
