/** `jobfit stub complete`: the participant completes assigned assessments. */
import * as z from 'zod';
import type { AssessmentChoice } from '../../stub/index.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { data, firstRefusal, flushWebhooks, notPositiveInt, refused, withStore, writeJsonOrLine } from './shared/stub-data.js';

const CHOICES: readonly AssessmentChoice[] = ['personality', 'thinking', 'interests', 'prescreen', 'all'];

const CompleteOptions = z
  .object({
    testTakerId: z.string(),
    assessment: flag(z.string(), { flag: '--assessment <name>', description: `which one: ${CHOICES.join('|')} (default all)`, default: 'all' }),
    language: flag(z.string(), { flag: '--language <locale>', description: 'language the assessment was taken in (default en)', default: 'en' }),
    data,
  })
  .superRefine(
    firstRefusal((o) => {
      const bad = notPositiveInt(o.testTakerId, 'The test taker id');
      if (bad) return bad;
      // Any case: --assessment Interests is interests.
      if (!(CHOICES as readonly string[]).includes(o.assessment.toLowerCase())) return `--assessment must be one of ${CHOICES.join(', ')}; got "${o.assessment}".`;
      if (!/^[a-z]{2}(-[A-Za-z]{2})?$/.test(o.language)) return `--language must be a locale id such as en or es; got "${o.language}".`;
      return undefined;
    }),
  );
type CompleteOptions = z.output<typeof CompleteOptions>;

async function run(opts: CompleteOptions, ctx: Context): Promise<void> {
  const testTakerId = Number(opts.testTakerId);
  const { complete, LifecycleError } = await import('../../stub/index.js');
  const r = await withStore(ctx, opts, async (store) => {
    try {
      const result = complete(store, testTakerId, { assessment: opts.assessment.toLowerCase() as AssessmentChoice, language: opts.language });
      await flushWebhooks();
      return result;
    } catch (err) {
      refused(err, LifecycleError);
    }
  });
  const names = r.completed.map((c) => c.test_id).join(', ');
  let line = `Test taker ${r.testTakerId}: completed test_id ${names}.`;
  if (r.careerNavigationProfileId) line += ` Career navigation profile ${r.careerNavigationProfileId} created.`;
  if (r.allComplete) line += ' Every assigned assessment is complete.';
  if (r.notifiedInviter) line += ` Completion email to ${r.notifiedInviter} recorded in the outbox.`;
  writeJsonOrLine(
    ctx,
    {
      test_taker_id: r.testTakerId,
      completed: r.completed,
      career_navigation_profile_id: r.careerNavigationProfileId,
      all_complete: r.allComplete,
      notified_inviter: r.notifiedInviter,
    },
    line,
  );
}

export default defineCommand({
  name: 'complete',
  summary: 'The participant completes assigned assessments (scores follow; Career Interests creates the career navigation profile)',
  args: [{ name: 'testTakerId', description: '' }],
  options: CompleteOptions,
  examples: [
    'jobfit stub accept 100001',
    '# prints the new test taker\'s id: 500144 on a fresh stub',
    'jobfit stub complete 500144 --assessment personality',
    'jobfit stub complete 500144 --assessment interests --language es',
  ],
  run,
});
