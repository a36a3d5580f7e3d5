/**
 * `jobfit stub webhooks`: the operator's webhook settings (endpoint, account
 * flag, per-team flags, retry schedule), shown or changed.
 */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { UsageError } from '../../core/errors.js';
import { printObject } from '../../format/output.js';
import type { WebhookSettingsChange } from '../../stub/webhooks.js';
import { dataOption, positiveInt, withStore } from './shared.js';

export interface StubWebhooksOptions {
  data?: string;
  account?: string;
  endpoint?: string;
  removeEndpoint?: boolean;
  enable?: boolean;
  disable?: boolean;
  team?: string[];
  allTeams?: boolean;
  retrySchedule?: string;
  rotateSecret?: boolean;
}

export async function stubWebhooks(o: StubWebhooksOptions, ctx: Context): Promise<void> {
  if (o.enable && o.disable) throw new UsageError('Give --enable or --disable, not both.');
  if (o.endpoint !== undefined && o.removeEndpoint) throw new UsageError('Give --endpoint URL or --remove-endpoint, not both.');
  const teamIds = (o.team ?? []).flatMap((t) => t.split(',')).map((t) => positiveInt(t, '--team'));
  const toggle = o.enable ? true : o.disable ? false : undefined;
  if ((teamIds.length > 0 || o.allTeams) && toggle === undefined) throw new UsageError('--team and --all-teams need --enable or --disable.');
  const wh = await import('../../stub/webhooks.js');
  await withStore(ctx, o, async (store) => {
    const accountId = o.account === undefined ? wh.accountIds(store)[0] : positiveInt(o.account, '--account');
    if (accountId === undefined) throw new UsageError('The stub has no account.', 'run `jobfit stub reset`');
    const current = wh.getWebhookSettings(store, accountId);
    if (!current) throw new UsageError(`Account ${accountId} does not exist in the stub.`, 'see `jobfit stub keys` for the accounts');
    const change: WebhookSettingsChange = {};
    if (o.endpoint !== undefined) change.endpoint = o.endpoint;
    if (o.removeEndpoint) change.endpoint = null;
    if (o.retrySchedule !== undefined) change.retrySchedule = o.retrySchedule;
    if (o.rotateSecret) change.rotateSecret = true;
    if (teamIds.length > 0 || o.allTeams) {
      const ids = o.allTeams ? current.teams.map((t) => t.id) : teamIds;
      change.teams = ids.map((t) => ({ id: t, enabled: toggle as boolean }));
      // Teams switched on are of no use while the account is off: one command is enough.
      if (toggle) change.enabled = true;
    } else if (toggle !== undefined) {
      change.enabled = toggle;
    }
    let after: typeof current;
    try {
      after = Object.keys(change).length > 0 ? wh.setWebhookSettings(store, accountId, change) : current;
    } catch (err) {
      if (err instanceof wh.WebhookSettingsError) throw new UsageError(err.message);
      throw err;
    }
    if (after.webhooks_enabled && !after.webhook_endpoint) ctx.warn('webhooks are enabled but the account has no endpoint: nothing is sent (set one with --endpoint URL).');
    if (after.webhooks_enabled && after.teams.every((t) => !t.webhooks_enabled)) {
      ctx.info('No team has delivery switched on yet: enable one with --team ID --enable, or --all-teams --enable.');
    }
    await printObject(ctx, after);
  });
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('webhooks')
      .description("Show or change the stub's webhook settings: endpoint, account flag, per-team flags, retry schedule")
      .option('--account <id>', 'account (default: the first)')
      .option('--endpoint <url>', "set the account's webhook endpoint")
      .option('--remove-endpoint', "remove the account's webhook endpoint")
      .option('--enable', 'switch delivery on (the account, or the --team given)')
      .option('--disable', 'switch delivery off (the account, or the --team given)')
      .option('--team <id>', 'the team to --enable/--disable (repeatable, or a,b)', collect)
      .option('--all-teams', 'every team of the account, with --enable/--disable')
      .option('--retry-schedule <delays>', 'waits between attempts, e.g. 1s,2s,4s,8s (attempts = delays + 1)')
      .option('--rotate-secret', 'a new signing secret for the endpoint (the old one stops working at once)'),
  )
    .addHelpText(
      'after',
      `
Events are delivered only when the account flag is on, the account has an
endpoint, and the participant's team has delivery on (new teams: off).
--team ID --enable and --all-teams --enable switch the account flag on too.

Every delivery is signed with the endpoint's signing_secret (a jobfit-signature
header, checked by \`jobfit webhook verify\`); this is the stub's own scheme,
as the service's reference does not say how it signs.

Examples:
  $ jobfit stub webhooks
  $ jobfit stub webhooks --endpoint http://127.0.0.1:3000/webhooks --all-teams --enable
  $ jobfit stub webhooks -o json | jq -r .signing_secret
  $ jobfit stub webhooks --team 11 --enable
  $ jobfit stub webhooks --retry-schedule 500ms,1s,2s`,
    )
    .action(async (o: StubWebhooksOptions, cmd: Command) => stubWebhooks(o, deps.context(cmd)));
}
