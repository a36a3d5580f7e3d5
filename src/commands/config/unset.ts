/** config unset KEY: remove one setting. */
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { profileOf } from './list.js';

async function run(opts: { key: string }, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const removed = store.unset(opts.key, profileOf(ctx));
  if (removed) ctx.info(`Removed ${opts.key}.`);
  else ctx.info(`${opts.key} was not set.`);
}

export default defineCommand({
  name: 'unset',
  summary: 'Remove one setting',
  args: [{ name: 'key', description: 'setting name' }],
  examples: ['jobfit config unset invite_defaults.team_id'],
  run: (opts, ctx) => run({ key: opts.key }, ctx),
});
