/** config list: every setting, keys masked (one profile with --profile). */
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { printList } from '../../format/output.js';

/** --profile, else JOBFIT_PROFILE; the store falls back to the current profile. */
export function profileOf(ctx: Context): string | undefined {
  return ctx.globals.profile ?? (ctx.io.env.JOBFIT_PROFILE || undefined);
}

async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const entries = store.list(profileOf(ctx)).map((e) => ({ profile: e.profile ?? null, key: e.key, value: e.value, ...(e.stored_in ? { stored_in: e.stored_in } : {}) }));
  await printList(ctx, entries, {
    columns: [
      { key: 'profile', header: 'PROFILE' },
      { key: 'key', header: 'KEY' },
      { key: 'value', header: 'VALUE' },
      // Where each API key is kept: the OS keyring, or this file.
      { key: 'stored_in', header: 'KEPT IN', format: (v) => (v === undefined || v === null ? '' : v === store.path ? 'config file' : String(v)) },
    ],
    noun: `settings (config file ${store.path})`,
    capNotice: false,
  });
}

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'Every setting, keys masked (one profile with --profile)',
  examples: ['jobfit config list', 'jobfit config list --profile work -o json'],
  run,
});
