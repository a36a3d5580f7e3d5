/** `jobfit stub complete`: the participant completes assigned assessments. */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { UsageError } from '../../core/errors.js';
import { dataOption, examples, flushWebhooks, lifecycleError, positiveInt, withStore, writeJsonOrLine } from './shared.js';

const CHOICES = ['personality', 'thinking', 'interests', 'prescreen', 'all'] as const;

export async function completeCmd(id: string, opts: { data?: string; assessment: string; language: string }, ctx: Context): Promise<void> {
  const testTakerId = positiveInt(id, 'The test taker id');
  const choice = opts.assessment.toLowerCase();
  if (!(CHOICES as readonly string[]).includes(choice)) throw new UsageError(`--assessment must be one of ${CHOICES.join(', ')}; got "${opts.assessment}".`);
  if (!/^[a-z]{2}(-[A-Za-z]{2})?$/.test(opts.language)) throw new UsageError(`--language must be a locale id such as en or es; got "${opts.language}".`);
  const { complete } = await import('../../stub/lifecycle.js');
  const r = await withStore(ctx, opts, async (store) => {
    try {
      const result = complete(store, testTakerId, { assessment: choice as (typeof CHOICES)[number], language: opts.language });
      await flushWebhooks();
      return result;
    } catch (err) {
      lifecycleError(err);
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

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('complete <testTakerId>')
      .description('The participant completes assigned assessments (scores follow; Career Interests creates the career navigation profile)')
      .option('--assessment <name>', `which one: ${CHOICES.join('|')}`, 'all')
      .option('--language <locale>', 'language the assessment was taken in', 'en'),
  )
    .addHelpText('after', examples('jobfit stub complete 500001', 'jobfit stub complete 500001 --assessment interests --language es'))
    .action(async (id: string, o: { data?: string; assessment: string; language: string }, cmd: Command) => completeCmd(id, o, deps.context(cmd)));
}
