/**
 * `jobfit stub webhooks`: the operator's webhook settings (endpoint, account
 * flag, per-team flags, retry schedule), shown or changed.
 */
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import { printObject } from '../../format/output.js';
import type { WebhookSettingsChange } from '../../stub/index.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { collect, flag } from '../kit/flags.js';
import { examples } from '../kit/help.js';
import { data, firstRefusal, notPositiveInt, numberOf, withStore } from './shared/stub-data.js';

/** `--team 11 --team 12,13` → the ids as typed. */
const teamsOf = (team: string[] | undefined) => (team ?? []).flatMap((t) => t.split(','));

const WebhooksOptions = z
  .object({
    account: flag(z.string().optional(), { flag: '--account <id>', description: 'account (default: the first)' }),
    endpoint: flag(z.string().optional(), { flag: '--endpoint <url>', description: "set the account's webhook endpoint" }),
    removeEndpoint: flag(z.boolean().optional(), { flag: '--remove-endpoint', description: "remove the account's webhook endpoint" }),
    enable: flag(z.boolean().optional(), { flag: '--enable', description: 'switch delivery on (the account, or the --team given)' }),
    disable: flag(z.boolean().optional(), { flag: '--disable', description: 'switch delivery off (the account, or the --team given)' }),
    team: flag(z.array(z.string()).optional(), { flag: '--team <id>', description: 'the team to --enable/--disable (repeatable, or a,b)', parse: collect }),
    allTeams: flag(z.boolean().optional(), { flag: '--all-teams', description: 'every team of the account, with --enable/--disable' }),
    retrySchedule: flag(z.string().optional(), { flag: '--retry-schedule <delays>', description: 'waits between attempts, e.g. 1s,2s,4s,8s (attempts = delays + 1)' }),
    rotateSecret: flag(z.boolean().optional(), { flag: '--rotate-secret', description: 'a new signing secret for the endpoint (the old one stops working at once)' }),
    data,
  })
  .superRefine(
    firstRefusal((o) => {
      if (o.enable && o.disable) return 'Give --enable or --disable, not both.';
      if (o.endpoint !== undefined && o.removeEndpoint) return 'Give --endpoint URL or --remove-endpoint, not both.';
      const teams = teamsOf(o.team);
      for (const t of teams) {
        const bad = notPositiveInt(t, '--team');
        if (bad) return bad;
      }
      if ((teams.length > 0 || o.allTeams) && !o.enable && !o.disable) return '--team and --all-teams need --enable or --disable.';
      return notPositiveInt(o.account, '--account');
    }),
  );
type WebhooksOptions = z.output<typeof WebhooksOptions>;

async function run(o: WebhooksOptions, ctx: Context): Promise<void> {
  const teamIds = teamsOf(o.team).map(Number);
  const toggle = o.enable ? true : o.disable ? false : undefined;
  const wh = await import('../../stub/index.js');
  await withStore(ctx, o, async (store) => {
    const accountId = numberOf(o.account) ?? wh.accountIds(store)[0];
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

export default defineCommand({
  name: 'webhooks',
  summary: "Show or change the stub's webhook settings: endpoint, account flag, per-team flags, retry schedule",
  options: WebhooksOptions,
  // Unlike other commands', this help ends right after its last example.
  helpAfter: `
Events are delivered only when the account flag is on, the account has an
endpoint, and the participant's team has delivery on (new teams: off).
--team ID --enable and --all-teams --enable switch the account flag on too.

Every delivery is signed with the endpoint's signing_secret the Standard
Webhooks way (webhook-id, webhook-timestamp, webhook-signature; checked by
\`jobfit webhook verify\` and any Standard Webhooks library). The service's
reference does not say how it signs.
${examples(
    'jobfit stub webhooks',
    'jobfit stub webhooks --endpoint http://127.0.0.1:3000/webhooks --all-teams --enable',
    'jobfit stub webhooks -o json | jq -r .signing_secret',
    'jobfit stub webhooks --team 11 --enable',
    'jobfit stub webhooks --retry-schedule 500ms,1s,2s',
  ).trimEnd()}`,
  run,
});
