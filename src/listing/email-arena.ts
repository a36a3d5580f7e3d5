/**
 * The lower-cased emails of a SeenTable, one after another in one byte
 * buffer: an email whose characters all fit in a byte (nearly all) takes a
 * byte a character and four for where it ends; one that does not is kept as
 * a string on the side. As V8 strings in an array they took about 56 bytes
 * each at 100,000 people, and all of them stayed on the garbage-collected
 * heap (issue 47, docs/performance.md, "At scale"). A character is read
 * without making the string (`charAt`, `contains`); `email` makes it.
 */
import { grown } from '../core/typed-room.js';

/** What `reserve` allows an email: more than most (pages never written cost no memory). */
const BYTES_AN_EMAIL = 40;

export class EmailArena {
  private bytes = new Uint8Array(16 * 1024);
  /** The same memory, for decoding (remade when `bytes` grows). */
  private view = Buffer.from(this.bytes.buffer, 0, this.bytes.byteLength);
  private used = 0;
  /** Where email `i` ends in `bytes` (it starts where `i - 1` ends). */
  private ends = new Int32Array(1024);
  private count = 0;
  /** Emails with a character past U+00FF, by number. */
  private readonly wide = new Map<number, string>();

  /**
   * Room for `n` emails of about `BYTES_AN_EMAIL` characters, made at once
   * (see SeenTable.reserve).
   */
  reserve(n: number): void {
    if (n > this.ends.length) this.ends = grown(this.ends, (m) => new Int32Array(m), n);
    const bytes = n * BYTES_AN_EMAIL;
    if (bytes > this.bytes.length) {
      this.bytes = grown(this.bytes, (m) => new Uint8Array(m), bytes);
      this.view = Buffer.from(this.bytes.buffer, 0, this.bytes.byteLength);
    }
  }

  /** Appends `lc` (already lower-cased) as email number `count`. */
  push(lc: string): void {
    const i = this.count++;
    if (i === this.ends.length) this.ends = grown(this.ends, (n) => new Int32Array(n), this.ends.length * 2);
    if (!fitsBytes(lc)) {
      this.wide.set(i, lc);
      this.ends[i] = this.used;
      return;
    }
    if (this.used + lc.length > this.bytes.length) {
      this.bytes = grown(this.bytes, (n) => new Uint8Array(n), Math.max(this.used + lc.length, Math.ceil(this.bytes.length * 1.5)));
      this.view = Buffer.from(this.bytes.buffer, 0, this.bytes.byteLength);
    }
    for (let k = 0; k < lc.length; k++) this.bytes[this.used + k] = lc.charCodeAt(k);
    this.used += lc.length;
    this.ends[i] = this.used;
  }

  private wideOf(i: number): string | undefined {
    return this.wide.size === 0 ? undefined : this.wide.get(i);
  }

  private start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1];
  }

  email(i: number): string {
    return this.wideOf(i) ?? this.view.toString('latin1', this.start(i), this.ends[i]);
  }

  length(i: number): number {
    return this.wideOf(i)?.length ?? this.ends[i] - this.start(i);
  }

  /** The character at `pos` of email `i`, or '' past its end. */
  charAt(i: number, pos: number): string {
    const w = this.wideOf(i);
    if (w !== undefined) return w[pos] ?? '';
    const at = this.start(i) + pos;
    return pos >= 0 && at < this.ends[i] ? String.fromCharCode(this.bytes[at]) : '';
  }

  /** Email `i` holds `pattern` (as String.prototype.includes). */
  contains(i: number, pattern: string): boolean {
    const w = this.wideOf(i);
    if (w !== undefined) return w.includes(pattern);
    const s = this.start(i);
    const last = this.ends[i] - pattern.length;
    for (let at = s; at <= last; at++) {
      let k = 0;
      while (k < pattern.length && this.bytes[at + k] === pattern.charCodeAt(k)) k++;
      if (k === pattern.length) return true;
    }
    return false;
  }
}

function fitsBytes(s: string): boolean {
  for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) > 0xff) return false;
  return true;
}
