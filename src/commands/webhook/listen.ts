/**
 * `jobfit webhook listen`: a local receiver for webhook events. It prints a
 * line per event (or the events as JSON/NDJSON), appends them to a log, and
 * can re-post them to the developer's app. Against the local stub it points
 * the account's endpoint at itself while it runs.
 */
import { closeSync, constants, fchmodSync, fstatSync, openSync, writeSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { EVENT_TYPES } from '../../api/schemas.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../config/loopback.js';
import { jsonText } from '../../format/output.js';
import { safeLine } from '../../format/sanitize.js';
import { type ForwardResult, type Receiver, type WebhookEvent, resourceLabel, startReceiver } from './receiver.js';
import type { StubLink } from '../../stub/index.js';

export interface ListenOptions {
  port?: string;
  host?: string;
  events?: string;
  log?: string;
  forwardTo?: string;
  /** Host names (a tunnel's) accepted in the Host header besides this machine's. */
  allowHost?: string[];
  data?: string;
  account?: string;
  onlyEnabledTeams?: boolean;
  stub?: boolean;
  sync?: string;
  printSecret?: boolean;
}

export function parsePort(v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got "${v}".`);
  return Number(v);
}

export function parseEventFilter(v: string | undefined): Set<string> | undefined {
  if (v === undefined) return undefined;
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError('--events needs at least one event type.', `known types: ${EVENT_TYPES.join(', ')}`);
  const known = new Set<string>(EVENT_TYPES);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown event type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, `known types: ${EVENT_TYPES.join(', ')}`);
  }
  return new Set(names);
}

export function parseHttpUrl(v: string, flag: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${flag} must be a URL such as http://localhost:3000/webhooks, got "${v}".`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL, got "${v}".`);
  return u.toString();
}

/**
 * The log: opened once for appending, created 0600 (it holds people's
 * emails and assessment links), never through a symbolic link someone
 * planted at the path, and only when it is a regular file.
 */
function openLog(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UsageError(`The log path ${path} is a symbolic link; not writing through it.`, 'give the path of a regular file');
    throw new UsageError(`Cannot write the log file ${path}: ${(err as Error).message}`);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw new UsageError(`The log path ${path} is not a regular file.`);
  }
  // A log made by an older version (or another tool) may be readable by everyone.
  if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) fchmodSync(fd, 0o600);
  return fd;
}

/** --allow-host names, comma-separated or repeated; host names only (no scheme, no path). */
export function parseAllowHosts(v: string[] | undefined): string[] {
  const names = (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim().toLowerCase()).filter(Boolean);
  for (const n of names) {
    if (!/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(n)) throw new UsageError(`--allow-host takes a host name such as abc.ngrok.app, got "${n}".`);
  }
  return names;
}

function clock(d: Date): string {
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** The stub data directory to link, or undefined when listening for a remote service. */
async function stubTarget(ctx: Context, o: ListenOptions): Promise<{ dataDir: string; apiKey?: string } | undefined> {
  if (o.stub === false) return undefined;
  const apiKey = ctx.io.env.JOBFIT_API_KEY?.trim() || undefined;
  if (o.data) return { dataDir: resolvePath(o.data), apiKey };
  const [{ readConfigView }, { resolveConnection }, { stubDataDir }] = await Promise.all([
    import('../../config/read.js'),
    import('../../config/resolve.js'),
    import('../../config/paths.js'),
  ]);
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
  const [{ openStore, accountOfKey }, wh] = await Promise.all([import('../../stub/index.js'), import('../../stub/webhooks.js')]);
  const store = await openStore(target.dataDir);
  try {
    const id = accountId ?? accountOfKey(store, target.apiKey) ?? wh.accountIds(store)[0];
    const secret = id === undefined ? undefined : wh.signingSecret(store, id);
    if (!secret) throw new UsageError(`Account ${String(id)} does not exist in the stub (${target.dataDir}).`, 'see `jobfit stub keys` for the accounts');
    ctx.io.stdout.write(`${secret}\n`);
  } finally {
    store.close();
  }
}

export async function listen(ctx: Context, o: ListenOptions): Promise<void> {
  const format = ctx.globals.output;
  if (format === 'csv' || format === 'xlsx') throw new UsageError(`webhook listen prints lines, json or ndjson; -o ${format} is not supported.`);
  const json = format === 'json' || format === 'ndjson' ? format : undefined;
  const port = parsePort(o.port);
  const filter = parseEventFilter(o.events);
  const forwardTo = o.forwardTo === undefined ? undefined : parseHttpUrl(o.forwardTo, '--forward-to');
  const accountId = o.account === undefined ? undefined : Number(o.account);
  if (accountId !== undefined && !Number.isInteger(accountId)) throw new UsageError(`--account must be an account id, got "${o.account}".`);
  if (o.printSecret) return printSecret(ctx, o, accountId);
  const allowHosts = parseAllowHosts(o.allowHost);
  const logPath = o.log === undefined ? undefined : resolvePath(o.log);
  const logFd = logPath === undefined ? undefined : openLog(logPath);
  const { stdout } = ctx.io;
  // With JSON on stdout, everything else (forward results) goes to stderr.
  // Every field of an event is the sender's text: lines pass the sanitiser.
  const side = (line: string) => (json ? ctx.io.stderr.write(`${safeLine(line)}\n`) : stdout.write(`${safeLine(line)}\n`));

  const sync = o.sync === undefined ? undefined : await (await import('../../sync/events.js')).startEventSync(ctx, o.sync);
  const onEvent = (event: WebhookEvent) => {
    sync?.event(event);
    if (logFd !== undefined) {
      try {
        writeSync(logFd, `${JSON.stringify(event)}\n`);
      } catch (err) {
        ctx.warn(`could not append to ${logPath}: ${(err as Error).message}`);
      }
    }
    if (json === 'ndjson') stdout.write(`${jsonText(event)}\n`);
    else if (json === 'json') stdout.write(`${jsonText(event, 2)}\n`);
    else stdout.write(`${clock(ctx.io.now())}  ${safeLine(event.type).padEnd(34)} ${safeLine(event.id)}  ${safeLine(resourceLabel(event))}\n`);
  };
  const onForward = (_e: WebhookEvent, r: ForwardResult) => {
    if (r.status === null) side(`  -> ${r.url}  failed: ${r.error} (${r.ms} ms)`);
    else if (r.status >= 300 && r.status < 400) side(`  -> ${r.url}  ${r.status} (${r.ms} ms; redirects are not followed)`);
    else side(`  -> ${r.url}  ${r.status} (${r.ms} ms)`);
  };

  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      host: o.host ?? '127.0.0.1',
      allowHosts,
      port,
      events: filter,
      forwardTo,
      onEvent,
      onForward,
      onNote: (m) => ctx.info(m),
    });
  } catch (err) {
    if (logFd !== undefined) closeSync(logFd);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new JobfitError(`Port ${port} is already in use on ${o.host ?? '127.0.0.1'}.`, { hint: 'pick another --port, or --port 0 for a free one' });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`Cannot listen on host ${o.host}.`);
    throw err;
  }
  // Always printed (even with --quiet): scripts read the URL from this line.
  const boundNote = receiver.url.startsWith(`http://${receiver.bound}/`) ? '' : ` (bound to ${receiver.bound})`;
  ctx.io.stderr.write(`Listening for webhook events on ${receiver.url}${boundNote}\n`);
  if (!isLoopbackHost(o.host ?? '127.0.0.1')) {
    ctx.warn(
      `listening on ${o.host}, beyond this machine: anyone who can reach it can post events. Requests are accepted only for a loopback Host${allowHosts.length ? ` or ${allowHosts.join(', ')}` : ''}${allowHosts.length ? '' : ' (name a tunnel\'s host with --allow-host)'}.`,
    );
  }

  let link: StubLink | undefined;
  try {
    const target = await stubTarget(ctx, o);
    if (target) {
      const { linkStub } = await import('../../stub/index.js');
      link = await linkStub({
        dataDir: target.dataDir,
        url: receiver.url,
        accountId,
        apiKey: target.apiKey,
        onlyEnabledTeams: o.onlyEnabledTeams,
        onAttempt: (r) => {
          if (!r.ok) ctx.debug(`delivery of ${r.event_id} attempt ${r.attempt} failed: ${r.error}`);
        },
      });
      const teams = link.teamsSwitched.length ? `; delivery switched on for teams ${link.teamsSwitched.join(', ')}` : '';
      ctx.info(`Local stub (${target.dataDir}): account ${link.accountId} now delivers to this listener${teams}. Restored when you stop.`);
      ctx.info(`Deliveries are signed (jobfit-signature header); the signing secret is ${link.signingSecret} (check one with \`jobfit webhook verify\`).`);
    } else {
      ctx.info(
        o.stub === false
          ? 'Stub settings left alone (--no-stub).'
          : "Set this URL as your account's webhook endpoint (for a `jobfit stub serve`, pass --data DIR instead; a remote service needs a tunnel).",
      );
    }
    if (filter) ctx.info(`Showing only: ${[...filter].join(', ')}`);
    ctx.info('Press Ctrl-C to stop.');

    await new Promise<void>((resolve) => {
      if (ctx.io.signal.aborted) resolve();
      else ctx.io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await receiver.close();
    if (logFd !== undefined) closeSync(logFd);
    await sync?.close();
    if (link) {
      try {
        await link.restore();
      } catch (err) {
        ctx.warn(`could not restore the stub's webhook settings: ${(err as Error).message}`);
      }
    }
  }
  const refused = receiver.refused > 0 ? ` ${receiver.refused} request${receiver.refused === 1 ? '' : 's'} refused.` : '';
  ctx.info(`Stopped; ${receiver.shown} event${receiver.shown === 1 ? '' : 's'} received.${refused}${link ? ' The stub\'s webhook settings are back as they were.' : ''}`);
}
