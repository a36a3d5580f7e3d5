/**
 * `jobfit stub …`: run and drive the embedded stub. Every command takes
 * `--data DIR` (default `<config dir>/stub`) and works on the same SQLite file
 * as a running `stub serve`, so lifecycle commands can be run beside it.
 * The stub's keys are its own fake keys and are printed whole on purpose.
 */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../config/loopback.js';
import { jsonText, printList } from '../../format/output.js';
import { safeText, safeLine } from '../../format/sanitize.js';
import type { Store } from '../../stub/store.js';
import { registerStubWebhookCommands } from '../webhook/stub-commands.js';

const dataOption = (cmd: Command) => cmd.option('--data <dir>', 'stub data directory (default: <config dir>/stub)');

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

async function dataDir(ctx: Context, opts: { data?: string }): Promise<string> {
  if (opts.data) return opts.data;
  const { defaultDataDir } = await import('../../stub/paths.js');
  return defaultDataDir(ctx.io.env);
}

async function withStore<T>(ctx: Context, opts: { data?: string }, fn: (store: Store) => Promise<T> | T): Promise<T> {
  const { openStore } = await import('../../stub/store.js');
  const store = await openStore(await dataDir(ctx, opts));
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

function positiveInt(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${what} must be a positive integer, got "${value}".`);
  return Number(value);
}

function fraction(value: string, what: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${what} must be a number between 0 and 1, got "${value}".`);
  return n;
}

/** Lifecycle refusals (unknown id, already accepted) are the user's input problem: one sentence, exit 1. */
function lifecycleError(err: unknown): never {
  if (err instanceof Error && err.name === 'LifecycleError') throw new JobfitError(err.message);
  throw err;
}

// ------------------------------------------------------------------ serve

export interface ServeOptions {
  data?: string;
  port: string;
  host: string;
  faults?: string;
  minimalFields?: boolean;
}

export async function serve(opts: ServeOptions, ctx: Context): Promise<void> {
  const port = positiveInt(opts.port, '--port');
  const { parseFaults } = await import('../../stub/faults.js');
  let faults: ReturnType<typeof parseFaults> | undefined;
  try {
    faults = opts.faults ? parseFaults(opts.faults) : undefined;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { startStub } = await import('../../stub/index.js');
  let stub: Awaited<ReturnType<typeof startStub>>;
  const dir = await dataDir(ctx, opts);
  try {
    stub = await startStub({ dataDir: dir, port, host: opts.host, faults, minimalFields: opts.minimalFields });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new JobfitError(`Port ${port} is already in use.`, { hint: 'Pick another with --port, or --port 0 for a free one.' });
    throw err;
  }
  const { startDeliveryLoop } = await import('../../stub/webhooks.js');
  const loop = startDeliveryLoop(stub.store);
  // `login` offers this stub as its base URL, and `webhook listen` finds its data from the URL.
  const { noteServedStub } = await import('../../config/served-stubs.js');
  const unnote = noteServedStub(ctx.io.env, stub.origin, dir);
  const out = ctx.io.stdout;
  const boundHost = stub.bound.slice(0, stub.bound.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  const everywhere = boundHost === '0.0.0.0' || boundHost === '::';
  // The base URL first (scripts read it), then the address really bound when
  // the URL does not show it (0.0.0.0: every interface, reached here as 127.0.0.1).
  const boundNote = stub.origin.endsWith(`//${stub.bound}`) ? '' : ` (bound to ${stub.bound}${everywhere ? ', every interface' : ''})`;
  out.write(`Stub listening on ${stub.url}${boundNote}\n`);
  for (const k of stub.keys) {
    out.write(`  account ${k.account_id} (${safeLine(k.display_name)})\n    live key: ${k.live_key}\n    test key: ${k.test_key}\n`);
  }
  if (!isLoopbackHost(boundHost)) {
    ctx.warn(
      `the stub is reachable beyond this machine (${stub.bound}), and its keys are the published seed keys: anyone who can reach it can read and change its data, people's names and emails included. Use --host 127.0.0.1 unless that is what you want.`,
    );
  }
  if (faults) ctx.info(`Faults on: ${opts.faults}`);
  if (opts.minimalFields) ctx.info('Minimal fields: test taker and career navigation profile list items carry only what the reference states.');
  ctx.info(`Data: ${stub.store.path}`);
  ctx.info('Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) resolve();
    else ctx.io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  unnote();
  await loop.stop();
  await stub.close();
  ctx.info('Stub stopped.');
}

// ------------------------------------------------------------------ keys, reset, seed

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

export async function reset(opts: { data?: string; yes?: boolean }, ctx: Context): Promise<void> {
  // On a terminal, a slip of the fingers must not wipe an afternoon's invitations.
  if (!opts.yes && ctx.io.canPrompt) {
    const sure = await (await ctx.prompter()).confirm(
      `Restore the stub data in ${await dataDir(ctx, opts)} to the seed? Every invitation, test taker, event and message made since is removed.`,
      { default: false },
    );
    if (!sure) {
      ctx.info('Nothing was changed.');
      return;
    }
  }
  await withStore(ctx, opts, (store) => store.reset());
  ctx.info('Stub data restored to the seed.');
}

export interface SeedOptions {
  data?: string;
  testTakers: string;
  teams?: string;
  complete?: string;
  account?: string;
}

export async function seed(opts: SeedOptions, ctx: Context): Promise<void> {
  const count = positiveInt(opts.testTakers, '--test-takers');
  const teamsWanted = opts.teams === undefined ? undefined : positiveInt(opts.teams, '--teams');
  const completeFraction = opts.complete === undefined ? undefined : fraction(opts.complete, '--complete');
  const accountId = opts.account === undefined ? 1 : positiveInt(opts.account, '--account');
  await withStore(ctx, opts, async (store) => {
    const teams = store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = ? ORDER BY id', accountId).map((t) => t.id);
    if (teams.length === 0) throw new UsageError(`Account ${accountId} does not exist in the stub.`, 'See `jobfit stub keys` for the accounts.');
    const use = teams.slice(0, Math.min(teamsWanted ?? 1, teams.length));
    if (teamsWanted !== undefined && teamsWanted > teams.length) ctx.warn(`Account ${accountId} has ${teams.length} teams; seeding those.`);
    // Every invitation of a `stub seed` is accepted (a test taker); --complete says how many finished everything.
    const c = completeFraction ?? 0.5;
    const mix = { pending: 0, accepted: 1 - c, partial: 0, complete: c };
    const started = Date.now();
    let added = 0;
    let complete = 0;
    for (const [i, teamId] of use.entries()) {
      const share = Math.floor(count / use.length) + (i < count % use.length ? 1 : 0);
      if (share === 0) continue;
      const r = await store.seedPeople(accountId, teamId, share, { mix });
      added += r.testTakers;
      complete += r.completed;
    }
    ctx.info(`Added ${added} test takers (${complete} complete) to account ${accountId} across ${use.length} team(s) in ${((Date.now() - started) / 1000).toFixed(1)}s.`);
  });
}

// ------------------------------------------------------------------ lifecycle

export async function acceptCmd(id: string, opts: { data?: string }, ctx: Context): Promise<void> {
  const invitationId = positiveInt(id, 'The invitation id');
  const { accept } = await import('../../stub/lifecycle.js');
  const r = await withStore(ctx, opts, async (store) => {
    try {
      const result = accept(store, invitationId);
      await flushWebhooks();
      return result;
    } catch (err) {
      lifecycleError(err);
    }
  });
  writeJsonOrLine(ctx, { invitation_id: r.invitationId, test_taker_id: r.testTakerId, accepted_at: r.acceptedAt }, `Invitation ${r.invitationId} accepted: test taker ${r.testTakerId}.`);
}

const CHOICES = ['personality', 'thinking', 'interests', 'prescreen', 'all'] as const;

export async function completeCmd(id: string, opts: { data?: string; assessment: string; language: string }, ctx: Context): Promise<void> {
  const testTakerId = positiveInt(id, 'The test taker id');
  const choice = opts.assessment.toLowerCase();
  if (!(CHOICES as readonly string[]).includes(choice)) throw new UsageError(`--assessment must be one of ${CHOICES.join(', ')}; got "${opts.assessment}".`);
  if (!/^[a-z]{2}(-[A-Za-z]{2})?$/.test(opts.language)) throw new UsageError(`--language must be a locale id such as en or es; got "${opts.language}".`);
  const { complete } = await import('../../stub/lifecycle.js');
  const r = await withStore(ctx, opts, async (store) => {
    try {
      const result = complete(store, testTakerId, { assessment: choice as (typeof CHOICES)[number], language: opts.language });
      await flushWebhooks();
      return result;
    } catch (err) {
      lifecycleError(err);
    }
  });
  const names = r.completed.map((c) => c.test_id).join(', ');
  let line = `Test taker ${r.testTakerId}: completed test_id ${names}.`;
  if (r.careerNavigationProfileId) line += ` Career navigation profile ${r.careerNavigationProfileId} created.`;
  if (r.allComplete) line += ' Every assigned assessment is complete.';
  if (r.notifiedInviter) line += ` Completion email to ${r.notifiedInviter} recorded in the outbox.`;
  writeJsonOrLine(
    ctx,
    {
      test_taker_id: r.testTakerId,
      completed: r.completed,
      career_navigation_profile_id: r.careerNavigationProfileId,
      all_complete: r.allComplete,
      notified_inviter: r.notifiedInviter,
    },
    line,
  );
}

/** The first webhook attempt is made by this process; let it finish before we exit. */
async function flushWebhooks(): Promise<void> {
  const { flushDeliveries } = await import('../../stub/webhooks.js');
  await flushDeliveries();
}

function writeJsonOrLine(ctx: Context, obj: unknown, line: string): void {
  if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') ctx.io.stdout.write(`${jsonText(obj, ctx.globals.output === 'json' ? 2 : undefined)}\n`);
  // The line names people and addresses from the stub's data (a CSV's, once imported).
  else ctx.io.stdout.write(`${safeText(line)}\n`);
}

// ------------------------------------------------------------------ outbox, events

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

export async function events(opts: { data?: string; account?: string; type?: string }, ctx: Context): Promise<void> {
  const accountId = opts.account === undefined ? undefined : positiveInt(opts.account, '--account');
  const { listEvents } = await import('../../stub/lifecycle.js');
  const rows = await withStore(ctx, opts, (store) => listEvents(store, { accountId }));
  const shown = rows.filter((e) => !opts.type || e.type === opts.type);
  const asJson = ctx.globals.output === 'json' || ctx.globals.output === 'ndjson' || ctx.globals.output === 'csv';
  // JSON: the envelopes exactly as a webhook receiver gets them.
  if (asJson && ctx.globals.output !== 'csv') {
    await printList(ctx, shown.map((e) => e.payload), { columns: [], capNotice: false });
    return;
  }
  await printList(
    ctx,
    shown.map((e) => ({ id: e.id, type: e.type, created_at: e.created_at, account_id: e.account_id, team_id: e.team_id, object_id: (e.payload.data.object as { id?: unknown }).id ?? null })),
    {
      columns: [
        { key: 'created_at', header: 'CREATED' },
        { key: 'type', header: 'TYPE' },
        { key: 'id', header: 'EVENT' },
        { key: 'account_id', header: 'ACCOUNT', align: 'right' },
        { key: 'team_id', header: 'TEAM', align: 'right' },
        { key: 'object_id', header: 'OBJECT' },
      ],
      noun: 'events',
      capNotice: false,
    },
  );
}

// ------------------------------------------------------------------ register

export function register(program: Command, deps: CommandDeps): void {
  const stub = program
    .command('stub')
    .description('Run and drive the embedded local stub of the service (every command takes --data DIR)')
    .addHelpText('after', examples('jobfit stub serve --port 4010', 'jobfit stub keys -o json', 'jobfit stub accept 100001', 'jobfit stub complete 500001 --assessment all'));

  dataOption(
    stub
      .command('serve')
      .description('Run the stub as a long-lived HTTP server; prints its base URL and keys (Ctrl-C stops it)')
      .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
      .option('--host <host>', 'interface to bind', '127.0.0.1')
      .option('--faults <spec>', 'inject faults, e.g. "429=0.05,5xx=0.05,drop=0.02,latency=5,seed=42[,retry-after=1][,only=writes]"')
      .option('--minimal-fields', 'play a strict server: "not shown" list items (test takers, career navigation profiles) carry only the fields the reference states'),
  )
    .addHelpText(
      'after',
      examples('jobfit stub serve', 'jobfit stub serve --port 0 --data ./stub-data', 'jobfit stub serve --faults "429=0.1,seed=7"', 'jobfit stub serve --minimal-fields'),
    )
    .action(async (o: ServeOptions, cmd: Command) => serve(o, deps.context(cmd)));

  dataOption(stub.command('keys').description('Print each seeded account with its live and test key'))
    .addHelpText('after', examples('jobfit stub keys', 'jobfit stub keys -o json | jq -r ".[0].live_key"'))
    .action(async (o: { data?: string }, cmd: Command) => keys(o, deps.context(cmd)));

  dataOption(
    stub
      .command('reset')
      .description('Restore the seed: every invitation, test taker, event and message created since is removed')
      .option('-y, --yes', 'do not ask first (on a terminal it asks; scripts are never asked)'),
  )
    .addHelpText('after', examples('jobfit stub reset', 'jobfit stub reset --yes --data ./stub-data'))
    .action(async (o: { data?: string; yes?: boolean }, cmd: Command) => reset(o, deps.context(cmd)));

  dataOption(
    stub
      .command('seed')
      .description('Add many test takers quickly (accepted invitations, some complete), for lists and benchmarks')
      .requiredOption('--test-takers <n>', 'how many test takers to add')
      .option('--teams <k>', 'spread them over the first K teams of the account (default 1)')
      .option('--complete <fraction>', 'share with every assigned assessment complete, 0..1 (default 0.5)')
      .option('--account <id>', 'account id (default 1)'),
  )
    .addHelpText('after', examples('jobfit stub seed --test-takers 100000', 'jobfit stub seed --test-takers 500 --teams 3 --complete 0.8 --account 2'))
    .action(async (o: SeedOptions, cmd: Command) => seed(o, deps.context(cmd)));

  dataOption(stub.command('accept <invitationId>').description('The participant accepts an invitation: accepted_at is set and the test taker created'))
    .addHelpText('after', examples('jobfit stub accept 100001', 'jobfit stub accept 100001 -o json | jq .test_taker_id'))
    .action(async (id: string, o: { data?: string }, cmd: Command) => acceptCmd(id, o, deps.context(cmd)));

  dataOption(
    stub
      .command('complete <testTakerId>')
      .description('The participant completes assigned assessments (scores follow; Career Interests creates the career navigation profile)')
      .option('--assessment <name>', `which one: ${CHOICES.join('|')}`, 'all')
      .option('--language <locale>', 'language the assessment was taken in', 'en'),
  )
    .addHelpText('after', examples('jobfit stub complete 500001', 'jobfit stub complete 500001 --assessment interests --language es'))
    .action(async (id: string, o: { data?: string; assessment: string; language: string }, cmd: Command) => completeCmd(id, o, deps.context(cmd)));

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

  // `stub webhooks` and `stub events` (events with their delivery attempts) live with the webhook code.
  registerStubWebhookCommands(stub, deps);
}
