import type { Context } from '../kit/context.js';
import { keyringEntryText } from '../../config/keyring.js';
import { configFilePath } from '../../config/paths.js';
import { printObject } from '../../format/output.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';

/** What whoami prints: safe to show (the key masked), stable for scripts. */
export interface WhoAmI {
  account: { id: unknown; display_name: unknown };
  mode: string | null;
  base_url: string;
  key: string;
  key_source: string;
  profile: string | null;
  embedded_stub: boolean;
}

const SOURCE_TEXT: Record<string, string> = {
  env: 'JOBFIT_API_KEY',
  flag: '--base-url (no key)',
  'embedded-stub': 'embedded stub (no service configured)',
};

function profileSource(env: Record<string, string | undefined>, profile: string, c: { keyInKeyring?: boolean; mode?: 'live' | 'test' }, file: string): string {
  if (c.keyInKeyring) return `profile "${profile}" in the ${keyringEntryText(env, profile, c.mode ?? 'live')}`;
  return `profile "${profile}" in ${file}`;
}

async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
  checkOutputOptions(ctx, {});
  const client = await ctx.client();
  const account = (await client.getAccount()) as { id?: unknown; display_name?: unknown; mode?: unknown };
  const c = ctx.connection!;
  const who: WhoAmI = {
    account: { id: account.id ?? null, display_name: account.display_name ?? null },
    mode: (typeof account.mode === 'string' ? account.mode : c.mode) ?? null,
    base_url: c.baseUrl,
    key: c.maskedKey,
    key_source: SOURCE_TEXT[c.source] ?? (c.source.startsWith('profile:') ? profileSource(ctx.io.env, c.source.slice(8), c, configFilePath(ctx.io.env)) : c.source),
    profile: c.profileName ?? null,
    embedded_stub: c.embedded,
  };
  await printObject(ctx, who, {
    columns: [
      { key: 'account', header: 'ACCOUNT', format: () => `${who.account.display_name} (id ${who.account.id})` },
      { key: 'mode', header: 'MODE' },
      // The embedded stub has no address a person could use (JSON keeps the URL the client was given).
      { key: 'base_url', header: 'BASE URL', format: () => (c.embedded ? 'none: the embedded stub answers in this process' : who.base_url) },
      { key: 'key', header: 'KEY' },
      { key: 'key_source', header: 'KEY FROM' },
      { key: 'profile', header: 'PROFILE' },
    ],
    knownFields: ['account.id', 'account.display_name'],
  });
}

export default defineCommand({
  description: 'Show the account, mode, base URL and key (masked) in use, and where the key came from',
  examples: ['jobfit whoami', 'jobfit --test whoami', 'jobfit -p work whoami -o json | jq -r .account.display_name'],
  run,
});
