/**
 * Large answers do not flood an assistant's context: a list above the bound
 * (items or bytes) comes back as its first page and a cursor; the next call
 * with the cursor gets the next page of the same answer, kept here (the
 * command ran once, so the pages add up to exactly what it printed). The
 * last few answers are kept; an older cursor is refused in one sentence.
 */
import { randomUUID } from 'node:crypto';
import { UsageError } from '../core/errors.js';

export interface Bounds {
  maxItems: number;
  maxBytes: number;
}

/** A page: the answer's own fields around `data`, cut to the page, with where it is and what follows. */
export type Paged = Record<string, unknown>;

interface Kept {
  head: Record<string, unknown>;
  items: unknown[];
}

const KEEP = 16;

export class Pager {
  private readonly kept = new Map<string, Kept>();
  constructor(private readonly bounds: Bounds) {}

  /** The items of an answer, when it is a list: a JSON array, or an object with a `data` array. */
  static itemsOf(answer: unknown): { head: Record<string, unknown>; items: unknown[] } | undefined {
    if (Array.isArray(answer)) return { head: {}, items: answer };
    if (answer && typeof answer === 'object' && Array.isArray((answer as { data?: unknown }).data)) {
      const { data, ...head } = answer as { data: unknown[] };
      return { head, items: data };
    }
    return undefined;
  }

  /** The whole answer when it is within the bounds; else its first page, the rest kept for the cursor. */
  first(head: Record<string, unknown>, items: unknown[], bytes: number): Paged | undefined {
    if (items.length <= this.bounds.maxItems && bytes <= this.bounds.maxBytes) return undefined;
    const id = randomUUID();
    this.kept.set(id, { head, items });
    while (this.kept.size > KEEP) this.kept.delete(this.kept.keys().next().value!);
    return this.page(id, 0);
  }

  /** The page a cursor points at. */
  next(cursor: string): Paged {
    const [id, at] = cursor.split(':');
    const offset = Number(at);
    if (!this.kept.has(id) || !Number.isSafeInteger(offset) || offset < 0) {
      throw new UsageError('This cursor is not known (the server keeps the last 16 answers, and none after a restart).', 'call the tool again without a cursor');
    }
    return this.page(id, offset);
  }

  private page(id: string, offset: number): Paged {
    const { head, items } = this.kept.get(id)!;
    let end = Math.min(items.length, offset + this.bounds.maxItems);
    // Within the byte bound too, one item at the least.
    while (end > offset + 1 && JSON.stringify(items.slice(offset, end)).length > this.bounds.maxBytes) end = offset + Math.ceil((end - offset) / 2);
    const page: Paged = { ...head, data: items.slice(offset, end), page: { offset, count: end - offset, of: items.length } };
    if (end < items.length) page.next_cursor = `${id}:${end}`;
    else this.kept.delete(id);
    return page;
  }
}
