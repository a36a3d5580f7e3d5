/**
 * `jobfit stub webhooks` (the operator's settings: endpoint, account flag,
 * per-team flags, retry schedule) and `jobfit stub events` (events with their
 * delivery attempts). Registered under `stub` by registerStubWebhookCommands.
 */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { printList, printObject, resolveFormat } from '../../format/output.js';
import type { Store } from '../../stub/store.js';
import type { EventView, WebhookSettingsChange } from '../../stub/webhooks.js';

async function withStubStore<T>(ctx: Context, data: string | undefined, fn: (store: Store) => Promise<T> | T): Promise<T> {
  const { openStore } = await import('../../stub/store.js');
  let dir = data;
  if (!dir) {
    const { defaultDataDir } = await import('../../stub/paths.js');
    dir = defaultDataDir(ctx.io.env);
  }
  const store = await openStore(dir);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

function id(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${what} must be a positive integer, got "${value}".`);
  return Number(value);
}

// ------------------------------------------------------------------ stub webhooks

export interface StubWebhooksOptions {
  data?: string;
  account?: string;
  endpoint?: string;
  removeEndpoint?: boolean;
  enable?: boolean;
  disable?: boolean;
  team?: string[];
  allTeams?: boolean;
  retrySchedule?: string;
  rotateSecret?: boolean;
}

export async function stubWebhooks(o: StubWebhooksOptions, ctx: Context): Promise<void> {
  if (o.enable && o.disable) throw new UsageError('Give --enable or --disable, not both.');
  if (o.endpoint !== undefined && o.removeEndpoint) throw new UsageError('Give --endpoint URL or --remove-endpoint, not both.');
  const teamIds = (o.team ?? []).flatMap((t) => t.split(',')).map((t) => id(t, '--team'));
  const toggle = o.enable ? true : o.disable ? false : undefined;
  if ((teamIds.length > 0 || o.allTeams) && toggle === undefined) throw new UsageError('--team and --all-teams need --enable or --disable.');
  const wh = await import('../../stub/webhooks.js');
  await withStubStore(ctx, o.data, async (store) => {
    const accountId = o.account === undefined ? wh.accountIds(store)[0] : id(o.account, '--account');
    if (accountId === undefined) throw new UsageError('The stub has no account.', 'run `jobfit stub reset`');
    const current = wh.getWebhookSettings(store, accountId);
    if (!current) throw new UsageError(`Account ${accountId} does not exist in the stub.`, 'see `jobfit stub keys` for the accounts');
    const change: WebhookSettingsChange = {};
    if (o.endpoint !== undefined) change.endpoint = o.endpoint;
    if (o.removeEndpoint) change.endpoint = null;
    if (o.retrySchedule !== undefined) change.retrySchedule = o.retrySchedule;
    if (o.rotateSecret) change.rotateSecret = true;
    if (teamIds.length > 0 || o.allTeams) {
      const ids = o.allTeams ? current.teams.map((t) => t.id) : teamIds;
      change.teams = ids.map((t) => ({ id: t, enabled: toggle as boolean }));
      // Teams switched on are of no use while the account is off: one command is enough.
      if (toggle) change.enabled = true;
    } else if (toggle !== undefined) {
      change.enabled = toggle;
    }
    let after: typeof current;
    try {
      after = Object.keys(change).length > 0 ? wh.setWebhookSettings(store, accountId, change) : current;
    } catch (err) {
      if (err instanceof wh.WebhookSettingsError) throw new UsageError(err.message);
      throw err;
    }
    if (after.webhooks_enabled && !after.webhook_endpoint) ctx.warn('webhooks are enabled but the account has no endpoint: nothing is sent (set one with --endpoint URL).');
    if (after.webhooks_enabled && after.teams.every((t) => !t.webhooks_enabled)) {
      ctx.info('No team has delivery switched on yet: enable one with --team ID --enable, or --all-teams --enable.');
    }
    await printObject(ctx, after);
  });
}

// ------------------------------------------------------------------ stub events

export interface StubEventsOptions {
  data?: string;
  account?: string;
  type?: string;
  limit?: string;
  envelopes?: boolean;
  resend?: string;
}

/** What became of an event's delivery, once the first attempt of this process has finished. */
async function deliveryNote(ctx: Context, store: Store, eventId: string): Promise<void> {
  const wh = await import('../../stub/webhooks.js');
  await wh.flushDeliveries();
  const v = wh.listEventDeliveries(store, { limit: 1_000_000 }).find((e) => e.id === eventId);
  if (!v) return;
  if (v.delivery === 'skipped') ctx.info(`Not sent: ${v.reason ?? 'delivery is off'}.`);
  else if (v.delivery === 'delivered') ctx.info(`Delivered to ${v.attempts.at(-1)?.url ?? 'the endpoint'} (${lastOutcome(v)}).`);
  else ctx.info(`Delivery ${v.delivery}: ${lastOutcome(v)}.`);
}

async function resend(o: StubEventsOptions, ctx: Context): Promise<void> {
  const eventId = o.resend!.trim();
  const wh = await import('../../stub/webhooks.js');
  await withStubStore(ctx, o.data, async (store) => {
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

// ------------------------------------------------------------------ stub trigger

export interface StubTriggerOptions {
  data?: string;
  account?: string;
  testTaker?: string;
}

export async function stubTrigger(type: string, o: StubTriggerOptions, ctx: Context): Promise<void> {
  const lifecycle = await import('../../stub/lifecycle.js');
  if (!(lifecycle.TRIGGER_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`Unknown event type "${type}".`, `known types: ${lifecycle.TRIGGER_TYPES.join(', ')}`);
  }
  const testTakerId = o.testTaker === undefined ? undefined : id(o.testTaker, '--test-taker');
  const accountId = o.account === undefined ? undefined : id(o.account, '--account');
  await withStubStore(ctx, o.data, async (store) => {
    let ev: ReturnType<typeof lifecycle.trigger>;
    try {
      ev = lifecycle.trigger(store, type as (typeof lifecycle.TRIGGER_TYPES)[number], { testTakerId, accountId });
    } catch (err) {
      if (err instanceof lifecycle.LifecycleError) throw new JobfitError(err.message);
      throw err;
    }
    await deliveryNote(ctx, store, ev.id);
    await printObject(ctx, ev.payload as unknown as Record<string, unknown>);
  });
}

function lastOutcome(v: EventView): string {
  const a = v.attempts.at(-1);
  if (!a) return v.reason ?? '';
  const what = a.response_status !== null ? `${a.response_status}` : (a.error ?? 'failed');
  return `${what}${a.duration_ms !== null ? ` in ${a.duration_ms} ms` : ''}${v.delivery === 'pending' && v.next_attempt_at ? `; retry at ${v.next_attempt_at}` : ''}`;
}

function objectId(v: EventView): string {
  const o = (v.event as { data?: { object?: Record<string, unknown> } }).data?.object ?? {};
  if (o.object === 'assigned_assessment') return `test_taker ${String(o.test_taker_id)}`;
  return `${String(o.object ?? '')} ${String(o.id ?? '')}`.trim();
}

export async function stubEvents(o: StubEventsOptions, ctx: Context): Promise<void> {
  if (o.resend !== undefined) return resend(o, ctx);
  const accountId = o.account === undefined ? undefined : id(o.account, '--account');
  const limit = o.limit === undefined ? 100 : id(o.limit, '--limit');
  if (o.type !== undefined) {
    const { EVENT_TYPES } = await import('../../api/schemas.js');
    if (!(EVENT_TYPES as readonly string[]).includes(o.type)) throw new UsageError(`Unknown event type "${o.type}".`, `known types: ${EVENT_TYPES.join(', ')}`);
  }
  const { listEventDeliveries } = await import('../../stub/webhooks.js');
  const views = await withStubStore(ctx, o.data, (store) => listEventDeliveries(store, { accountId, type: o.type, limit }));
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

// ------------------------------------------------------------------ register

const dataOpt = (c: Command) => c.option('--data <dir>', 'stub data directory (default: <config dir>/stub)');
const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds `webhooks` and `events` to the `stub` command. */
export function registerStubWebhookCommands(stub: Command, deps: CommandDeps): void {
  dataOpt(
    stub
      .command('webhooks')
      .description("Show or change the stub's webhook settings: endpoint, account flag, per-team flags, retry schedule")
      .option('--account <id>', 'account (default: the first)')
      .option('--endpoint <url>', "set the account's webhook endpoint")
      .option('--remove-endpoint', "remove the account's webhook endpoint")
      .option('--enable', 'switch delivery on (the account, or the --team given)')
      .option('--disable', 'switch delivery off (the account, or the --team given)')
      .option('--team <id>', 'the team to --enable/--disable (repeatable, or a,b)', collect)
      .option('--all-teams', 'every team of the account, with --enable/--disable')
      .option('--retry-schedule <delays>', 'waits between attempts, e.g. 1s,2s,4s,8s (attempts = delays + 1)')
      .option('--rotate-secret', 'a new signing secret for the endpoint (the old one stops working at once)'),
  )
    .addHelpText(
      'after',
      `
Events are delivered only when the account flag is on, the account has an
endpoint, and the participant's team has delivery on (new teams: off).
--team ID --enable and --all-teams --enable switch the account flag on too.

Every delivery is signed with the endpoint's signing_secret (a jobfit-signature
header, checked by \`jobfit webhook verify\`); this is the stub's own scheme,
as the service's reference does not say how it signs.

Examples:
  $ jobfit stub webhooks
  $ jobfit stub webhooks --endpoint http://127.0.0.1:3000/webhooks --all-teams --enable
  $ jobfit stub webhooks -o json | jq -r .signing_secret
  $ jobfit stub webhooks --team 11 --enable
  $ jobfit stub webhooks --retry-schedule 500ms,1s,2s`,
    )
    .action(async (o: StubWebhooksOptions, cmd: Command) => stubWebhooks(o, deps.context(cmd)));

  dataOpt(
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

  dataOpt(
    stub
      .command('trigger')
      .description('Emit one webhook event about existing data, without driving the lifecycle')
      .argument('<event>', 'invitation.accepted, test_taker.created, test_taker.assessment_completed or career_navigation_profile.created')
      .option('--test-taker <id>', 'the test taker it is about (default: the newest one the event fits)')
      .option('--account <id>', 'without --test-taker: the account (default: the first)'),
  )
    .addHelpText(
      'after',
      `
The payload is built from the test taker's current state, as the lifecycle
would send it, and goes through the same delivery (gates, signature, retries).
Prints the event; says on stderr whether it was delivered, or why not.

Examples:
  $ jobfit stub trigger test_taker.created
  $ jobfit stub trigger test_taker.assessment_completed --test-taker 200100
  $ jobfit stub trigger career_navigation_profile.created -o json | jq .id`,
    )
    .action(async (type: string, o: StubTriggerOptions, cmd: Command) => stubTrigger(type, o, deps.context(cmd)));
}
