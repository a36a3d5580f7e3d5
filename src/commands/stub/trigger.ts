/** `jobfit stub trigger`: one webhook event about existing data, without driving the lifecycle. */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { printObject } from '../../format/output.js';
import { dataOption, deliveryNote, positiveInt, withStore } from './shared.js';

export interface StubTriggerOptions {
  data?: string;
  account?: string;
  testTaker?: string;
}

export async function stubTrigger(type: string, o: StubTriggerOptions, ctx: Context): Promise<void> {
  const lifecycle = await import('../../stub/lifecycle.js');
  if (!(lifecycle.TRIGGER_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`Unknown event type "${type}".`, `known types: ${lifecycle.TRIGGER_TYPES.join(', ')}`);
  }
  const testTakerId = o.testTaker === undefined ? undefined : positiveInt(o.testTaker, '--test-taker');
  const accountId = o.account === undefined ? undefined : positiveInt(o.account, '--account');
  await withStore(ctx, o, async (store) => {
    let ev: ReturnType<typeof lifecycle.trigger>;
    try {
      ev = lifecycle.trigger(store, type as (typeof lifecycle.TRIGGER_TYPES)[number], { testTakerId, accountId });
    } catch (err) {
      if (err instanceof lifecycle.LifecycleError) throw new JobfitError(err.message);
      throw err;
    }
    await deliveryNote(ctx, store, ev.id);
    await printObject(ctx, ev.payload as unknown as Record<string, unknown>);
  });
}

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('trigger')
      .description('Emit one webhook event about existing data, without driving the lifecycle')
      .argument('<event>', 'invitation.accepted, test_taker.created, test_taker.assessment_completed or career_navigation_profile.created')
      .option('--test-taker <id>', 'the test taker it is about (default: the newest one the event fits)')
      .option('--account <id>', 'without --test-taker: the account (default: the first)'),
  )
    .addHelpText(
      'after',
      `
The payload is built from the test taker's current state, as the lifecycle
would send it, and goes through the same delivery (gates, signature, retries).
Prints the event; says on stderr whether it was delivered, or why not.

Examples:
  $ jobfit stub trigger test_taker.created
  $ jobfit stub trigger test_taker.assessment_completed --test-taker 200100
  $ jobfit stub trigger career_navigation_profile.created -o json | jq .id`,
    )
    .action(async (type: string, o: StubTriggerOptions, cmd: Command) => stubTrigger(type, o, deps.context(cmd)));
}
