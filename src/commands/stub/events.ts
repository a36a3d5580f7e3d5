/** `jobfit stub events`: the events the stub emitted, with their delivery attempts; `--resend` sends one again. */
import * as z from 'zod';
import { JobfitError } from '../../core/errors.js';
import { printList, resolveFormat } from '../../format/output.js';
import type { EventView } from '../../stub/index.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { examples } from '../kit/help.js';
import { data, deliveryNote, firstRefusal, lastOutcome, notEventType, notPositiveInt, numberOf, refused, withStore } from './shared/stub-data.js';

const EventsOptions = z
  .object({
    account: flag(z.string().optional(), { flag: '--account <id>', description: 'only this account' }),
    type: flag(z.string().optional(), { flag: '--type <type>', description: 'only this event type, e.g. test_taker.created' }),
    limit: flag(z.string().optional(), { flag: '--limit <n>', description: 'the newest N events (default 100)' }),
    envelopes: flag(z.boolean().optional(), { flag: '--envelopes', description: 'print only the event envelopes as delivered (with -o json|ndjson)' }),
    resend: flag(z.string().optional(), { flag: '--resend <event-id>', description: 'send one event again, now, to the endpoint in force' }),
    data,
  })
  // --resend sends one event: the list's filters are not looked at.
  .superRefine(firstRefusal((o) => (o.resend !== undefined ? undefined : (notPositiveInt(o.account, '--account') ?? notPositiveInt(o.limit, '--limit') ?? notEventType(o.type)))));
type EventsOptions = z.output<typeof EventsOptions>;

async function resend(o: EventsOptions, eventId: string, ctx: Context): Promise<void> {
  const wh = await import('../../stub/index.js');
  await withStore(ctx, o, async (store) => {
    let r: ReturnType<typeof wh.resendEvent>;
    try {
      r = wh.resendEvent(store, eventId);
    } catch (err) {
      refused(err, wh.WebhookSettingsError);
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

async function run(o: EventsOptions, ctx: Context): Promise<void> {
  if (o.resend !== undefined) return resend(o, o.resend.trim(), ctx);
  const { listEventDeliveries } = await import('../../stub/index.js');
  const views = await withStore(ctx, o, (store) => listEventDeliveries(store, { accountId: numberOf(o.account), type: o.type, limit: numberOf(o.limit) ?? 100 }));
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

export default defineCommand({
  name: 'events',
  summary: 'List the events the stub emitted, with their delivery attempts and outcomes',
  options: EventsOptions,
  // Unlike other commands', this help ends right after its last example.
  helpAfter: `
DELIVERY is delivered, pending (a retry is due), sending, failed (gave up) or
skipped (delivery was off when the event happened; the reason says why).
${examples(
    'jobfit stub events',
    "jobfit stub events -o json | jq '.[] | {type, delivery, attempts}'",
    'jobfit stub events --type test_taker.created --envelopes -o ndjson',
    'jobfit stub events --resend evt_0123456789abcdef01234567',
  ).trimEnd()}`,
  run,
});
