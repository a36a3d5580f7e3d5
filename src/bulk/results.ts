/**
 * The results file: one line per input row, in input order, the original cells
 * untouched followed by row, status, invitation_id, assessment_url, error.
 * Rows finish out of order (concurrency); only the window between the oldest
 * unfinished row and the newest finished one is held in memory, which the
 * sender bounds (it stops taking rows when the window grows too wide).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { UsageError } from '../cli/errors.js';
import type { Outcome } from './journal.js';

export const RESULT_COLUMNS = ['row', 'status', 'invitation_id', 'assessment_url', 'error'] as const;

function quoter(delimiter: string): (cell: string) => string {
  const special = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : delimiter}]|^\\s|\\s$`);
  return (cell) => (special.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
}

export class ResultsWriter {
  private fd: number;
  private next = 1;
  private pending = new Map<number, string>();
  private out: string[] = [];
  private outBytes = 0;
  private readonly quote: (c: string) => string;
  private readonly width: number;
  /** Lines written so far (rows, not counting the header). */
  written = 0;

  constructor(
    readonly path: string,
    header: string[],
    private readonly delimiter: string,
    bom: boolean,
  ) {
    this.quote = quoter(delimiter);
    this.width = header.length;
    try {
      this.fd = openSync(path, 'w');
    } catch (err) {
      throw new UsageError(`Cannot write the results file ${path}: ${(err as Error).message}.`);
    }
    const taken = new Set(header.map((h) => h.trim().toLowerCase()));
    // Our columns must not hide one of the user's: prefix ours when a name is taken.
    const extra = RESULT_COLUMNS.map((c) => (taken.has(c) ? `jobfit_${c}` : c));
    this.emit((bom ? '\uFEFF' : '') + this.format([...header, ...extra]));
  }

  private format(cells: string[]): string {
    return `${cells.map(this.quote).join(this.delimiter)}\n`;
  }

  private emit(line: string): void {
    this.out.push(line);
    this.outBytes += line.length;
    if (this.outBytes > 64 * 1024) this.drain();
  }

  private drain(): void {
    if (this.out.length === 0) return;
    writeSync(this.fd, this.out.join(''));
    this.out = [];
    this.outBytes = 0;
  }

  /** Rows waiting for an earlier row to finish. */
  get window(): number {
    return this.pending.size;
  }

  /** Records the outcome of a row; writes it and every following finished row once its turn comes. */
  put(row: number, cells: string[], o: Outcome): void {
    const padded = cells.length >= this.width ? cells : [...cells, ...Array(this.width - cells.length).fill('')];
    const line = this.format([
      ...padded,
      String(row),
      o.status,
      o.id === undefined || o.id === null ? '' : String(o.id),
      o.url ?? '',
      o.error ?? '',
    ]);
    if (row !== this.next) {
      this.pending.set(row, line);
      return;
    }
    this.emit(line);
    this.next++;
    this.written++;
    for (;;) {
      const l = this.pending.get(this.next);
      if (l === undefined) break;
      this.pending.delete(this.next);
      this.emit(l);
      this.next++;
      this.written++;
    }
  }

  /** Writes what is in order; rows still waiting are dropped (a resume rewrites the file). */
  close(): void {
    this.drain();
    closeSync(this.fd);
  }
}
