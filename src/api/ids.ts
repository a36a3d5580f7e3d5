/**
 * Ids as the reference's integers, whether the server sends `50001` or
 * `"50001"`. Anything else is an error, never a skip.
 */
export function readId(v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
  }
  throw new Error(`${JSON.stringify(v) ?? String(v)} is not an id (a non-negative integer)`);
}
