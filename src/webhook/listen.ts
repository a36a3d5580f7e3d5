/**
 * `jobfit webhook listen`: a local receiver for webhook events. It prints a
 * line per event (or the events as JSON/NDJSON), appends them to a log, can
 * re-post them to the developer's app and keep a sync database up to date.
 * Whoever sends the events (the local stub) is pointed at it through `link`,
 * and put back when it stops.
 */
import { closeSync, writeSync } from 'node:fs';
import { openPrivateAppend } from '../core/files.js';
import { JobfitError, UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../core/loopback.js';
import { jsonText } from '../format/output.js';
import { safeLine } from '../format/sanitize.js';
import type { SyncSession } from '../sync/run.js';
import type { ForwardResult } from './forward.js';
import { type Receiver, type WebhookEvent, resourceLabel, startReceiver } from './receiver.js';

/** A sender pointed at the listener; put back when it stops. */
export interface SenderLink {
  restore(): Promise<void>;
  /** What restore() brings back, for the closing notes: `the stub's webhook settings`. */
  what: string;
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

function clock(d: Date): string {
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** Listens until the session's signal is aborted (Ctrl-C), then closes everything and says what it saw. */
export async function listen(session: SyncSession, o: ListenerOptions): Promise<void> {
  const format = session.globals.output;
  const json = format === 'json' || format === 'ndjson' ? format : undefined;
  const { port, allowHosts, logPath } = o;
  const logFd = logPath === undefined ? undefined : openLog(logPath);
  const { stdout } = session.io;
  // With JSON on stdout, everything else (forward results) goes to stderr.
  // Every field of an event is the sender's text: lines pass the sanitiser.
  const side = (line: string) => (json ? session.io.stderr.write(`${safeLine(line)}\n`) : stdout.write(`${safeLine(line)}\n`));

  const sync = o.sync === undefined ? undefined : await (await import('../sync/events.js')).startEventSync(session, o.sync);
  const onEvent = (event: WebhookEvent) => {
    sync?.event(event);
    if (logFd !== undefined) {
      try {
        writeSync(logFd, `${JSON.stringify(event)}\n`);
      } catch (err) {
        session.warn(`could not append to ${logPath}: ${(err as Error).message}`);
      }
    }
    if (json === 'ndjson') stdout.write(`${jsonText(event)}\n`);
    else if (json === 'json') stdout.write(`${jsonText(event, 2)}\n`);
    else stdout.write(`${clock(session.io.now())}  ${safeLine(event.type).padEnd(34)} ${safeLine(event.id)}  ${safeLine(resourceLabel(event))}\n`);
  };
  const onForward = (_e: WebhookEvent, r: ForwardResult) => {
    if (r.status === null) side(`  -> ${r.url}  failed: ${r.error} (${r.ms} ms)`);
    else if (r.status >= 300 && r.status < 400) side(`  -> ${r.url}  ${r.status} (${r.ms} ms; redirects are not followed)`);
    else side(`  -> ${r.url}  ${r.status} (${r.ms} ms)`);
  };

  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      host: o.host,
      allowHosts,
      port,
      events: o.events,
      forwardTo: o.forwardTo,
      onEvent,
      onForward,
      onNote: (m) => session.info(m),
    });
  } catch (err) {
    if (logFd !== undefined) closeSync(logFd);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new JobfitError(`Port ${port} is already in use on ${o.host}.`, { hint: 'pick another --port, or --port 0 for a free one' });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`Cannot listen on host ${o.host}.`);
    throw err;
  }
  // Always printed (even with --quiet): scripts read the URL from this line.
  const boundNote = receiver.url.startsWith(`http://${receiver.bound}/`) ? '' : ` (bound to ${receiver.bound})`;
  session.io.stderr.write(`Listening for webhook events on ${receiver.url}${boundNote}\n`);
  if (!isLoopbackHost(o.host)) {
    session.warn(
      `listening on ${o.host}, beyond this machine: anyone who can reach it can post events. Requests are accepted only for a loopback Host${allowHosts.length ? ` or ${allowHosts.join(', ')}` : ''}${allowHosts.length ? '' : ' (name a tunnel\'s host with --allow-host)'}.`,
    );
  }

  let link: SenderLink | undefined;
  try {
    link = await o.link?.(receiver.url);
    if (o.events) session.info(`Showing only: ${[...o.events].join(', ')}`);
    session.info('Press Ctrl-C to stop.');

    await new Promise<void>((resolve) => {
      if (session.io.signal.aborted) resolve();
      else session.io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await receiver.close();
    if (logFd !== undefined) closeSync(logFd);
    await sync?.close();
    if (link) {
      try {
        await link.restore();
      } catch (err) {
        session.warn(`could not restore ${link.what}: ${(err as Error).message}`);
      }
    }
  }
  const refused = receiver.refused > 0 ? ` ${receiver.refused} request${receiver.refused === 1 ? '' : 's'} refused.` : '';
  const back = link ? ` ${link.what.charAt(0).toUpperCase()}${link.what.slice(1)} are back as they were.` : '';
  session.info(`Stopped; ${receiver.shown} event${receiver.shown === 1 ? '' : 's'} received.${refused}${back}`);
}
