/**
 * Forwards to the developer's app (forward.ts) from a queue bounded in events
 * and bytes, a few at a time, each retried on its schedule; what is left at
 * the end is handed back as Unforwarded.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type ForwardResult, forward } from './forward.js';
import { CLOSE_GRACE_MS, type EventRef, keptHeaders, type WebhookEvent } from './gate.js';

/** Forwards to the app in flight at once. */
export const FORWARD_CONCURRENCY = 4;

/** Events waiting for (or being retried to) the app at most, and their bytes; past either a delivery gets 503. */
export const FORWARD_QUEUE_EVENTS = 1000;

export const FORWARD_QUEUE_BYTES = 32 * 1024 * 1024;

/** Waits between forwards of one event that the app did not take (the last repeats while the listener runs). */
export const FORWARD_RETRY_MS: readonly number[] = [1000, 2000, 5000, 10_000, 30_000];

/** An event the app has not (yet) taken: what the listener keeps, and writes out when it stops. */
export interface Unforwarded {
  id: string;
  type: string;
  received_at: string;
  attempts: number;
  /** The last answer: `HTTP 500`, `connection refused`, `timed out`, or `not tried` (the listener stopped first). */
  last_error: string;
  headers: Record<string, string>;
  /** The body as received, byte for byte (what the signature covers). */
  body: string;
}

export interface ForwardCounts {
  /** Events the app took (2xx). */
  delivered: number;
  /** Attempts the app did not take (refused, 5xx, 4xx, 3xx, timed out). */
  failedAttempts: number;
}

/** The wait before the next forward of an event after `attempts` the app did not take (the last wait repeats). */
export function retryWait(attempts: number, retryMs: readonly number[]): number {
  return retryMs[Math.min(attempts - 1, retryMs.length - 1)] ?? 30_000;
}

/** What an attempt the app did not take is kept as: `HTTP 500`, or the error (`ECONNREFUSED`, `timed out`). */
export function lastError(r: ForwardResult): string {
  return r.status === null ? (r.error ?? 'failed') : `HTTP ${r.status}`;
}

/** The app took it: a 2xx. */
export const taken = (r: ForwardResult): boolean => r.status !== null && r.status >= 200 && r.status < 300;

/** An event as kept for the app: its delivery headers and body as received, not tried yet. */
export function unforwardedItem(event: WebhookEvent, raw: string, headers: IncomingHttpHeaders, receivedAt: number): Unforwarded {
  return { id: event.id, type: event.type, received_at: new Date(receivedAt).toISOString(), attempts: 0, last_error: 'not tried', headers: keptHeaders(headers), body: raw };
}

/** Runs a hook of the caller: whatever it throws is noted, never the end of the listener. */
export function safely(note: (m: string) => void, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    note(`Could not handle an event: ${(err as Error)?.message ?? String(err)}`);
  }
}

interface Job {
  event: EventRef;
  item: Unforwarded;
  bytes: number;
  timer?: NodeJS.Timeout;
  inFlight?: AbortController;
}

export interface ForwardQueueOptions {
  forwardTo?: string;
  forwardTimeoutMs?: number;
  userAgent?: string;
  /** Events waiting for the app at most. */
  maxEvents: number;
  retryMs: readonly number[];
  onForward?(event: EventRef, result: ForwardResult): void;
  note(message: string): void;
  /** The app took the event with this id. */
  onTaken(id: string): void;
}

/**
 * Events on their way to the app: FORWARD_CONCURRENCY at a time, each tried
 * again after retryWait() until the app takes it (2xx) or the listener stops;
 * what is left then is what the app did not take.
 */
export class ForwardQueue {
  readonly counts: ForwardCounts = { delivered: 0, failedAttempts: 0 };
  private readonly jobs = new Map<string, Job>();
  private readonly ready: Job[] = [];
  private queuedBytes = 0;
  private running = 0;
  private closing = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly o: ForwardQueueOptions) {}

  get size(): number {
    return this.jobs.size;
  }

  get bytes(): number {
    return this.queuedBytes;
  }

  /** No room for an event of `bytes` (events or bytes at their cap). */
  wouldOverflow(bytes: number): boolean {
    return this.jobs.size >= this.o.maxEvents || this.queuedBytes + bytes > FORWARD_QUEUE_BYTES;
  }

  add(event: EventRef, item: Unforwarded, bytes: number): void {
    const job: Job = { event: { id: event.id, type: event.type }, item, bytes };
    this.jobs.set(event.id, job);
    this.queuedBytes += bytes;
    this.ready.push(job);
    this.pump();
  }

  /** Delivered again while waiting for a retry: tried at once. */
  retryNow(id: string): void {
    const job = this.jobs.get(id);
    if (job && job.timer) {
      clearTimeout(job.timer);
      job.timer = undefined;
      this.ready.unshift(job);
      this.pump();
    }
  }

  private pump(): void {
    while (!this.closing && this.running < FORWARD_CONCURRENCY && this.ready.length > 0) {
      const job = this.ready.shift()!;
      this.running++;
      void this.attempt(job).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0) for (const f of this.idle) f();
      });
    }
  }

  private async attempt(job: Job): Promise<void> {
    const ac = new AbortController();
    job.inFlight = ac;
    job.item.attempts++;
    const r = await forward(this.o.forwardTo!, job.item.body, job.event, job.item.headers, { timeoutMs: this.o.forwardTimeoutMs, userAgent: this.o.userAgent, signal: ac.signal });
    job.inFlight = undefined;
    safely(this.o.note, () => this.o.onForward?.(job.event, r));
    if (taken(r)) {
      this.counts.delivered++;
      this.jobs.delete(job.item.id);
      this.queuedBytes -= job.bytes;
      this.o.onTaken(job.item.id);
      return;
    }
    this.counts.failedAttempts++;
    job.item.last_error = lastError(r);
    if (this.closing) return;
    job.timer = setTimeout(() => {
      job.timer = undefined;
      this.ready.push(job);
      this.pump();
    }, retryWait(job.item.attempts, this.o.retryMs));
    job.timer.unref?.();
  }

  /**
   * Stops: no retry starts, forwards in flight get CLOSE_GRACE_MS to finish
   * and are then cut off. Returns the events the app did not take.
   */
  async close(): Promise<Unforwarded[]> {
    this.closing = true;
    this.ready.length = 0;
    for (const j of this.jobs.values()) if (j.timer) clearTimeout(j.timer);
    if (this.running > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          for (const j of this.jobs.values()) j.inFlight?.abort();
        }, CLOSE_GRACE_MS);
        this.idle.add(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return [...this.jobs.values()].map((j) => j.item);
  }
}
