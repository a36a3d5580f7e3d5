/** `jobfit stub outbox`: the emails and text messages the service would have sent. */
import * as z from 'zod';
import { printList } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { data, firstRefusal, notPositiveInt, numberOf, withStore } from './shared/stub-data.js';

/** --since: an ISO time, or how long ago (30s, 10m, 2h, 3d); undefined when it is neither. */
function sinceTime(value: string, now: Date): string | undefined {
  const v = value.trim();
  const rel = /^(\d+)\s*(s|m|h|d)$/.exec(v);
  if (rel) return new Date(now.getTime() - Number(rel[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 's']).toISOString();
  const t = Date.parse(v);
  if (!/^\d{4}-\d\d-\d\d/.test(v) || Number.isNaN(t)) return undefined;
  return new Date(t).toISOString();
}

const OutboxOptions = z
  .object({
    account: flag(z.string().optional(), { flag: '--account <id>', description: 'only this account' }),
    since: flag(z.string().optional(), { flag: '--since <time>', description: 'only those sent since: an ISO time, or 30s, 10m, 2h, 3d ago' }),
    limit: flag(z.string().optional(), { flag: '--limit <n>', description: 'only the newest N' }),
    data,
  })
  .superRefine(
    firstRefusal(
      (o) =>
        notPositiveInt(o.account, '--account') ??
        notPositiveInt(o.limit, '--limit') ??
        (o.since !== undefined && sinceTime(o.since, new Date()) === undefined
          ? `--since takes a time such as 2026-11-24T09:00:00Z or a duration such as 10m, 2h or 3d, got "${o.since}".`
          : undefined),
    ),
  );
type OutboxOptions = z.output<typeof OutboxOptions>;

async function run(opts: OutboxOptions, ctx: Context): Promise<void> {
  const since = opts.since === undefined ? undefined : sinceTime(opts.since, ctx.io.now());
  const { listOutbox } = await import('../../stub/index.js');
  const rows = await withStore(ctx, opts, (store) => listOutbox(store, { accountId: numberOf(opts.account), limit: numberOf(opts.limit), since }));
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

export default defineCommand({
  name: 'outbox',
  summary: 'List the emails and text messages the service would have sent',
  options: OutboxOptions,
  examples: ['jobfit stub outbox', 'jobfit stub outbox --since 10m', 'jobfit stub outbox --limit 5', 'jobfit stub outbox -o json | jq ".[] | select(.kind == \\"completion\\")"'],
  run,
});
