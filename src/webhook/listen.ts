/**
 * `jobfit webhook listen`: a local receiver for webhook events. It prints a
 * line per event (or the events as JSON/NDJSON), appends them to a log, can
 * re-post them to the developer's app and keep a sync database up to date.
 * Whoever sends the events (the local stub) is pointed at it through `link`,
 * and put back when it stops.
 */
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import { JobfitError, UsageError } from '../core/errors.js';
import { ensurePrivateDir, fileErrorCause, openPrivateAppend } from '../core/files.js';
import { isLoopbackHost } from '../core/loopback.js';
import { appendWholeSync, writeOutFileSync } from '../core/whole-file.js';
import { jsonText } from '../format/output.js';
import { safeLine } from '../format/sanitize.js';
import type { EventSync } from '../sync/events.js';
import type { SyncSession } from '../sync/run.js';
import type { ForwardResult } from './forward.js';
import type { Unforwarded } from './forward-queue.js';
import type { WebhookEvent } from './gate.js';
import { type Receiver, resourceLabel, startReceiver } from './receiver.js';

/** A sender pointed at the listener; put back when it stops. */
export interface SenderLink {
  restore(): Promise<void>;
  /**
   * The same, synchronously: run from the process's `exit` (a crash, a second
   * Ctrl-C, process.exit) when restore() had no chance to.
   */
  restoreNow(): void;
  /** What restore() brings back, for the closing notes: `the stub's webhook settings`. */
  what: string;
  /** The secret the sender signs deliveries with, when known: deliveries are verified with it. */
  secret?: string;
}

export interface ListenerOptions {
  host: string;
  port: number;
  /** Host names (a tunnel's) accepted in the Host header besides this machine's. */
  allowHosts: string[];
  /** Only these event types are shown. */
  events?: ReadonlySet<string>;
  /** Absolute path of the NDJSON log to append every event to. */
  logPath?: string;
  forwardTo?: string;
  /** A `jobfit sync` database to bring the people each event names up to date in. */
  sync?: string;
  /** Signing secrets given by the user (JOBFIT_WEBHOOK_SECRET, --secret-stdin): deliveries must verify with one. */
  secrets?: string[];
  /** Absolute path of the NDJSON file to write the events the app did not take to (default: one in `unforwardedDir`). */
  unforwardedPath?: string;
  /** Where a default file of events the app did not take goes (the config folder's `webhook-unforwarded`). */
  unforwardedDir: string;
  /** Points a sender at the listening URL (and says so), once it listens. */
  link?(url: string): Promise<SenderLink | undefined>;
}

/**
 * The log: opened once for appending the one way every appended file for a
 * person is (openPrivateAppend, core/files.ts): created 0600 (it holds
 * people's emails and assessment links), never through a symbolic link, and
 * only a regular file of the running user (a FIFO would hang the listener).
 */
function openLog(path: string): number {
  return openPrivateAppend(path, 'the log file').fd;
}

/** The files a listener appends to (the log, the file of events the app did not take), opened before it listens. */
interface ListenFiles {
  logFd?: number;
  keepFd?: number;
  close(): void;
}

function openFiles(o: ListenerOptions): ListenFiles {
  const logFd = o.logPath === undefined ? undefined : openLog(o.logPath);
  let keepFd: number | undefined;
  try {
    keepFd = o.unforwardedPath === undefined ? undefined : openLog(o.unforwardedPath);
  } catch (err) {
    if (logFd !== undefined) closeSync(logFd);
    throw err;
  }
  return {
    logFd,
    keepFd,
    close() {
      if (logFd !== undefined) closeSync(logFd);
      if (keepFd !== undefined) closeSync(keepFd);
    },
  };
}

function clock(d: Date): string {
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** The name of a new file of events the app did not take, in the config folder's `webhook-unforwarded`. */
export function unforwardedFileName(now: Date, pid: number): string {
  return `unforwarded-${now.toISOString().replace(/[:.]/g, '-')}-${pid}.ndjson`;
}

/**
 * Writes the events the app did not take, one JSON line each (id, type, the
 * delivery headers and the body as received), to the file named at start
 * (appended whole or not at all: appendWholeSync) or a new one of its own
 * (the one writer path: writeOutFileSync); returns the path.
 */
export function keepUnforwarded(items: Unforwarded[], o: Pick<ListenerOptions, 'unforwardedPath' | 'unforwardedDir'>, fd: number | undefined, now: Date): string {
  const text = items.map((i) => `${JSON.stringify(i)}\n`).join('');
  if (fd !== undefined) {
    appendWholeSync(fd, text);
    return o.unforwardedPath!;
  }
  ensurePrivateDir(o.unforwardedDir);
  const path = join(o.unforwardedDir, unforwardedFileName(now, process.pid));
  writeOutFileSync(path, 'the file of events your app did not take', text);
  return path;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The line under an event for each forward to the app: its status and time, and whether it is tried again. */
export function forwardLine(r: ForwardResult): string {
  if (r.status === null) return `  -> ${r.url}  failed: ${r.error} (${r.ms} ms; kept and tried again)`;
  if (r.status >= 300 && r.status < 400) return `  -> ${r.url}  ${r.status} (${r.ms} ms; redirects are not followed; kept and tried again)`;
  if (r.status >= 300) return `  -> ${r.url}  ${r.status} (${r.ms} ms; kept and tried again)`;
  return `  -> ${r.url}  ${r.status} (${r.ms} ms)`;
}

/** The events the log could not take (a full disk): said at each, and again when the listener stops (exit 1). */
export interface LogTrouble {
  lost: number;
  first?: unknown;
}

/** Each new event: to the sync database, the log (each line whole or not at all), and stdout (a line, JSON or NDJSON). */
function eventPrinter(session: SyncSession, json: 'json' | 'ndjson' | undefined, files: ListenFiles, logPath: string | undefined, sync: EventSync | undefined, trouble: LogTrouble) {
  const { stdout } = session.io;
  return (event: WebhookEvent) => {
    sync?.event(event);
    if (files.logFd !== undefined) {
      try {
        appendWholeSync(files.logFd, `${JSON.stringify(event)}\n`);
      } catch (err) {
        trouble.lost++;
        trouble.first ??= err;
        session.warn(`could not append event ${safeLine(event.id)} to ${logPath}: ${fileErrorCause(err)}; the log holds every event before it, whole.`);
      }
    }
    if (json === 'ndjson') stdout.write(`${jsonText(event)}\n`);
    else if (json === 'json') stdout.write(`${jsonText(event, 2)}\n`);
    else stdout.write(`${clock(session.io.now())}  ${safeLine(event.type).padEnd(34)} ${safeLine(event.id)}  ${safeLine(resourceLabel(event))}\n`);
  };
}

/** Why the receiver could not start, for a person: a port in use, a host that is not this machine's; else the error itself. */
export function listenFailure(err: unknown, port: number, host: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new JobfitError(`Port ${port} is already in use on ${host}.`, { hint: 'pick another --port, or --port 0 for a free one' });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UsageError(`Cannot listen on host ${host}.`);
  return err;
}

/** Says where it listens (always, even with --quiet: scripts read the URL from this line), and warns when beyond this machine. */
function announce(session: SyncSession, receiver: Receiver, o: ListenerOptions): void {
  const boundNote = receiver.url.startsWith(`http://${receiver.bound}/`) ? '' : ` (bound to ${receiver.bound})`;
  session.io.stderr.write(`Listening for webhook events on ${receiver.url}${boundNote}\n`);
  if (!isLoopbackHost(o.host)) {
    const { allowHosts } = o;
    session.warn(
      `listening on ${o.host}, beyond this machine: anyone who can reach it can post events. Requests are accepted only for a loopback Host${allowHosts.length ? ` or ${allowHosts.join(', ')}` : ''}${allowHosts.length ? '' : ' (name a tunnel\'s host with --allow-host)'}.`,
    );
  }
}

/** Points the sender at the listener, then waits for Ctrl-C, SIGTERM or SIGHUP (they all abort the session's signal, core/io.ts). */
async function linkAndWait(session: SyncSession, o: ListenerOptions, receiver: Receiver, sync: EventSync | undefined, linked: (l: SenderLink | undefined) => void): Promise<void> {
  const link = await o.link?.(receiver.url);
  linked(link);
  if (link?.secret) receiver.addSecret(link.secret);
  const verified = (o.secrets?.length ?? 0) > 0 || link?.secret !== undefined;
  if (!verified) {
    // A forged event must never become API calls: --sync acts only on deliveries it can verify.
    if (sync) throw new UsageError('--sync needs the signing secret, so that a forged event cannot make API calls.', 'set JOBFIT_WEBHOOK_SECRET, or pipe it with --secret-stdin');
    session.info('Deliveries are not verified: no signing secret (set JOBFIT_WEBHOOK_SECRET, or pipe it with --secret-stdin).');
  }
  if (o.events) session.info(`Showing only: ${[...o.events].join(', ')}`);
  session.info('Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (session.io.signal.aborted) resolve();
    else session.io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Puts the sender back as it was; a failure is a warning, never the end. */
async function restoreSender(session: SyncSession, link: SenderLink | undefined): Promise<void> {
  if (!link) return;
  try {
    await link.restore();
  } catch (err) {
    session.warn(`could not restore ${link.what}: ${(err as Error).message}`);
  }
}

/** Keeps the events the app did not take, and says where; returns why it could not (for the exit). */
function reportUnforwarded(session: SyncSession, unforwarded: Unforwarded[], o: ListenerOptions, keepFd: number | undefined): unknown {
  if (unforwarded.length === 0) return undefined;
  try {
    const where = keepUnforwarded(unforwarded, o, keepFd, session.io.now());
    session.warn(
      `${plural(unforwarded.length, 'event')} your app did not take (last: ${unforwarded.at(-1)!.last_error}) ${unforwarded.length === 1 ? 'is' : 'are'} in ${where}; \`jobfit stub events --resend ID\` sends one again.`,
    );
  } catch (err) {
    // Said once, as the listener's last line (throwIfLost: exit 1).
    return err;
  }
  return undefined;
}

/** Exit 1 when an event could not be written where it was asked to go: the log, the file of events the app did not take, the queue of people not yet synced. */
function throwIfLost(o: ListenerOptions, trouble: LogTrouble, unforwarded: number, keepError: unknown, notKept: string | undefined): void {
  if (notKept !== undefined) throw new JobfitError(notKept);
  if (trouble.lost > 0) {
    throw new JobfitError(`${plural(trouble.lost, 'event')} could not be appended to ${o.logPath}: ${fileErrorCause(trouble.first)}; the log holds the others, each line whole.`);
  }
  if (keepError !== undefined) {
    throw new JobfitError(`The ${plural(unforwarded, 'event')} your app did not take could not be kept: ${fileErrorCause(keepError)}; \`jobfit stub events --resend ID\` sends one again.`);
  }
}

/** The closing line: what it received, what the app took, what was refused or deferred, and the sender put back. */
export function stoppedSummary(receiver: Pick<Receiver, 'shown' | 'refused' | 'deferred' | 'forwards'>, unforwarded: number, forwardTo: string | undefined, link: Pick<SenderLink, 'what'> | undefined): string {
  const refused = receiver.refused > 0 ? ` ${plural(receiver.refused, 'request')} refused.` : '';
  const deferred = receiver.deferred > 0 ? ` ${plural(receiver.deferred, 'delivery', 'deliveries')} asked to come again later (busy).` : '';
  const f = receiver.forwards;
  const forwarded = forwardTo ? ` ${f.delivered.toLocaleString('en-US')} taken by your app, ${unforwarded.toLocaleString('en-US')} not${f.failedAttempts ? ` (${plural(f.failedAttempts, 'failed attempt')})` : ''}.` : '';
  const back = link ? ` ${link.what.charAt(0).toUpperCase()}${link.what.slice(1)} are back as they were.` : '';
  return `Stopped; ${plural(receiver.shown, 'event')} received.${forwarded}${refused}${deferred}${back}`;
}

/** Opens the files, the sync database and the receiver; whatever fails, what was opened is closed. */
async function start(session: SyncSession, o: ListenerOptions, json: 'json' | 'ndjson' | undefined, trouble: LogTrouble) {
  const files = openFiles(o);
  let sync: EventSync | undefined;
  try {
    sync = o.sync === undefined ? undefined : await (await import('../sync/events.js')).startEventSync(session, o.sync);
  } catch (err) {
    files.close();
    throw err;
  }
  // With JSON on stdout, everything else (forward results) goes to stderr.
  // Every field of an event is the sender's text: lines pass the sanitiser.
  const side = (line: string) => (json ? session.io.stderr.write(`${safeLine(line)}\n`) : session.io.stdout.write(`${safeLine(line)}\n`));
  try {
    const receiver = await startReceiver({
      host: o.host,
      allowHosts: o.allowHosts,
      port: o.port,
      events: o.events,
      forwardTo: o.forwardTo,
      secrets: o.secrets,
      onEvent: eventPrinter(session, json, files, o.logPath, sync, trouble),
      onForward: (_e, r) => side(forwardLine(r)),
      onNote: (m) => session.info(m),
    });
    return { files, sync, receiver };
  } catch (err) {
    files.close();
    await sync?.close();
    throw listenFailure(err, o.port, o.host);
  }
}

/**
 * Listens until the session's signal is aborted (Ctrl-C), SIGTERM or SIGHUP,
 * then closes everything and says what it saw. Whatever ends it (an error, a
 * signal, the process exiting), the sender's settings are put back.
 */
export async function listen(session: SyncSession, o: ListenerOptions): Promise<void> {
  const format = session.globals.output;
  const json = format === 'json' || format === 'ndjson' ? format : undefined;
  const trouble: LogTrouble = { lost: 0 };
  const { files, sync, receiver } = await start(session, o, json, trouble);
  announce(session, receiver, o);

  let link: SenderLink | undefined;
  // Whatever ends the process from here on (a crash, process.exit, a second Ctrl-C), the sender is put back.
  const onExit = () => link?.restoreNow();
  process.on('exit', onExit);
  let unforwarded: Unforwarded[] = [];
  let keepError: unknown;
  let notKept: string | undefined;
  try {
    await linkAndWait(session, o, receiver, sync, (l) => {
      link = l;
    });
  } finally {
    try {
      unforwarded = await receiver.close();
      notKept = await sync?.close();
    } finally {
      await restoreSender(session, link);
      process.off('exit', onExit);
      keepError = reportUnforwarded(session, unforwarded, o, files.keepFd);
      files.close();
    }
  }
  session.info(stoppedSummary(receiver, unforwarded.length, o.forwardTo, link));
  throwIfLost(o, trouble, unforwarded.length, keepError, notKept);
}
