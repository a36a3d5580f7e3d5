/** config list | get KEY | set KEY VALUE | unset KEY | path */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { CONFIG_KEYS } from '../../config/keys.js';
import { configFilePath } from '../../config/paths.js';
import { printList } from '../../format/output.js';
import { examples } from '../kit/help.js';
import { readInput } from '../../core/input.js';

/** --profile, else JOBFIT_PROFILE; the store falls back to the current profile. */
function profileOf(ctx: Context): string | undefined {
  return ctx.globals.profile ?? (ctx.io.env.JOBFIT_PROFILE || undefined);
}

export async function runList(_opts: Record<string, never>, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const entries = store.list(profileOf(ctx)).map((e) => ({ profile: e.profile ?? null, key: e.key, value: e.value }));
  await printList(ctx, entries, {
    columns: [
      { key: 'profile', header: 'PROFILE' },
      { key: 'key', header: 'KEY' },
      { key: 'value', header: 'VALUE' },
    ],
    noun: `settings (config file ${store.path})`,
    capNotice: false,
  });
}

export async function runGet(opts: { key: string }, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const value = store.getDisplay(opts.key, profileOf(ctx));
  if (value === undefined) {
    throw new JobfitError(`${opts.key} is not set${CONFIG_KEYS.find((k) => k.name === opts.key)?.scope === 'profile' ? ` in profile "${store.activeProfileName(profileOf(ctx))}"` : ''}.`);
  }
  ctx.io.stdout.write(`${value}\n`);
}

export async function runSet(opts: { key: string; value: string }, ctx: Context): Promise<void> {
  let value = opts.value;
  const secret = CONFIG_KEYS.find((k) => k.name === opts.key)?.secret;
  if (value === '-') {
    value = (await readInput(ctx.io, '-')).trim();
    if (!value) throw new UsageError(`No value for ${opts.key} on stdin.`);
  } else if (secret) {
    ctx.warn(`a key typed on the command line stays in your shell history; \`jobfit config set ${opts.key} -\` reads it from stdin instead.`);
  }
  const store = await ctx.config();
  const profile = profileOf(ctx);
  store.set(opts.key, value, profile);
  const scope = CONFIG_KEYS.find((k) => k.name === opts.key)?.scope;
  ctx.info(`Set ${opts.key} = ${store.getDisplay(opts.key, profile)}${scope === 'profile' ? ` in profile "${store.activeProfileName(profile)}"` : ''}.`);
}

export async function runUnset(opts: { key: string }, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const profile = profileOf(ctx);
  const removed = store.unset(opts.key, profile);
  if (removed) ctx.info(`Removed ${opts.key}.`);
  else ctx.info(`${opts.key} was not set.`);
}

export async function runPath(_opts: Record<string, never>, ctx: Context): Promise<void> {
  ctx.io.stdout.write(`${configFilePath(ctx.io.env)}\n`);
}

const KEYS_HELP = `\nKeys:\n${CONFIG_KEYS.map((k) => `  ${k.name.padEnd(34)} ${k.description}${k.scope === 'global' ? ' (not per profile)' : ''}`).join('\n')}\n`;

export function register(program: Command, deps: CommandDeps): void {
  const config = program
    .command('config')
    .description('Show and change settings (per profile: --profile NAME, else the current one)')
    .addHelpText('after', `${KEYS_HELP}${examples('jobfit config list', 'jobfit config set base_url https://api.example.com/v2 --profile work', 'jobfit config get default_mode')}`);

  config
    .command('list')
    .alias('ls')
    .description('Every setting, keys masked (one profile with --profile)')
    .addHelpText('after', examples('jobfit config list', 'jobfit config list --profile work -o json'))
    .action(async (_o: unknown, cmd: Command) => {
      await runList({}, deps.context(cmd));
    });

  config
    .command('get')
    .argument('<key>', 'setting name, e.g. base_url or invite_defaults.team_id')
    .description('Print one setting (keys masked)')
    .addHelpText('after', examples('jobfit config get base_url', 'jobfit config get test_key --profile work'))
    .action(async (key: string, _o: unknown, cmd: Command) => {
      await runGet({ key }, deps.context(cmd));
    });

  config
    .command('set')
    .argument('<key>', 'setting name')
    .argument('<value>', 'the value; - reads it from stdin (use it for keys)')
    .description('Change one setting')
    .addHelpText(
      'after',
      examples(
        'jobfit config set default_mode test',
        'jobfit config set invite_defaults.assessments 6,8',
        'printf %s "$KEY" | jobfit config set test_key - --profile work',
      ),
    )
    .action(async (key: string, value: string, _o: unknown, cmd: Command) => {
      await runSet({ key, value }, deps.context(cmd));
    });

  config
    .command('unset')
    .argument('<key>', 'setting name')
    .description('Remove one setting')
    .addHelpText('after', examples('jobfit config unset invite_defaults.team_id'))
    .action(async (key: string, _o: unknown, cmd: Command) => {
      await runUnset({ key }, deps.context(cmd));
    });

  config
    .command('path')
    .description('Print the path of the config file')
    .addHelpText('after', examples('jobfit config path', 'JOBFIT_CONFIG_DIR=/tmp/jf jobfit config path'))
    .action(async (_o: unknown, cmd: Command) => {
      await runPath({}, deps.context(cmd));
    });
}
