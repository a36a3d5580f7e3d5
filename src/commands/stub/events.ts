/** `jobfit stub events`: the events the stub emitted, with their delivery attempts; `--resend` sends one again. */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { printList, resolveFormat } from '../../format/output.js';
import type { EventView } from '../../stub/webhooks.js';
import { dataOption, deliveryNote, lastOutcome, positiveInt, withStore } from './shared.js';

export interface StubEventsOptions {
  data?: string;
  account?: string;
  type?: string;
  limit?: string;
  envelopes?: boolean;
  resend?: string;
}

async function resend(o: StubEventsOptions, ctx: Context): Promise<void> {
  const eventId = o.resend!.trim();
  const wh = await import('../../stub/webhooks.js');
  await withStore(ctx, o, async (store) => {
    let r: ReturnType<typeof wh.resendEvent>;
    try {
      r = wh.resendEvent(store, eventId);
    } catch (err) {
      if (err instanceof wh.WebhookSettingsError) throw new JobfitError(err.message);
      throw err;
    }
    if (r.state === 'skipped') throw new JobfitError(`Event ${eventId} was not sent again: ${r.reason}.`);
    await deliveryNote(ctx, store, eventId);
  });
}

function objectId(v: EventView): string {
  const o = (v.event as { data?: { object?: Record<string, unknown> } }).data?.object ?? {};
  if (o.object === 'assigned_assessment') return `test_taker ${String(o.test_taker_id)}`;
  return `${String(o.object ?? '')} ${String(o.id ?? '')}`.trim();
}

export async function stubEvents(o: StubEventsOptions, ctx: Context): Promise<void> {
  if (o.resend !== undefined) return resend(o, ctx);
  const accountId = o.account === undefined ? undefined : positiveInt(o.account, '--account');
  const limit = o.limit === undefined ? 100 : positiveInt(o.limit, '--limit');
  if (o.type !== undefined) {
    const { EVENT_TYPES } = await import('../../api/schemas.js');
    if (!(EVENT_TYPES as readonly string[]).includes(o.type)) throw new UsageError(`Unknown event type "${o.type}".`, `known types: ${EVENT_TYPES.join(', ')}`);
  }
  const { listEventDeliveries } = await import('../../stub/webhooks.js');
  const views = await withStore(ctx, o, (store) => listEventDeliveries(store, { accountId, type: o.type, limit }));
  if (o.envelopes) {
    // Exactly what a receiver gets, for replaying into an app.
    await printList(
      ctx,
      views.map((v) => v.event),
      { columns: [], noun: 'events', capNotice: false, allowed: ['json', 'ndjson'] },
    );
    return;
  }
  const format = resolveFormat(ctx);
  const rows = format === 'json' || format === 'ndjson' ? views : views.map((v) => ({ ...v, attempt_count: v.attempts.length, last: lastOutcome(v), resource: objectId(v) }));
  await printList(
    ctx,
    rows,
    {
      columns: [
        { key: 'created_at', header: 'CREATED' },
        { key: 'type', header: 'TYPE' },
        { key: 'id', header: 'EVENT' },
        { key: 'resource', header: 'RESOURCE' },
        { key: 'delivery', header: 'DELIVERY' },
        { key: 'attempt_count', header: 'ATTEMPTS', align: 'right' },
        { key: 'last', header: 'LAST ATTEMPT / REASON' },
      ],
      csvColumns: ['id', 'type', 'created_at', 'account_id', 'team_id', 'delivery', 'reason', 'next_attempt_at', 'attempt_count', 'last'],
      noun: 'events',
      capNotice: false,
    },
  );
}

export function register(stub: Command, deps: CommandDeps): void {
  dataOption(
    stub
      .command('events')
      .description('List the events the stub emitted, with their delivery attempts and outcomes')
      .option('--account <id>', 'only this account')
      .option('--type <type>', 'only this event type, e.g. test_taker.created')
      .option('--limit <n>', 'the newest N events (default 100)')
      .option('--envelopes', 'print only the event envelopes as delivered (with -o json|ndjson)')
      .option('--resend <event-id>', 'send one event again, now, to the endpoint in force'),
  )
    .addHelpText(
      'after',
      `
DELIVERY is delivered, pending (a retry is due), sending, failed (gave up) or
skipped (delivery was off when the event happened; the reason says why).

Examples:
  $ jobfit stub events
  $ jobfit stub events -o json | jq '.[] | {type, delivery, attempts}'
  $ jobfit stub events --type test_taker.created --envelopes -o ndjson
  $ jobfit stub events --resend evt_0123456789abcdef01234567`,
    )
    .action(async (o: StubEventsOptions, cmd: Command) => stubEvents(o, deps.context(cmd)));
}
