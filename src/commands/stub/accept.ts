/** `jobfit stub accept`: the participant accepts an invitation. */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { dataOption, examples, flushWebhooks, lifecycleError, positiveInt, withStore, writeJsonOrLine } from './shared.js';

export async function acceptCmd(id: string, opts: { data?: string }, ctx: Context): Promise<void> {
  const invitationId = positiveInt(id, 'The invitation id');
  const { accept } = await import('../../stub/lifecycle.js');
  const r = await withStore(ctx, opts, async (store) => {
    try {
      const result = accept(store, invitationId);
      await flushWebhooks();
      return result;
    } catch (err) {
      lifecycleError(err);
    }
  });
  writeJsonOrLine(ctx, { invitation_id: r.invitationId, test_taker_id: r.testTakerId, accepted_at: r.acceptedAt }, `Invitation ${r.invitationId} accepted: test taker ${r.testTakerId}.`);
}

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(stub.command('accept <invitationId>').description('The participant accepts an invitation: accepted_at is set and the test taker created'))
    .addHelpText('after', examples('jobfit stub accept 100001', 'jobfit stub accept 100001 -o json | jq .test_taker_id'))
    .action(async (id: string, o: { data?: string }, cmd: Command) => acceptCmd(id, o, deps.context(cmd)));
}
