/**
 * `jobfit webhook listen`: the options, and the local stub pointed at the
 * listener (src/webhook/listen.ts) while it runs.
 */
import { join, resolve as resolvePath } from 'node:path';
import * as z from 'zod';
import { EVENT_TYPES } from '../../api/schemas/events.js';
import { UsageError } from '../../core/errors.js';
import { secretKey } from '../../api/webhook-signature.js';
import { readInput } from '../../core/input.js';
import { heapForSize } from '../../core/heap.js';
import type { SenderLink } from '../../webhook/listen.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { examples } from '../kit/help.js';
import { collect, flag } from '../kit/flags.js';
import type { StubLink } from '../../stub/index.js';
import { baselineWasmOnly } from '../../core/wasm.js';
import { configDir, stubDataDir } from '../../config/paths.js';
import { readConfigView } from '../../config/read.js';
import { resolveConnection } from '../../config/resolve.js';

/** `--events a,b`: the names given. */
const eventNames = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
/** `--allow-host`, comma-separated or repeated: host names only (no scheme, no path). */
const hostNames = (v: string[] | undefined) => (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim().toLowerCase()).filter(Boolean);
const PORT = /^\d+$/;
const HOST_NAME = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/;

const ListenOptions = z.object({
  port: flag(z.string().optional(), { flag: '--port <n>', description: 'port to listen on (default 0: a free one)', default: '0' }),
  host: flag(z.string().optional(), { flag: '--host <host>', description: 'address to listen on (default 127.0.0.1; beyond loopback, anyone who can reach it can post)', default: '127.0.0.1' }),
  allowHost: flag(z.array(z.string()).optional(), {
    flag: '--allow-host <name>',
    description: 'accept requests for this Host too, e.g. a tunnel\'s abc.ngrok.app (repeatable)',
    parse: collect,
  }),
  events: flag(z.string().optional(), { flag: '--events <a,b>', description: 'show only these event types' }),
  log: flag(z.string().optional(), { flag: '--log <file>', description: 'append every event received to FILE as NDJSON' }),
  forwardTo: flag(z.string().optional(), { flag: '--forward-to <url>', description: 're-post each event to your app and print its answer' }),
  data: flag(z.string().optional(), { flag: '--data <dir>', description: 'the local stub data directory to point at this listener' }),
  account: flag(z.string().optional(), { flag: '--account <id>', description: 'stub account whose endpoint to set (default: the key\'s, else the first)' }),
  onlyEnabledTeams: flag(z.boolean().optional(), { flag: '--only-enabled-teams', description: 'do not switch on delivery for the stub\'s teams' }),
  stub: flag(z.boolean().optional(), { flag: '--no-stub', description: 'do not change any local stub settings' }),
  sync: flag(z.string().optional(), { flag: '--sync <db>', description: 'bring the people each event names up to date in a `jobfit sync` database (verified events only)' }),
  secretStdin: flag(z.boolean().optional(), { flag: '--secret-stdin', description: 'read the signing secret to verify deliveries with from stdin (or set JOBFIT_WEBHOOK_SECRET)' }),
  unforwarded: flag(z.string().optional(), { flag: '--unforwarded <file>', description: 'with --forward-to: append the events your app did not take to FILE when stopping' }),
  printSecret: flag(z.boolean().optional(), { flag: '--print-secret', description: "print the local stub's signing secret for deliveries and exit" }),
})
  // The checks in the order they have always run (-o, a global option, is checked in run); each sentence names its flag.
  .superRefine((o, zctx) => {
    const bad = (message: string, hint?: string) => zctx.addIssue({ code: 'custom', message, params: hint === undefined ? undefined : { hint } });
    if (o.port !== undefined && (!PORT.test(o.port) || Number(o.port) > 65535)) return bad(`--port must be a number from 0 to 65535, got "${o.port}".`);
    if (o.events !== undefined) {
      const known = `known types: ${EVENT_TYPES.join(', ')}`;
      const names = eventNames(o.events);
      if (names.length === 0) return bad('--events needs at least one event type.', known);
      const unknown = names.filter((n) => !(EVENT_TYPES as readonly string[]).includes(n));
      if (unknown.length > 0) return bad(`Unknown event type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, known);
    }
    if (o.forwardTo !== undefined) {
      if (!URL.canParse(o.forwardTo)) return bad(`--forward-to must be a URL such as http://localhost:3000/webhooks, got "${o.forwardTo}".`);
      if (!['http:', 'https:'].includes(new URL(o.forwardTo).protocol)) return bad(`--forward-to must be an http or https URL, got "${o.forwardTo}".`);
    }
    if (o.account !== undefined && !Number.isInteger(Number(o.account))) return bad(`--account must be an account id, got "${o.account}".`);
    // --print-secret does not listen: its --allow-host is not read at all.
    const notAHost = o.printSecret ? undefined : hostNames(o.allowHost).find((n) => !HOST_NAME.test(n));
    if (notAHost !== undefined) return bad(`--allow-host takes a host name such as abc.ngrok.app, got "${notAHost}".`);
  });
export type ListenOptions = z.output<typeof ListenOptions>;

/** The stub data directory to link, or undefined when listening for a remote service. */
async function stubTarget(ctx: Context, o: ListenOptions): Promise<{ dataDir: string; apiKey?: string } | undefined> {
  if (o.stub === false) return undefined;
  const apiKey = ctx.io.env.JOBFIT_API_KEY?.trim() || undefined;
  if (o.data) return { dataDir: resolvePath(o.data), apiKey };
  const r = resolveConnection({ globals: ctx.globals, env: ctx.io.env, config: readConfigView(ctx.io.env) });
  if (r.embedded) return { dataDir: stubDataDir(ctx.io.env) };
  // A profile (after `login`) or JOBFIT_BASE_URL pointing at a `stub serve` on this machine: its data.
  const { servedStubAt } = await import('../../config/served-stubs.js');
  const served = servedStubAt(ctx.io.env, r.baseUrl);
  if (served) return { dataDir: served.dataDir, apiKey: r.apiKey };
  return undefined;
}

const NO_SECRET_HINT =
  'the signing secret is the local stub\'s (the embedded one, a `jobfit stub serve` the profile points at, or --data DIR); how the real service signs is not in its reference';

/** `--print-secret`: the signing secret of the stub account's endpoint, alone on stdout (as `stripe listen --print-secret`). */
async function printSecret(ctx: Context, o: ListenOptions, accountId: number | undefined): Promise<void> {
  const target = await stubTarget(ctx, o);
  if (!target) throw new UsageError('No local stub to read a signing secret from.', NO_SECRET_HINT);
  const { openStore, accountOfKey, accountIds, signingSecret } = await import('../../stub/index.js');
  const store = await openStore(target.dataDir);
  try {
    const id = accountId ?? accountOfKey(store, target.apiKey) ?? accountIds(store)[0];
    const secret = id === undefined ? undefined : signingSecret(store, id);
    if (!secret) throw new UsageError(`Account ${String(id)} does not exist in the stub (${target.dataDir}).`, 'see `jobfit stub keys` for the accounts');
    ctx.io.stdout.write(`${secret}\n`);
  } finally {
    store.close();
  }
}

/** Against the local stub: its account's endpoint points at the listener while it runs. */
async function linkLocalStub(ctx: Context, o: ListenOptions, accountId: number | undefined, url: string): Promise<SenderLink | undefined> {
  const target = await stubTarget(ctx, o);
  if (!target) {
    ctx.info(
      o.stub === false
        ? 'Stub settings left alone (--no-stub).'
        : "Set this URL as your account's webhook endpoint (for a `jobfit stub serve`, pass --data DIR instead; a remote service needs a tunnel).",
    );
    return undefined;
  }
  const { linkStub } = await import('../../stub/index.js');
  const link: StubLink = await linkStub({
    dataDir: target.dataDir,
    url,
    accountId,
    apiKey: target.apiKey,
    onlyEnabledTeams: o.onlyEnabledTeams,
    onAttempt: (r) => {
      if (!r.ok) ctx.debug(`delivery of ${r.event_id} attempt ${r.attempt} failed: ${r.error}`);
    },
  });
  const teams = link.teamsSwitched.length ? `; delivery switched on for teams ${link.teamsSwitched.join(', ')}` : '';
  if (link.tookOverFrom) ctx.warn(`the listener at ${link.tookOverFrom} stopped without putting the stub's settings back; this one puts back what it found.`);
  ctx.info(`Local stub (${target.dataDir}): account ${link.accountId} now delivers to this listener${teams}. Restored when you stop.`);
  if (link.requeued > 0) ctx.info(`${link.requeued} event${link.requeued === 1 ? '' : 's'} queued for an earlier listener come${link.requeued === 1 ? 's' : ''} to this one.`);
  ctx.info(`Deliveries are signed (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) with the secret ${link.signingSecret}; this listener verifies them.`);
  return { restore: () => link.restore(), restoreNow: () => link.restoreNow(), what: "the stub's webhook settings", secret: link.signingSecret };
}

/**
 * The secrets the user gave (never on the command line, where `ps` shows
 * it): JOBFIT_WEBHOOK_SECRET, and the first line of stdin with --secret-stdin.
 */
export async function givenSecrets(ctx: Context, fromStdin: boolean | undefined): Promise<string[]> {
  const out: string[] = [];
  const env = ctx.io.env.JOBFIT_WEBHOOK_SECRET?.trim();
  if (env) {
    if (!secretKey(env)) throw new UsageError('JOBFIT_WEBHOOK_SECRET is not a signing secret (whsec_ followed by base64 of 24 to 64 bytes).');
    out.push(env);
  }
  if (fromStdin) {
    if (ctx.io.stdin.isTTY) throw new UsageError('--secret-stdin reads the secret from a pipe, not the terminal.', 'e.g. `pass show webhook | jobfit webhook listen --secret-stdin`');
    const line = (await readInput(ctx.io, '-')).split(/\r?\n/)[0].trim();
    if (!secretKey(line)) throw new UsageError('The secret on stdin is not a signing secret (whsec_ followed by base64 of 24 to 64 bytes).');
    out.push(line);
  }
  return out;
}

async function run(o: ListenOptions, ctx: Context): Promise<void> {
  // Webhooks are delivered (or forwarded) with node's fetch: see core/wasm.ts.
  baselineWasmOnly();
  const format = ctx.globals.output;
  if (format === 'csv' || format === 'xlsx') throw new UsageError(`webhook listen prints lines, json or ndjson; -o ${format} is not supported.`);
  if (o.unforwarded !== undefined && o.forwardTo === undefined) throw new UsageError('--unforwarded is for the events --forward-to could not deliver; give --forward-to URL too.');
  const accountId = o.account === undefined ? undefined : Number(o.account);
  if (o.printSecret) return printSecret(ctx, o, accountId);
  // A listener's live data is small (the bodies in flight, the ids of the
  // replay window), but a flood of large deliveries allocates fast (each body
  // is read, decoded and parsed), and V8 lets the young generation and the
  // buffers left behind grow far past it before collecting. Growing the heap
  // for size keeps the peak down (docs/performance.md, "Webhook listener").
  heapForSize();
  const secrets = await givenSecrets(ctx, o.secretStdin);
  const { listen } = await import('../../webhook/listen.js');
  await listen(ctx, {
    secrets,
    unforwardedPath: o.unforwarded === undefined ? undefined : resolvePath(o.unforwarded),
    unforwardedDir: join(configDir(ctx.io.env), 'webhook-unforwarded'),
    host: o.host ?? '127.0.0.1',
    port: o.port === undefined ? 0 : Number(o.port),
    allowHosts: hostNames(o.allowHost),
    events: o.events === undefined ? undefined : new Set(eventNames(o.events)),
    logPath: o.log === undefined ? undefined : resolvePath(o.log),
    forwardTo: o.forwardTo === undefined ? undefined : new URL(o.forwardTo).toString(),
    sync: o.sync,
    link: (url) => linkLocalStub(ctx, o, accountId, url),
  });
}

export default defineCommand({
  name: 'listen',
  summary: 'Listen for webhook events on a local port and print them',
  options: ListenOptions,
  // Unlike other commands', this help ends right after its last example.
  helpAfter: `
Prints one line per event: time, type, event id, the resource it is about.
With -o json or -o ndjson, prints the events themselves on stdout.
The listening URL is printed first, on stderr.

Against the local stub (the embedded one, a \`jobfit stub serve\` on this machine
that the profile or JOBFIT_BASE_URL points at, or --data DIR), the account's
webhook endpoint points at this listener and delivery is switched on (for the
account and, unless --only-enabled-teams, for every team) while it runs; the
previous settings come back when it stops (Ctrl-C, SIGTERM, SIGHUP, an
error). Failed deliveries are retried while it runs; events held for a
listener that was killed come to this one.

Each event is shown once, even when delivered twice: ids are remembered for
10 minutes (twice the signature tolerance), up to 100,000. Only JSON
deliveries for a loopback Host (localhost, 127.0.0.1, [::1]) are accepted: a
web page's request (an Origin header), another Host (DNS rebinding), another
content type, a malformed event id or type get a 4xx, bodies over 1 MB get
413; none is shown or forwarded, and the first of each kind is noted on
stderr. Behind a tunnel, name its host with --allow-host.

Deliveries are checked with Standard Webhooks (webhook-id, webhook-timestamp,
webhook-signature: v1,<base64>), within 5 minutes either way, using the local
stub's secret, JOBFIT_WEBHOOK_SECRET, or the first line of stdin with
--secret-stdin (never the command line, where ps shows it). One that does not
verify gets 401 and is not shown, forwarded or synced. --sync needs a secret.

--forward-to re-posts each event with its body and signature headers as
received, 4 at a time from a queue of at most 1,000 events (32 MB); an event
your app does not take (down, not 2xx, 10 s timeout) is tried again while the
listener runs, and the ones still not taken when it stops are written to
--unforwarded FILE (else a file in the config folder), named on stderr. When
a bound is reached, the sender gets 503 with Retry-After and delivers again.
Redirects are not followed.

${examples(
    'jobfit webhook listen',
    'jobfit webhook listen --events invitation.accepted,test_taker.created',
    'jobfit webhook listen --forward-to http://localhost:3000/webhooks --log events.ndjson',
    'jobfit webhook listen -o ndjson | jq .type',
    'jobfit webhook listen --sync results.sqlite',
    'jobfit webhook listen --print-secret',
  ).trimEnd()}`,
  run,
});
