import type { Context } from '../kit/context.js';
import { printObject } from '../../format/output.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';

/** GET /accounts: the one account the key belongs to. */
async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
  checkOutputOptions(ctx, {});
  const client = await ctx.client();
  const account = await client.getAccount();
  await printObject(ctx, account, {
    columns: [
      { key: 'id', header: 'ID' },
      { key: 'display_name', header: 'NAME' },
      { key: 'mode', header: 'MODE' },
      { key: 'webhooks_enabled', header: 'WEBHOOKS ENABLED' },
      { key: 'webhook_endpoint', header: 'WEBHOOK ENDPOINT' },
    ],
  });
}

export default defineCommand({
  description: 'Show the account linked to the API key (GET /accounts)',
  examples: ['jobfit accounts', 'jobfit --test accounts -o json'],
  run,
});
