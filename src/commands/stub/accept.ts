/** `jobfit stub accept`: the participant accepts an invitation. */
import * as z from 'zod';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { data, firstRefusal, flushWebhooks, notPositiveInt, refused, withStore, writeJsonOrLine } from './shared/stub-data.js';

const AcceptOptions = z.object({ invitationId: z.string(), data }).superRefine(firstRefusal((o) => notPositiveInt(o.invitationId, 'The invitation id')));
type AcceptOptions = z.output<typeof AcceptOptions>;

async function run(opts: AcceptOptions, ctx: Context): Promise<void> {
  const invitationId = Number(opts.invitationId);
  const { accept, LifecycleError } = await import('../../stub/index.js');
  const r = await withStore(ctx, opts, async (store) => {
    try {
      const result = accept(store, invitationId);
      await flushWebhooks();
      return result;
    } catch (err) {
      refused(err, LifecycleError);
    }
  });
  writeJsonOrLine(ctx, { invitation_id: r.invitationId, test_taker_id: r.testTakerId, accepted_at: r.acceptedAt }, `Invitation ${r.invitationId} accepted: test taker ${r.testTakerId}.`);
}

export default defineCommand({
  name: 'accept',
  summary: 'The participant accepts an invitation: accepted_at is set and the test taker created',
  // No description: the usage line says it all, and --help has no Arguments section.
  args: [{ name: 'invitationId', description: '' }],
  options: AcceptOptions,
  examples: ['jobfit stub accept 100001', 'jobfit stub accept 100004 -o json | jq .test_taker_id'],
  run,
});
