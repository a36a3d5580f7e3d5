/**
 * The results file: one line per input row, in input order, the original cells
 * followed by row, status, invitation_id, assessment_url, error.
 * Rows finish out of order (concurrency); only the window between the oldest
 * unfinished row and the newest finished one is held in memory, which the
 * sender bounds (it stops taking rows when the window grows too wide).
 *
 * Cells a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) get a leading `'`, as `-o csv` does (the same neutraliseCell); the
 * caller is told so that the journal keeps the text as written.
 *
 * The file is written the one way every file for a person is
 * (openOutFileSync, core/whole-file.ts, over createPrivateOutput): a random,
 * exclusive, owner-only temporary file beside it, every write whole, its size
 * checked against the bytes produced, synced and renamed over the results
 * path when the run ends, so a run that is refused, killed or stopped by a
 * full disk leaves the previous results file as it was, and a file planted
 * at the path by another user is refused.
 */
import { openOutFileSync, type OutFileSync } from '../core/whole-file.js';
import { neutraliseCell } from '../format/csv.js';
import type { RowOutcome } from './journal.js';

export const RESULT_COLUMNS = ['row', 'status', 'invitation_id', 'assessment_url', 'error'] as const;

function quoter(delimiter: string): (cell: string) => string {
  const special = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : delimiter}]|^\\s|\\s$`);
  return (cell) => (special.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
}

export class ResultsWriter {
  /** Where the lines go until close() renames them to `path`. */
  protected readonly file: OutFileSync;
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
    /** Called for an input cell written neutralised (row, column index, text as read). */
    private readonly onNeutralised?: (row: number, col: number, text: string) => void,
    /** Our columns after the input's (the errors file has others). */
    columns: readonly string[] = RESULT_COLUMNS,
    protected readonly what = 'results file',
  ) {
    this.quote = quoter(delimiter);
    this.width = header.length;
    // A refusal (a link, a special or another user's file, an unwritable folder) is a UsageError: nothing was sent.
    this.file = openOutFileSync(path, `the ${what}`);
    const taken = new Set(header.map((h) => h.trim().toLowerCase()));
    // Our columns must not hide one of the user's: prefix ours when a name is taken.
    const extra = columns.map((c) => (taken.has(c) ? `jobfit_${c}` : c));
    this.emit((bom ? '\uFEFF' : '') + this.format([...header, ...extra]));
  }

  protected format(cells: string[]): string {
    let line = '';
    for (let i = 0; i < cells.length; i++) {
      if (i) line += this.delimiter;
      line += this.quote(neutraliseCell(cells[i]) as string);
    }
    return `${line}\n`;
  }

  private emit(line: string): void {
    this.out.push(line);
    this.outBytes += line.length;
    if (this.outBytes > 64 * 1024) this.drain();
  }

  /** The first write error (a full disk): the file is then not put in place. */
  failed?: Error;

  private drain(): void {
    if (this.failed) throw this.failed;
    if (this.out.length === 0) return;
    const b = Buffer.from(this.out.join(''));
    this.out = [];
    this.outBytes = 0;
    try {
      this.file.write(b);
    } catch (err) {
      this.failed = err as Error;
      throw err;
    }
  }

  /** A line in no particular order (the errors file). */
  append(cells: string[]): void {
    this.emit(this.format(cells));
    this.written++;
  }

  /** Rows waiting for an earlier row to finish. */
  get window(): number {
    return this.pending.size;
  }

  /** Records the outcome of a row; writes it and every following finished row once its turn comes. */
  put(row: number, cells: string[], o: RowOutcome): void {
    if (this.onNeutralised) {
      for (let i = 0; i < cells.length; i++) if (neutraliseCell(cells[i]) !== cells[i]) this.onNeutralised(row, i, cells[i]);
    }
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

  /**
   * Writes what is in order and puts the file in place (`keep`: false drops
   * it, the previous results file stays). A write error leaves the previous
   * file too, and is thrown.
   */
  close(keep = true): void {
    let err: unknown = this.failed;
    if (keep && !err) {
      try {
        this.drain();
        this.file.commit();
        return;
      } catch (e) {
        err = e;
      }
    }
    this.file.discard();
    if (err) throw err;
  }

  /** Writes what is in order, closes, and leaves the lines in the temporary file (`tmp`) for a caller that turns them into another file. */
  protected closeLines(): string {
    this.drain();
    // Every line whole before another file is made of them.
    this.file.check();
    return this.file.tmp;
  }

  /** Removes the temporary file (after closeLines). */
  protected dropLines(): void {
    this.file.discard();
  }
}
