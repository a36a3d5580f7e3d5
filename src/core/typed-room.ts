/**
 * Room in typed arrays for the tables of a run (the complete-list search's,
 * the sync's list of items): copied into a larger array when full, or made
 * once at the size a list's total_count announces (SeenTable.reserve says
 * why: issue 47, docs/performance.md, "At scale").
 *
 * A copy of typed array `a` in a new one of length `n` (made by `make`).
 */
export const grown = <A extends Float64Array | Int32Array | Uint32Array | Uint8Array>(a: A, make: (n: number) => A, n: number): A => {
  const b = make(n);
  b.set(a);
  return b;
};

/** What is added to a total: items created while a list is read. */
export const ROOM_SLACK = 1.125;

/** The rows to make at once for a list of `total` items. */
export const roomFor = (total: number): number => Math.ceil(total * ROOM_SLACK) + 1024;
