/** `jobfit stub seed`: many test takers at once, for lists and benchmarks. */
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { data, firstRefusal, notFraction, notPositiveInt, numberOf, withStore } from './shared/stub-data.js';

const SeedOptions = z
  .object({
    testTakers: flag(z.string(), { flag: '--test-takers <n>', description: 'how many test takers to add', required: true }),
    teams: flag(z.string().optional(), { flag: '--teams <k>', description: 'spread them over the first K teams of the account (default 1)' }),
    complete: flag(z.string().optional(), { flag: '--complete <fraction>', description: 'share with every assigned assessment complete, 0..1 (default 0.5)' }),
    account: flag(z.string().optional(), { flag: '--account <id>', description: 'account id (default 1)' }),
    data,
  })
  .superRefine(
    firstRefusal(
      (o) =>
        notPositiveInt(o.testTakers, '--test-takers') ?? notPositiveInt(o.teams, '--teams') ?? notFraction(o.complete, '--complete') ?? notPositiveInt(o.account, '--account'),
    ),
  );
type SeedOptions = z.output<typeof SeedOptions>;

async function run(opts: SeedOptions, ctx: Context): Promise<void> {
  const count = Number(opts.testTakers);
  const teamsWanted = numberOf(opts.teams);
  const completeFraction = numberOf(opts.complete);
  const accountId = numberOf(opts.account) ?? 1;
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

export default defineCommand({
  name: 'seed',
  summary: 'Add many test takers quickly (accepted invitations, some complete), for lists and benchmarks',
  options: SeedOptions,
  examples: ['jobfit stub seed --test-takers 100000', 'jobfit stub seed --test-takers 500 --teams 3 --complete 0.8 --account 2'],
  run,
});
