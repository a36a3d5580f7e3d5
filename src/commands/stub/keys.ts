/** `jobfit stub keys`: each seeded account with its live and test key (the stub's own fake keys, printed whole on purpose). */
import * as z from 'zod';
import { printList } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { data, withStore } from './shared/stub-data.js';

const KeysOptions = z.object({ data });
type KeysOptions = z.output<typeof KeysOptions>;

async function run(opts: KeysOptions, ctx: Context): Promise<void> {
  const { stubKeys } = await import('../../stub/index.js');
  const rows = await withStore(ctx, opts, (store) => stubKeys(store));
  await printList(ctx, rows, {
    columns: [
      { key: 'account_id', header: 'ACCOUNT', align: 'right' },
      { key: 'display_name', header: 'NAME' },
      { key: 'live_key', header: 'LIVE KEY' },
      { key: 'test_key', header: 'TEST KEY' },
    ],
    noun: 'accounts',
    capNotice: false,
  });
}

export default defineCommand({
  name: 'keys',
  summary: 'Print each seeded account with its live and test key',
  options: KeysOptions,
  examples: ['jobfit stub keys', 'jobfit stub keys -o json | jq -r ".[0].live_key"'],
  run,
});
