/** `jobfit stub reset`: restore the seed (asks first on a terminal). */
import * as z from 'zod';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { data, dataDir, withStore } from './shared/stub-data.js';

const ResetOptions = z.object({
  yes: flag(z.boolean().optional(), { flag: '-y, --yes', description: 'do not ask first (on a terminal it asks; scripts are never asked)' }),
  data,
});
type ResetOptions = z.output<typeof ResetOptions>;

async function run(opts: ResetOptions, ctx: Context): Promise<void> {
  // On a terminal, a slip of the fingers must not wipe an afternoon's invitations.
  if (!opts.yes && ctx.io.canPrompt) {
    const sure = await (await ctx.prompter()).confirm(
      `Restore the stub data in ${dataDir(ctx, opts)} to the seed? Every invitation, test taker, event and message made since is removed.`,
      { default: false },
    );
    if (!sure) {
      ctx.info('Nothing was changed.');
      return;
    }
  }
  await withStore(ctx, opts, (store) => store.reset());
  ctx.info('Stub data restored to the seed.');
}

export default defineCommand({
  name: 'reset',
  summary: 'Restore the seed: every invitation, test taker, event and message created since is removed',
  options: ResetOptions,
  examples: ['jobfit stub reset', 'jobfit stub reset --yes --data ./stub-data'],
  run,
});
