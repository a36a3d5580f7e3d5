/**
 * The journal beside the results file: append-only NDJSON, the memory of a
 * run that survives `kill -9`.
 *
 *   {"t":"begin","v":1,"input":"/abs/in.csv","header":[...],"rows":10000,"at":"..."}
 *   {"t":"send","row":12,"email":"ana@example.com"}          before the POST
 *   {"t":"done","row":12,"email":"...","status":"created","id":345,"url":"https://...","error":null}
 *   {"t":"resume","at":"..."}                                 each --resume
 *   {"t":"end","at":"...","counts":{...}}                     the run finished
 *
 * Durability: a "send" line is written with a synchronous write() before the
 * request leaves, so it is in the kernel's page cache (it survives the process
 * being killed); "done" lines are buffered and written in batches; both are
 * fsync'd in batches (every FLUSH_MS), which covers a machine crash up to the
 * last batch. A "send" without its "done" is resolved on resume by looking the
 * email up, never by sending blindly, so a lost "done" costs one GET, not a
 * duplicate.
 */
import { close as closeAsync, closeSync, existsSync, fdatasync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { UsageError } from '../cli/errors.js';

export type RowStatus = 'created' | 'exists' | 'invalid' | 'failed';

export interface Outcome {
  status: RowStatus;
  id?: number | null;
  url?: string | null;
  error?: string | null;
}

export interface JournalBegin {
  t: 'begin';
  v: 1;
  input: string;
  header: string[];
  rows: number;
  at: string;
}

export interface JournalState {
  begin?: JournalBegin;
  /** Rows with a final outcome (created/exists/failed). */
  done: Map<number, Outcome & { email: string }>;
  /** Rows sent (or about to be) with no outcome recorded: resolve by email. */
  inFlight: Map<number, string>;
  ended: boolean;
}

export function journalPathFor(resultsPath: string): string {
  return `${resultsPath}.journal.ndjson`;
}

/** Reads a journal; a torn last line (killed mid-write) is ignored. */
export async function readJournal(path: string): Promise<JournalState> {
  const state: JournalState = { done: new Map(), inFlight: new Map(), ended: false };
  if (!existsSync(path)) return state;
  const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of rl) {
    if (!line) continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    switch (rec.t) {
      case 'begin':
        state.begin ??= rec as unknown as JournalBegin;
        break;
      case 'send':
        if (!state.done.has(rec.row as number)) state.inFlight.set(rec.row as number, String(rec.email ?? ''));
        break;
      case 'done': {
        const row = rec.row as number;
        state.inFlight.delete(row);
        state.done.set(row, {
          email: String(rec.email ?? ''),
          status: rec.status as RowStatus,
          id: (rec.id as number | null) ?? null,
          url: (rec.url as string | null) ?? null,
          error: (rec.error as string | null) ?? null,
        });
        break;
      }
      case 'end':
        state.ended = true;
        break;
      case 'resume':
        state.ended = false;
        break;
    }
  }
  return state;
}

const FLUSH_MS = 200;
const FLUSH_LINES = 512;

export class JournalWriter {
  private fd: number;
  private buf: string[] = [];
  private lastSync = Date.now();
  private timer?: NodeJS.Timeout;
  private dirty = false;
  /** A periodic fdatasync is running on libuv's thread pool. */
  private syncing = false;
  private closed = false;

  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, 'a');
    } catch (err) {
      throw new UsageError(`Cannot write the journal ${path}: ${(err as Error).message}.`);
    }
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  private line(rec: unknown): string {
    return `${JSON.stringify(rec)}\n`;
  }

  begin(rec: Omit<JournalBegin, 't' | 'v'>): void {
    this.writeNow(this.line({ t: 'begin', v: 1, ...rec }));
  }

  resume(at: string): void {
    this.writeNow(this.line({ t: 'resume', at }));
  }

  /** Before the request: must reach the kernel before the POST leaves. */
  sending(rows: Array<{ row: number; email: string }>): void {
    if (rows.length === 0) return;
    let s = this.buf.length ? this.buf.join('') : '';
    this.buf = [];
    for (const r of rows) s += this.line({ t: 'send', row: r.row, email: r.email });
    this.writeNow(s);
  }

  done(row: number, email: string, o: Outcome): void {
    this.buf.push(this.line({ t: 'done', row, email, status: o.status, id: o.id ?? null, url: o.url ?? null, error: o.error ?? null }));
    if (this.buf.length >= FLUSH_LINES) this.flush();
  }

  end(at: string, counts: Record<string, number>): void {
    this.buf.push(this.line({ t: 'end', at, counts }));
    this.flush(true);
  }

  private writeNow(s: string): void {
    writeSync(this.fd, s);
    this.dirty = true;
  }

  /** Writes buffered lines; fsyncs at most every FLUSH_MS (always when forced). */
  flush(force = false): void {
    if (this.buf.length) {
      const s = this.buf.join('');
      this.buf = [];
      this.writeNow(s);
    }
    if (!this.dirty) return;
    if (force) {
      fdatasyncSync(this.fd);
      this.dirty = false;
      this.lastSync = Date.now();
    } else if (!this.syncing && Date.now() - this.lastSync >= FLUSH_MS) {
      // The periodic sync (machine-crash cover) runs off the event loop: a
      // synchronous one held every request of a bulk run for its duration.
      this.syncing = true;
      this.dirty = false;
      this.lastSync = Date.now();
      const fd = this.fd;
      fdatasync(fd, () => {
        this.syncing = false;
        // close() came while this ran: the descriptor is closed here, not under it.
        if (this.closed) closeAsync(fd, () => {});
      });
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.flush(true);
    this.closed = true;
    if (!this.syncing) closeSync(this.fd);
  }
}
