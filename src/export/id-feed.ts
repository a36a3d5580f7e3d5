/**
 * Where the ids of a bulk fetch come from: a queue that can be filled while
 * it is being drained (a complete list being discovered feeds it), and the
 * id lists read from a file or stdin.
 */
import { UsageError } from '../core/errors.js';

/** A queue of ids that can be filled while it is being drained. */
export class IdFeed<I> {
  private readonly items: I[] = [];
  private closed = false;
  private waiters: Array<() => void> = [];
  private head = 0;
  /** Ids consumed and dropped from the front of `items`. */
  private offset = 0;
  /** Ids pushed so far. */
  count = 0;

  push(id: I): void {
    if (this.closed) throw new Error('feed closed');
    this.items.push(id);
    this.count++;
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /**
   * The next id with its position (0, 1, 2, ... in the order pushed), or
   * undefined once closed and drained. The position is taken before the
   * consumed prefix is dropped, so it never depends on that housekeeping.
   */
  async next(): Promise<{ id: I; index: number } | undefined> {
    for (;;) {
      if (this.head < this.items.length) {
        const index = this.offset + this.head;
        const id = this.items[this.head++];
        // Let the consumed prefix be collected on very long runs.
        if (this.head > 4096 && this.head * 2 > this.items.length) {
          this.items.splice(0, this.head);
          this.offset += this.head;
          this.head = 0;
        }
        return { id, index };
      }
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  static of<I>(ids: Iterable<I>): IdFeed<I> {
    const f = new IdFeed<I>();
    for (const id of ids) f.push(id);
    f.close();
    return f;
  }
}

/** Reads ids, one per line (blank lines and # comments ignored), from text. */
export function parseIdLines(text: string, what = 'ID'): number[] {
  const ids: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (!/^\d+$/.test(line)) throw new UsageError(`Line ${i + 1} of the id list is not a ${what}: "${line.slice(0, 40)}".`);
    ids.push(Number(line));
  });
  return ids;
}
