/** `jobfit stub seed`: many test takers at once, for lists and benchmarks. */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { UsageError } from '../../core/errors.js';
import { dataOption, examples, fraction, positiveInt, withStore } from './shared.js';

export interface SeedOptions {
  data?: string;
  testTakers: string;
  teams?: string;
  complete?: string;
  account?: string;
}

export async function seed(opts: SeedOptions, ctx: Context): Promise<void> {
  const count = positiveInt(opts.testTakers, '--test-takers');
  const teamsWanted = opts.teams === undefined ? undefined : positiveInt(opts.teams, '--teams');
  const completeFraction = opts.complete === undefined ? undefined : fraction(opts.complete, '--complete');
  const accountId = opts.account === undefined ? 1 : positiveInt(opts.account, '--account');
  const { accountTeamIds } = await import('../../stub/index.js');
  await withStore(ctx, opts, async (store) => {
    const teams = accountTeamIds(store, accountId);
    if (teams.length === 0) throw new UsageError(`Account ${accountId} does not exist in the stub.`, 'See `jobfit stub keys` for the accounts.');
    const use = teams.slice(0, Math.min(teamsWanted ?? 1, teams.length));
    if (teamsWanted !== undefined && teamsWanted > teams.length) ctx.warn(`Account ${accountId} has ${teams.length} teams; seeding those.`);
    // Every invitation of a `stub seed` is accepted (a test taker); --complete says how many finished everything.
    const c = completeFraction ?? 0.5;
    const mix = { pending: 0, accepted: 1 - c, partial: 0, complete: c };
    const started = Date.now();
    let added = 0;
    let complete = 0;
    for (const [i, teamId] of use.entries()) {
      const share = Math.floor(count / use.length) + (i < count % use.length ? 1 : 0);
      if (share === 0) continue;
      const r = await store.seedPeople(accountId, teamId, share, { mix });
      added += r.testTakers;
      complete += r.completed;
    }
    ctx.info(`Added ${added} test takers (${complete} complete) to account ${accountId} across ${use.length} team(s) in ${((Date.now() - started) / 1000).toFixed(1)}s.`);
  });
}

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('seed')
      .description('Add many test takers quickly (accepted invitations, some complete), for lists and benchmarks')
      .requiredOption('--test-takers <n>', 'how many test takers to add')
      .option('--teams <k>', 'spread them over the first K teams of the account (default 1)')
      .option('--complete <fraction>', 'share with every assigned assessment complete, 0..1 (default 0.5)')
      .option('--account <id>', 'account id (default 1)'),
  )
    .addHelpText('after', examples('jobfit stub seed --test-takers 100000', 'jobfit stub seed --test-takers 500 --teams 3 --complete 0.8 --account 2'))
    .action(async (o: SeedOptions, cmd: Command) => seed(o, deps.context(cmd)));
}
