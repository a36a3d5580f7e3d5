/**
 * The complete-list search's record of everyone it has seen, kept flat: the
 * search needs, per person, the id (to tell a new item from one seen
 * before), the created_at (the counts' dates) and the lower-cased email (the
 * cells it lies in). As one object per person, with a Map over them and the
 * cells' member arrays pointing at them, that was about 200 bytes a person,
 * all of the heap's growth from 10,000 people to 100,000 (issue 47,
 * docs/performance.md, "At scale"). Here: the ids in an open-addressed
 * Float64Array, the created_ats in a Float64Array, where each email splits
 * in an Int32Array, the emails one after another in bytes (email-arena.ts), and a cell's members
 * as row numbers in an Int32Array. A row is read back as a Seen (SeenRow), a
 * view made when asked and dropped after.
 */
import type { Seen, Side } from './cell-search.js';
import { grown, ROOM_SLACK, roomFor } from '../core/typed-room.js';
import { EmailArena } from './email-arena.js';

/** Row `row` of a SeenTable, as the rules read an item. */
export class SeenRow implements Seen {
  constructor(
    readonly table: SeenTable,
    readonly row: number,
  ) {}

  get at(): number {
    return this.table.atOf(this.row);
  }

  get email(): string {
    return this.table.emails.email(this.row);
  }

  get local(): string {
    const split = this.table.splitOf(this.row);
    const email = this.email;
    return split < 0 ? email : email.slice(0, split);
  }

  get domain(): string {
    const split = this.table.splitOf(this.row);
    return split < 0 ? '' : this.email.slice(split + 1);
  }

  near(side: Side, k: number): string {
    const split = this.table.splitOf(this.row);
    const emails = this.table.emails;
    if (side === 'domain') return split < 0 ? '' : emails.charAt(this.row, split + 1 + k);
    const end = split < 0 ? emails.length(this.row) : split;
    return end - k - 1 >= 0 ? emails.charAt(this.row, end - k - 1) : '';
  }

  contains(pattern: string): boolean {
    return this.table.emails.contains(this.row, pattern);
  }
}

/** Everyone a search has seen, once each, in the order first seen. */
export class SeenTable {
  size = 0;
  /**
   * One view kept for the table's life, never read. V8 drops an object shape
   * (hidden class) that no live object has in a memory-reducing collection,
   * and under --optimize-for-size (core/heap.ts) every collection is one: the
   * views, made and dropped by the thousand, lost their shape at nearly every
   * collection, and with it the code optimized for them (180 TurboFan
   * compiles in an embedded `test-takers list --all` of 100,130 instead of
   * 31, and the compilers' memory; issue 47, docs/performance.md, "At
   * scale"). Relies on V8 keeping a shape while an object has it:
   * test/listing/view-shape.test.ts fails when that changes.
   */
  readonly keptView: SeenRow = new SeenRow(this, -1);
  private ats = new Float64Array(1024);
  private splits = new Int32Array(1024);
  /** The rows' lower-cased emails, by row. */
  readonly emails = new EmailArena();
  /** Open addressing, linear probing; NaN marks an empty slot (ids are finite numbers). */
  private slots = new Float64Array(2048).fill(Number.NaN);

  /**
   * Records item `id` and returns its row, or -1 when it was seen before.
   * `email` is lower-cased here.
   */
  add(id: number, at: number, email: string | null | undefined): number {
    if (!this.claim(id)) return -1;
    if (this.size === this.ats.length) {
      this.ats = grown(this.ats, (n) => new Float64Array(n), this.ats.length * 2);
      this.splits = grown(this.splits, (n) => new Int32Array(n), this.splits.length * 2);
    }
    const lc = (email ?? '').toLowerCase();
    const row = this.size++;
    this.ats[row] = at;
    this.splits[row] = lc.lastIndexOf('@');
    this.emails.push(lc);
    return row;
  }

  /**
   * Room for `n` rows, made at once: for a list whose total_count is known.
   * Grown by doubling, a table of 100,000 made and freed buffers of up to a
   * few MB; glibc's malloc then raises its mmap and trim thresholds to the
   * largest such buffer freed and keeps up to twice that unreturned for the
   * rest of the run (about 7 MB in a `report` of 100,130; issue 47,
   * docs/performance.md, "At scale"). Made once, at their size, they are
   * freed once, with the table.
   */
  reserve(n: number): void {
    const rows = roomFor(n);
    if (rows <= this.ats.length) return;
    this.ats = grown(this.ats, (m) => new Float64Array(m), rows);
    this.splits = grown(this.splits, (m) => new Int32Array(m), rows);
    this.emails.reserve(rows);
    let size = this.slots.length;
    while (2 * rows > size) size *= 2;
    if (size > this.slots.length) this.rehash(size);
  }

  has(id: number): boolean {
    const mask = this.slots.length - 1;
    for (let i = slotOf(id, mask); ; i = (i + 1) & mask) {
      const v = this.slots[i];
      if (v === id) return true;
      if (Number.isNaN(v)) return false;
    }
  }

  atOf(row: number): number {
    return this.ats[row];
  }

  splitOf(row: number): number {
    return this.splits[row];
  }

  view(row: number): SeenRow {
    return new SeenRow(this, row);
  }

  *values(): IterableIterator<Seen> {
    for (let row = 0; row < this.size; row++) yield new SeenRow(this, row);
  }

  /** Adds `id` to the set of ids; false when it was there. */
  private claim(id: number): boolean {
    if (!Number.isFinite(id)) throw new Error(`not an id: ${id}`);
    if (this.has(id)) return false;
    // At most half full: probes stay short.
    if (2 * (this.size + 1) > this.slots.length) this.rehash();
    const mask = this.slots.length - 1;
    let i = slotOf(id, mask);
    while (!Number.isNaN(this.slots[i])) i = (i + 1) & mask;
    this.slots[i] = id;
    return true;
  }

  private rehash(size = this.slots.length * 2): void {
    const old = this.slots;
    this.slots = new Float64Array(size).fill(Number.NaN);
    const mask = this.slots.length - 1;
    for (const id of old) {
      if (Number.isNaN(id)) continue;
      let i = slotOf(id, mask);
      while (!Number.isNaN(this.slots[i])) i = (i + 1) & mask;
      this.slots[i] = id;
    }
  }
}

/** A slot for `id`: its bits mixed (ids are often consecutive), masked. */
function slotOf(id: number, mask: number): number {
  const lo = id | 0;
  const hi = (id / 4294967296) | 0;
  return Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> 0 & mask;
}

/**
 * The members of a cell: the items seen that lie in it, in the order they
 * joined. Rows of one SeenTable are kept as numbers (4 bytes a member);
 * any other Seen (a test's, or a mix) as the object.
 */
export class MemberList implements Iterable<Seen> {
  private rows: Int32Array;
  private count = 0;
  private table: SeenTable | undefined;
  private objects: Seen[] | undefined;

  /** `capacity`: the members expected (a cell's total), room made at once (see SeenTable.reserve). */
  constructor(capacity = 16) {
    this.rows = new Int32Array(Math.max(16, Math.ceil(capacity * ROOM_SLACK)));
  }

  get length(): number {
    return this.objects ? this.objects.length : this.count;
  }

  push(it: Seen): void {
    if (!this.objects && it instanceof SeenRow && (this.table === undefined || this.table === it.table)) {
      this.table = it.table;
      if (this.count === this.rows.length) this.rows = grown(this.rows, (n) => new Int32Array(n), this.rows.length * 2);
      this.rows[this.count++] = it.row;
      return;
    }
    // Not a row of this list's table: every member as an object from here on, in the same order.
    this.objects ??= [...this];
    this.objects.push(it);
  }

  first(): Seen | undefined {
    if (this.objects) return this.objects[0];
    return this.count > 0 && this.table ? this.table.view(this.rows[0]) : undefined;
  }

  map<U>(f: (it: Seen) => U): U[] {
    const out: U[] = [];
    for (const it of this) out.push(f(it));
    return out;
  }

  *[Symbol.iterator](): Iterator<Seen> {
    if (this.objects) {
      yield* this.objects;
      return;
    }
    const table = this.table;
    if (!table) return;
    for (let i = 0; i < this.count; i++) yield table.view(this.rows[i]);
  }
}
