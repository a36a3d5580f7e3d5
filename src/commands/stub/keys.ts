/** `jobfit stub keys`: each seeded account with its live and test key (the stub's own fake keys, printed whole on purpose). */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { printList } from '../../format/output.js';
import { dataOption, examples, withStore } from './shared.js';

export async function keys(opts: { data?: string }, ctx: Context): Promise<void> {
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

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(stub.command('keys').description('Print each seeded account with its live and test key'))
    .addHelpText('after', examples('jobfit stub keys', 'jobfit stub keys -o json | jq -r ".[0].live_key"'))
    .action(async (o: { data?: string }, cmd: Command) => keys(o, deps.context(cmd)));
}
