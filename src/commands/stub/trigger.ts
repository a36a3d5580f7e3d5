/** `jobfit stub trigger`: one webhook event about existing data, without driving the lifecycle. */
import * as z from 'zod';
import { printObject } from '../../format/output.js';
import type { TriggerType } from '../../stub/index.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { examples } from '../kit/help.js';
import { data, deliveryNote, firstRefusal, notEventType, notPositiveInt, numberOf, refused, withStore } from './shared/stub-data.js';

const TriggerOptions = z
  .object({
    event: z.string(),
    testTaker: flag(z.string().optional(), { flag: '--test-taker <id>', description: 'the test taker it is about (default: the newest one the event fits)' }),
    account: flag(z.string().optional(), { flag: '--account <id>', description: 'without --test-taker: the account (default: the first)' }),
    data,
  })
  .superRefine(firstRefusal((o) => notEventType(o.event) ?? notPositiveInt(o.testTaker, '--test-taker') ?? notPositiveInt(o.account, '--account')));
type TriggerOptions = z.output<typeof TriggerOptions>;

async function run(o: TriggerOptions, ctx: Context): Promise<void> {
  const stub = await import('../../stub/index.js');
  await withStore(ctx, o, async (store) => {
    let ev: ReturnType<typeof stub.trigger>;
    try {
      ev = stub.trigger(store, o.event as TriggerType, { testTakerId: numberOf(o.testTaker), accountId: numberOf(o.account) });
    } catch (err) {
      refused(err, stub.LifecycleError);
    }
    await deliveryNote(ctx, store, ev.id);
    await printObject(ctx, ev.payload as unknown as Record<string, unknown>);
  });
}

export default defineCommand({
  name: 'trigger',
  summary: 'Emit one webhook event about existing data, without driving the lifecycle',
  args: [{ name: 'event', description: 'invitation.accepted, test_taker.created, test_taker.assessment_completed or career_navigation_profile.created' }],
  options: TriggerOptions,
  // Unlike other commands', this help ends right after its last example.
  helpAfter: `
The payload is built from the test taker's current state, as the lifecycle
would send it, and goes through the same delivery (gates, signature, retries).
Prints the event; says on stderr whether it was delivered, or why not.
${examples(
    'jobfit stub trigger test_taker.created',
    'jobfit stub trigger test_taker.assessment_completed --test-taker 500001',
    'jobfit stub trigger career_navigation_profile.created -o json | jq .id',
  ).trimEnd()}`,
  run,
});
