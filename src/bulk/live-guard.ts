/**
 * The live guard of bulk invite: before a run sends real invitations, a
 * summary of what is about to happen (account, teams, channels) and a
 * confirmation on a terminal, or --yes; our own stub (proven by its instance,
 * config/served-stubs.ts) and a test key only say where the run goes. Any
 * other server is the real service, on loopback too (a proxy, a tunnel).
 */
import { CancelError, ExitCode, UsageError } from '../core/errors.js';
import { NUM } from '../format/number.js';
import { safeText } from '../format/sanitize.js';
import type { AccountData } from './account.js';
import type { Validated } from './check.js';
import type { BulkDeps, BulkRunOptions } from './types.js';

function channelText(c: Validated['channels']): string {
  const parts = [];
  if (c.email) parts.push(`${NUM.format(c.email)} by email`);
  if (c.sms) parts.push(`${NUM.format(c.sms)} by SMS`);
  if (c.none) parts.push(`${NUM.format(c.none)} not delivered (link only)`);
  return parts.join(', ') || 'none';
}

export async function guardLive(opts: BulkRunOptions, deps: BulkDeps, account: AccountData, v: Validated, sendable: number): Promise<void> {
  const { ctx, target } = deps;
  if (target.local) {
    ctx.info(`Sending to the ${target.embedded ? 'embedded local stub, in this process' : `local stub at ${target.baseUrl}`}: no real email or SMS goes out.`);
    return;
  }
  // A key whose mode is not known is taken for live: never claim "sends nothing" on a guess.
  if (target.mode === 'test') {
    ctx.info(`Test mode (${target.baseUrl}): the service stores nothing and sends nothing.`);
    return;
  }
  const teamNames = [...v.teams.entries()]
    .map(([id, n]) => `${account.teamsById.get(id)?.display_name ?? `team ${id}`} (${NUM.format(n)})`)
    .join(', ');
  const summary = [
    `LIVE: about to invite ${NUM.format(sendable)} participants for real.`,
    `  account:  ${account.account.display_name} (${account.account.id}) at ${target.baseUrl}`,
    `  team(s):  ${teamNames || 'the inviter\'s default team'}`,
    `  delivery: ${channelText(v.channels)}`,
  ].join('\n');
  ctx.io.stderr.write(`${safeText(summary)}\n`);
  if (opts.yes) return;
  if (!ctx.io.canPrompt || !deps.confirm) {
    throw new UsageError('Live bulk invite without a terminal needs --yes (real emails and SMS will be sent).', 'check the file with --dry-run first, then add --yes');
  }
  const ok = await deps.confirm(`Send ${NUM.format(sendable)} live invitations now?`);
  if (!ok) throw new CancelError('Nothing was sent.', ExitCode.DECLINED);
}
