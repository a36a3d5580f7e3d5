/**
 * The first row of every email in a file, for the in-file duplicate check,
 * in flat typed arrays instead of a Map of strings: 12 bytes a slot (at most
 * half full) instead of ~100 bytes an email, so a 1,000,000-row dry run stays
 * within its memory bound (docs/performance.md).
 *
 * An email is kept as a 64-bit hash (two independent 32-bit halves of the
 * lower-cased text). Two different emails share one with odds of about
 * n^2 / 2^65 (3 in 100,000,000 for a million rows); such a row would be
 * shown invalid, naming the row it collides with, never sent twice or lost.
 */

const EMPTY = 0;

function hash(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class EmailIndex {
  private cap = 1 << 12;
  private keys = new Uint32Array(this.cap * 2);
  /** Row numbers plus one; EMPTY marks a free slot. */
  private rows = new Int32Array(this.cap);
  private used = 0;

  /** The first row recorded for `email` (already lower-cased), if any. */
  get(email: string): number | undefined {
    const a = hash(email, 0x9747b28c);
    const b = hash(email, 0x1b873593);
    for (let i = a & (this.cap - 1); ; i = (i + 1) & (this.cap - 1)) {
      const row = this.rows[i];
      if (row === EMPTY) return undefined;
      if (this.keys[2 * i] === a && this.keys[2 * i + 1] === b) return row - 1;
    }
  }

  /** Records `row` as the first row of `email`; a second set of the same email keeps the first. */
  set(email: string, row: number): void {
    if ((this.used + 1) * 2 > this.cap) this.grow();
    const a = hash(email, 0x9747b28c);
    const b = hash(email, 0x1b873593);
    this.put(a, b, row + 1);
  }

  private put(a: number, b: number, row: number): void {
    for (let i = a & (this.cap - 1); ; i = (i + 1) & (this.cap - 1)) {
      if (this.rows[i] === EMPTY) {
        this.keys[2 * i] = a;
        this.keys[2 * i + 1] = b;
        this.rows[i] = row;
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
