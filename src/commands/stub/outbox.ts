/** `jobfit stub outbox`: the emails and text messages the service would have sent. */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { UsageError } from '../../core/errors.js';
import { printList } from '../../format/output.js';
import { dataOption, examples, positiveInt, withStore } from './shared.js';

/** --since: an ISO time, or how long ago (30s, 10m, 2h, 3d). */
export function parseSince(value: string, now: Date): string {
  const v = value.trim();
  const rel = /^(\d+)\s*(s|m|h|d)$/.exec(v);
  if (rel) return new Date(now.getTime() - Number(rel[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 's']).toISOString();
  const t = Date.parse(v);
  if (!/^\d{4}-\d\d-\d\d/.test(v) || Number.isNaN(t)) throw new UsageError(`--since takes a time such as 2026-11-24T09:00:00Z or a duration such as 10m, 2h or 3d, got "${value}".`);
  return new Date(t).toISOString();
}

export async function outbox(opts: { data?: string; account?: string; limit?: string; since?: string }, ctx: Context): Promise<void> {
  const accountId = opts.account === undefined ? undefined : positiveInt(opts.account, '--account');
  const limit = opts.limit === undefined ? undefined : positiveInt(opts.limit, '--limit');
  const since = opts.since === undefined ? undefined : parseSince(opts.since, ctx.io.now());
  const { listOutbox } = await import('../../stub/lifecycle.js');
  const rows = await withStore(ctx, opts, (store) => listOutbox(store, { accountId, limit, since }));
  await printList(ctx, rows, {
    columns: [
      { key: 'id', header: 'ID', align: 'right' },
      { key: 'created_at', header: 'SENT' },
      { key: 'channel', header: 'CHANNEL' },
      { key: 'kind', header: 'KIND' },
      { key: 'recipient', header: 'TO' },
      { key: 'subject', header: 'SUBJECT' },
    ],
    noun: 'messages',
    capNotice: false,
  });
}

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('outbox')
      .description('List the emails and text messages the service would have sent')
      .option('--account <id>', 'only this account')
      .option('--since <time>', 'only those sent since: an ISO time, or 30s, 10m, 2h, 3d ago')
      .option('--limit <n>', 'only the newest N'),
  )
    .addHelpText(
      'after',
      examples('jobfit stub outbox', 'jobfit stub outbox --since 10m', 'jobfit stub outbox --limit 5', 'jobfit stub outbox -o json | jq ".[] | select(.kind == \\"completion\\")"'),
    )
    .action(async (o: { data?: string; account?: string; limit?: string; since?: string }, cmd: Command) => outbox(o, deps.context(cmd)));
}
