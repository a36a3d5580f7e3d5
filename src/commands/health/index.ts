import type { Command } from 'commander';
import type { CommandDeps } from '../../cli/commands.js';
import type { Context } from '../kit/context.js';
import { printObject } from '../../format/output.js';
import { examples } from '../shared/help.js';

/** GET /healthcheck: needs no key, so it also checks a base URL before `login`. */
export async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
  const client = await ctx.client();
  const health = await client.healthcheck();
  await printObject(ctx, health, {
    columns: [
      { key: 'status', header: 'STATUS' },
      { key: 'version', header: 'VERSION' },
      { key: 'timestamp', header: 'TIMESTAMP' },
    ],
  });
}

export function register(program: Command, deps: CommandDeps): void {
  program
    .command('health')
    .description('Check that the service answers (GET /healthcheck, no key needed)')
    .addHelpText(
      'after',
      examples('jobfit health', 'jobfit health --base-url https://api.example.com/v2', 'jobfit health -o json && echo up'),
    )
    .action(async (_o: unknown, cmd: Command) => {
      await run({}, deps.context(cmd));
    });
}
