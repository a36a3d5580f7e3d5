/** logout: forget a profile and its keys (the current profile unless --profile is given). */
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { UsageError } from '../../core/errors.js';
import { quoteWord } from '../../format/command-line.js';

export interface LogoutOptions {
  profile?: string;
}

/**
 * Forgets the whole profile (keys, base URL, invite defaults): a profile
 * without keys would make every command fail instead of falling back to the
 * embedded stub or another profile.
 */
async function run(opts: LogoutOptions, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const name = opts.profile ?? ctx.io.env.JOBFIT_PROFILE ?? store.currentProfileName();
  if (!name) {
    throw new UsageError('No profile to log out of: none is configured.', 'see `jobfit config list`');
  }
  const profile = store.getProfile(name);
  if (!profile) {
    const names = store.profileNames();
    throw new UsageError(`No profile named "${name}".`, names.length ? `known profiles: ${names.join(', ')}` : 'no profiles are configured');
  }
  // What login put in the OS keyring goes too; an entry that cannot be removed is named, with the way to remove it.
  const inKeyring = (['live', 'test'] as const).filter((m) => profile.keyring?.[m]);
  if (inKeyring.length) {
    const { deleteKeyringKey, keyringAccount, KEYRING_SERVICE } = await import('../../config/keyring.js');
    for (const mode of inKeyring) {
      const gone = await deleteKeyringKey(ctx.io.env, name, mode);
      if (gone.ok) ctx.info(`Removed the ${mode} key from the OS keyring.`);
      else {
        ctx.warn(
          `the ${mode} key could not be removed from the OS keyring (${gone.reason}); remove the entry service ${KEYRING_SERVICE}, account ${keyringAccount(ctx.io.env, name, mode)} by hand (on Linux: secret-tool clear service ${KEYRING_SERVICE} username ${quoteWord(keyringAccount(ctx.io.env, name, mode), 'posix')}).`,
        );
      }
    }
  }
  store.deleteProfile(name);
  const now = store.currentProfileName();
  ctx.info(`Logged out: profile "${name}" and its keys were removed from ${store.path}.`);
  if (now) ctx.info(`The current profile is now "${now}".`);
  else ctx.info('No profile is left; commands use the embedded stub until `jobfit login`.');
}

export default defineCommand({
  description: 'Forget a profile and its keys (the current profile unless --profile is given)',
  examples: ['jobfit logout', 'jobfit logout --profile staging'],
  // The profile is the global --profile.
  run: (_opts, ctx) => run({ profile: ctx.globals.profile }, ctx),
});
