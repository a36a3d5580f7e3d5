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
 *
 * One journal per results file, for every run into it: a new run (not a
 * resume) appends a new `begin`, and reading starts over at the last one, so
 * the history of finished runs stays in the same file (no `.done` copies).
 * A cell the results file neutralised (a formula) is kept as written:
 *   {"t":"cell","row":12,"col":3,"text":"=HYPERLINK(...)"}
 *
 * The file is opened the one way every appended file for a person is
 * (openPrivateAppend, core/files.ts): created owner-only (0600) under a random
 * exclusive name and linked into place, never through a symbolic link, and
 * an existing one only when it is a regular file of the running user; a file
 * at its path that is not a journal is refused, never appended to.
 */
import { close as closeAsync, closeSync, constants, fdatasync, fdatasyncSync, fstatSync, lstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { UsageError } from '../core/errors.js';
import { checkDestination, openPrivateAppend } from '../core/files.js';
import { fileErrorCause } from './output-files.js';

export type RowStatus = 'created' | 'exists' | 'invalid' | 'failed' | 'not_sent' | 'unknown';

export interface RowOutcome {
  status: RowStatus;
  id?: number | null;
  url?: string | null;
  error?: string | null;
  /**
   * Not journalled: the row failed because the service did not answer it
   * (5xx, network, rate limit) through every retry, rather than refusing it.
   */
  transient?: boolean;
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
  done: Map<number, RowOutcome & { email: string }>;
  /** Rows sent (or about to be) with no outcome recorded: resolve by email. */
  inFlight: Map<number, string>;
  ended: boolean;
}

export function journalPathFor(resultsPath: string): string {
  return `${resultsPath}.journal.ndjson`;
}

/** The first bytes of a file at the journal path: ours starts with a `begin` line (or is empty). */
function assertJournal(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return false;
  if (st.isSymbolicLink()) throw new UsageError(`${path} is a symbolic link; the journal is never written through a link.`, 'remove the link, or choose another --out');
  if (!st.isFile()) throw new UsageError(`${path} is not a journal (it is not a regular file).`, 'move it away, or choose another --out');
  // Another user's file is never read as ours, nor appended to.
  checkDestination(path, 'the journal');
  if (st.size === 0) return false;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let head: string;
  try {
    const buf = Buffer.alloc(Math.min(st.size, 64 * 1024));
    head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const nl = head.indexOf('\n');
  let first: { t?: unknown; v?: unknown; header?: unknown } | undefined;
  try {
    first = JSON.parse(nl === -1 ? head : head.slice(0, nl));
  } catch {
    first = undefined;
  }
  if (!first || first.t !== 'begin' || first.v !== 1 || !Array.isArray(first.header)) {
    throw new UsageError(`${path} is not a jobfit journal; it is left as it is and nothing was sent.`, 'move it away, or choose another --out');
  }
  return true;
}

/**
 * Reads a journal (the run since its last `begin`); a torn line (killed
 * mid-write) is ignored. A file there that is not a journal is refused.
 */
export async function readJournal(path: string): Promise<JournalState> {
  const state: JournalState = { done: new Map(), inFlight: new Map(), ended: false };
  if (!assertJournal(path)) return state;
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
        // A new run into the same results file: what came before is history.
        state.begin = rec as unknown as JournalBegin;
        state.done.clear();
        state.inFlight.clear();
        state.ended = false;
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

  /** The first write error (a full or read-only disk): every later write throws it. */
  failed?: Error;

  /** This writer created the file (a run refused before its first line removes it: remove()). */
  private readonly created: boolean;

  constructor(readonly path: string) {
    // Owner-only from the first byte, never through a link, never another user's file (a UsageError).
    const opened = openPrivateAppend(path, 'the journal');
    this.fd = opened.fd;
    this.created = opened.created;
    try {
      // A line torn by a kill or a full disk must not swallow the next one.
      const size = fstatSync(this.fd).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        const rfd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
        try {
          readSync(rfd, last, 0, 1, size - 1);
        } finally {
          closeSync(rfd);
        }
        if (last[0] !== 0x0a) this.writeNow('\n');
      }
    } catch (err) {
      closeSync(this.fd);
      throw new UsageError(`Cannot write the journal ${path}: ${fileErrorCause(err)}; nothing was sent.`);
    }
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch {
        // Kept in this.failed: the next send refuses, and the run stops there.
      }
    }, FLUSH_MS);
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

  done(row: number, email: string, o: RowOutcome): void {
    this.buf.push(this.line({ t: 'done', row, email, status: o.status, id: o.id ?? null, url: o.url ?? null, error: o.error ?? null }));
    if (this.buf.length >= FLUSH_LINES) this.flush();
  }

  end(at: string, counts: Record<string, number>): void {
    this.buf.push(this.line({ t: 'end', at, counts }));
    this.flush(true);
  }

  /** A neutralised cell's original text (the results file has it with a leading '). */
  cell(row: number, col: number, text: string): void {
    this.buf.push(this.line({ t: 'cell', row, col, text }));
  }

  /** The whole string or an error: a short write (a full disk) is not a written line. */
  private writeNow(s: string): void {
    if (this.failed) throw this.failed;
    try {
      const b = Buffer.from(s);
      let off = 0;
      while (off < b.length) off += writeSync(this.fd, b, off, b.length - off);
    } catch (err) {
      this.failed = err as Error;
      throw err;
    }
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

  /** Writes what is buffered and closes; a write error is thrown after the descriptor is closed. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    let err: unknown;
    try {
      if (!this.failed) this.flush(true);
    } catch (e) {
      err = e;
    }
    this.closed = true;
    if (!this.syncing) closeSync(this.fd);
    if (err) throw err;
  }

  /** Closes, and removes the file when this writer created it (a run that stopped before sending anything leaves no journal). */
  remove(): void {
    try {
      this.close();
    } catch {
      // the file goes anyway
    }
    if (this.created) rmSync(this.path, { force: true });
  }
}
