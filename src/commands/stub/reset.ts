/** `jobfit stub reset`: restore the seed (asks first on a terminal). */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { dataDir, dataOption, examples, withStore } from './shared.js';

export async function reset(opts: { data?: string; yes?: boolean }, ctx: Context): Promise<void> {
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

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('reset')
      .description('Restore the seed: every invitation, test taker, event and message created since is removed')
      .option('-y, --yes', 'do not ask first (on a terminal it asks; scripts are never asked)'),
  )
    .addHelpText('after', examples('jobfit stub reset', 'jobfit stub reset --yes --data ./stub-data'))
    .action(async (o: { data?: string; yes?: boolean }, cmd: Command) => reset(o, deps.context(cmd)));
}
