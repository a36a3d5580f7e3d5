import type { Context } from '../kit/context.js';
import { fieldNames } from '../../api/field-names.js';
import { Healthcheck } from '../../api/schemas/misc.js';
import { printObject } from '../../format/output.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';

/** GET /healthcheck: needs no key, so it also checks a base URL before `login`. */
async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
  const fields = {
    columns: [
      { key: 'status', header: 'STATUS' },
      { key: 'version', header: 'VERSION' },
      { key: 'timestamp', header: 'TIMESTAMP' },
    ],
    fieldNames: fieldNames(Healthcheck),
  };
  checkOutputOptions(ctx, { fields: fields });
  const client = await ctx.client();
  const health = await client.healthcheck();
  await printObject(ctx, health, fields);
}

export default defineCommand({
  description: 'Check that the service answers (GET /healthcheck, no key needed)',
  examples: ['jobfit health', 'jobfit health --base-url https://api.example.com/v2', 'jobfit health -o json && echo up'],
  run,
});
