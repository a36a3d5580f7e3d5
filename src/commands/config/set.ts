/** config set KEY VALUE: change one setting; `-` reads the value from stdin (use it for keys). */
import { UsageError } from '../../core/errors.js';
import { readInput } from '../../core/input.js';
import { CONFIG_KEYS } from '../../config/keys.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { profileOf } from './list.js';

async function run(opts: { key: string; value: string }, ctx: Context): Promise<void> {
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

export default defineCommand({
  name: 'set',
  summary: 'Change one setting',
  args: [
    { name: 'key', description: 'setting name' },
    { name: 'value', description: 'the value; - reads it from stdin (use it for keys)' },
  ],
  examples: [
    'jobfit config set default_mode test',
    'jobfit config set invite_defaults.assessments 6,8',
    'printf %s "$KEY" | jobfit config set test_key - --profile work',
  ],
  run: (opts, ctx) => run({ key: opts.key, value: opts.value }, ctx),
});
