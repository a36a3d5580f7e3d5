/** config get KEY: print one setting (keys masked). */
import { JobfitError } from '../../core/errors.js';
import { CONFIG_KEYS } from '../../config/keys.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { profileOf } from './list.js';

async function run(opts: { key: string }, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const value = store.getDisplay(opts.key, profileOf(ctx));
  if (value === undefined) {
    throw new JobfitError(`${opts.key} is not set${CONFIG_KEYS.find((k) => k.name === opts.key)?.scope === 'profile' ? ` in profile "${store.activeProfileName(profileOf(ctx))}"` : ''}.`);
  }
  ctx.io.stdout.write(`${value}\n`);
}

export default defineCommand({
  name: 'get',
  summary: 'Print one setting (keys masked)',
  args: [{ name: 'key', description: 'setting name, e.g. base_url or invite_defaults.team_id' }],
  examples: ['jobfit config get base_url', 'jobfit config get test_key --profile work'],
  run: (opts, ctx) => run({ key: opts.key }, ctx),
});
