/**
 * The invitation list as a sync keeps it for a whole run: per item only what
 * the plan reads (id, list hash, test taker, team), in flat typed arrays;
 * and sets of ids as sorted typed arrays. What a 100,000-person list costs
 * here is what a run's memory grows by (docs/performance.md).
 */
import { readId } from '../api/ids.js';
import { type Json, listHash, optId, refId } from './rows.js';
import { grown, roomFor } from '../core/typed-room.js';

/** What a sync keeps of an invitation list item: its id, what the list says of it, its test taker and team. */
export interface Listed {
  id: number;
  listHash: string;
  takerId: number | null;
  teamId: number | null;
}

/** An invitation list item (or an invitation object: the same fields) as the plan reads it; an id that is not one throws. */
export function listed(item: Json): Listed {
  return { id: readId(item.id), listHash: listHash(item), takerId: optId(item.test_taker_id), teamId: refId(item.team) };
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/**
 * The list items of a run as the plan reads them, in flat typed arrays: 32
 * bytes an item instead of about 90 as objects, which a 100,000-item list
 * holds for the whole run (docs/performance.md, "Sync"). `at(i)` gives the
 * item back as a Listed.
 */
export class ListedItems implements Iterable<Listed> {
  length = 0;
  private ids = new Float64Array(1024);
  /** NaN: no test taker (no team). */
  private takers = new Float64Array(1024);
  private teams = new Float64Array(1024);
  /** The 16 hex digits of the list hash, as two 32-bit halves. */
  private hashes = new Uint32Array(2048);

  static of(items: Iterable<Listed>): ListedItems {
    const out = new ListedItems();
    for (const item of items) out.push(item);
    return out;
  }

  push(item: Listed): void {
    if (!/^[0-9a-f]{16}$/.test(item.listHash)) throw new Error(`not a list hash: ${item.listHash}`);
    if (this.length === this.ids.length) this.grow();
    const i = this.length++;
    this.ids[i] = item.id;
    this.takers[i] = item.takerId ?? Number.NaN;
    this.teams[i] = item.teamId ?? Number.NaN;
    this.hashes[2 * i] = Number.parseInt(item.listHash.slice(0, 8), 16);
    this.hashes[2 * i + 1] = Number.parseInt(item.listHash.slice(8), 16);
  }

  at(i: number): Listed {
    const takerId = this.takers[i];
    const teamId = this.teams[i];
    return {
      id: this.ids[i],
      listHash: hex8(this.hashes[2 * i]) + hex8(this.hashes[2 * i + 1]),
      takerId: Number.isNaN(takerId) ? null : takerId,
      teamId: Number.isNaN(teamId) ? null : teamId,
    };
  }

  /** Items `start` to `end` (not included) as Listed objects: a slice of the list to plan or fetch. */
  slice(start: number, end: number): Listed[] {
    const out: Listed[] = [];
    for (let i = start; i < Math.min(end, this.length); i++) out.push(this.at(i));
    return out;
  }

  /**
   * The items in the order of their ids (equal ids keep their order). A
   * complete list comes in the order the search found it, which is no order:
   * people fetched and written in id order read the stub's pages and write
   * the database's B-trees at one end instead of all over them, so a batch's
   * commit touches about as many pages at 100,000 people as at 10,000 (issue 47).
   */
  sortById(): void {
    const n = this.length;
    const ids = this.ids;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ids[a] - ids[b] || a - b);
    // In place, a cycle of the permutation at a time: new arrays and the old ones freed would
    // raise malloc's thresholds for the rest of the run (SeenTable.reserve says how).
    const done = new Uint8Array(n);
    for (let start = 0; start < n; start++) {
      if (done[start]) continue;
      const kept = this.row(start);
      let to = start;
      for (let from = order[to]; from !== start; to = from, from = order[to]) {
        this.move(from, to);
        done[to] = 1;
      }
      this.put(to, kept);
      done[to] = 1;
    }
  }

  /**
   * Room for `n` items, made at once: for a list whose total_count is known
   * (SeenTable.reserve says why).
   */
  reserve(n: number): void {
    const size = roomFor(n);
    if (size <= this.ids.length) return;
    this.resize(size);
  }

  private row(i: number): [number, number, number, number, number] {
    return [this.ids[i], this.takers[i], this.teams[i], this.hashes[2 * i], this.hashes[2 * i + 1]];
  }

  private put(i: number, r: [number, number, number, number, number]): void {
    [this.ids[i], this.takers[i], this.teams[i], this.hashes[2 * i], this.hashes[2 * i + 1]] = r;
  }

  private move(from: number, to: number): void {
    this.ids[to] = this.ids[from];
    this.takers[to] = this.takers[from];
    this.teams[to] = this.teams[from];
    this.hashes[2 * to] = this.hashes[2 * from];
    this.hashes[2 * to + 1] = this.hashes[2 * from + 1];
  }

  /** Every item's id, in a typed array of their own (for an IdSet). */
  idList(): Float64Array {
    return this.ids.slice(0, this.length);
  }

  /** The test takers the items name, and `more`, in a typed array of their own (for an IdSet). */
  takerList(more: Iterable<number>): Float64Array {
    const extra = [...more];
    let named = 0;
    for (let i = 0; i < this.length; i++) if (!Number.isNaN(this.takers[i])) named++;
    const out = new Float64Array(named + extra.length);
    let j = 0;
    for (let i = 0; i < this.length; i++) if (!Number.isNaN(this.takers[i])) out[j++] = this.takers[i];
    out.set(extra, j);
    return out;
  }

  *[Symbol.iterator](): Iterator<Listed> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  private grow(): void {
    this.resize(this.ids.length * 2);
  }

  private resize(size: number): void {
    this.ids = grown(this.ids, (n) => new Float64Array(n), size);
    this.takers = grown(this.takers, (n) => new Float64Array(n), size);
    this.teams = grown(this.teams, (n) => new Float64Array(n), size);
    this.hashes = grown(this.hashes, (n) => new Uint32Array(n), size * 2);
  }
}

/** Ids, sorted in one typed array: 8 bytes an id where a Set of 100,000s costs ~40 and its rehashes. */
export class IdSet {
  /** Distinct ids. */
  readonly size: number;
  private readonly sorted: Float64Array;

  /** A Float64Array is taken as it is and sorted in place (no copy: a list's ids at 100,000 people); any other iterable is copied. */
  constructor(ids: Iterable<number>) {
    this.sorted = (ids instanceof Float64Array ? ids : Float64Array.from(ids)).sort();
    let distinct = 0;
    for (let i = 0; i < this.sorted.length; i++) if (i === 0 || this.sorted[i - 1] !== this.sorted[i]) distinct++;
    this.size = distinct;
  }

  has(id: number): boolean {
    let lo = 0;
    let hi = this.sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.sorted[mid];
      if (v === id) return true;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** What a complete list says is there: every invitation it names, and their test takers (with those accepted since it was read). */
export function present(items: ListedItems, accepted: Iterable<number>): { invitations: IdSet; testTakers: IdSet } {
  // Straight from the typed arrays: no array of numbers per person on the way (issue 47).
  return { invitations: new IdSet(items.idList()), testTakers: namedTakers(items, accepted) };
}

/** The test takers a list names (and `accepted`), without the set of its invitations that present() also makes. */
export function namedTakers(items: ListedItems, accepted: Iterable<number> = []): IdSet {
  return new IdSet(items.takerList(accepted));
}

