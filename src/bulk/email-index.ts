/**
 * The first row of every email in a file, for the in-file duplicate check,
 * in flat typed arrays instead of a Map of strings: 12 bytes a slot (at most
 * half full) instead of ~100 bytes an email, so a 1,000,000-row dry run stays
 * within its memory bound (docs/performance.md). The table is split in 64
 * shards that grow one at a time, so a growth never holds two copies of the
 * whole table.
 *
 * An email is kept as a 64-bit hash (two independent 32-bit halves of the
 * lower-cased text). Two different emails share one with odds of about
 * n^2 / 2^65 (3 in 100,000,000 for a million rows); such a row would be
 * shown invalid, naming the row it collides with, never sent twice or lost.
 */

const EMPTY = 0;
const SHARD_BITS = 6;

function hash(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

class Shard {
  private cap = 64;
  private keys = new Uint32Array(this.cap * 2);
  /** Row numbers plus one; EMPTY marks a free slot. */
  private rows = new Int32Array(this.cap);
  private used = 0;

  get(a: number, b: number): number | undefined {
    for (let i = a & (this.cap - 1); ; i = (i + 1) & (this.cap - 1)) {
      const row = this.rows[i];
      if (row === EMPTY) return undefined;
      if (this.keys[2 * i] === a && this.keys[2 * i + 1] === b) return row - 1;
    }
  }

  set(a: number, b: number, row: number): void {
    if ((this.used + 1) * 2 > this.cap) this.grow();
    this.put(a, b, row + 1);
  }

  private put(a: number, b: number, stored: number): void {
    for (let i = a & (this.cap - 1); ; i = (i + 1) & (this.cap - 1)) {
      if (this.rows[i] === EMPTY) {
        this.keys[2 * i] = a;
        this.keys[2 * i + 1] = b;
        this.rows[i] = stored;
        this.used++;
        return;
      }
      if (this.keys[2 * i] === a && this.keys[2 * i + 1] === b) return;
    }
  }

  private grow(): void {
    const { keys, rows } = this;
    const old = this.cap;
    this.cap *= 2;
    this.keys = new Uint32Array(this.cap * 2);
    this.rows = new Int32Array(this.cap);
    this.used = 0;
    for (let i = 0; i < old; i++) if (rows[i] !== EMPTY) this.put(keys[2 * i], keys[2 * i + 1], rows[i]);
  }
}

export class EmailIndex {
  private readonly shards = Array.from({ length: 1 << SHARD_BITS }, () => new Shard());

  /** The first row recorded for `email` (already lower-cased), if any. */
  get(email: string): number | undefined {
    const a = hash(email, 0x9747b28c);
    return this.shards[a >>> (32 - SHARD_BITS)].get(a, hash(email, 0x1b873593));
  }

  /** Records `row` as the first row of `email`; a second set of the same email keeps the first. */
  set(email: string, row: number): void {
    const a = hash(email, 0x9747b28c);
    this.shards[a >>> (32 - SHARD_BITS)].set(a, hash(email, 0x1b873593), row);
  }
}
