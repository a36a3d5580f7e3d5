/**
 * A table at the terminal's width, as a person reads it (gh does the same):
 * a header is never cut; the columns a person reads whole (an email, a name)
 * keep their full length when they fit alone; when the table is too wide, the
 * lowest-value columns (a fixed order per command: ColumnSpec.drop, 1 first)
 * are dropped one by one until it fits, and the rest share what is left.
 * Cutting cells (with `…`) comes only after that, and never below a header.
 */

export interface FitColumn {
  /** Width of the header. */
  header: number;
  /** Width of the widest cell or the header. */
  natural: number;
  /** Read whole (an email, a name): never cut while it fits alone. */
  whole?: boolean;
  /** Drop order when the table is too wide: 1 goes first; undefined: never dropped. */
  drop?: number;
}

export interface Fit {
  /** Indexes of the columns kept, in their order. */
  keep: number[];
  /** Widths of the kept columns. */
  widths: number[];
  /** Indexes of the columns dropped, in the order dropped. */
  dropped: number[];
}

const GAP = 2;
/** A column cut narrower than this is no longer read: it is left out first (dates, ids and codes fit in it). */
const READABLE = 10;

/** The least a column may take: its header, and its text up to READABLE; a whole column, all of it (up to the width). */
function floorOf(c: FitColumn, width: number): number {
  return c.whole ? Math.max(c.header, Math.min(c.natural, width)) : Math.max(c.header, Math.min(c.natural, READABLE));
}

const span = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);

/**
 * Which columns to show at `width`, and how wide: drop (lowest value first)
 * until every kept column fits at its floor, then share the rest (water-filling
 * above the floors). When nothing more can be dropped and the whole columns
 * together are too wide, the shortest of them may be cut (an email, the
 * longest, stays whole); when even the headers are wider than `width`, the
 * floors are kept: a line too long, never a cut header.
 */
export function fitColumns(given: FitColumn[], width: number): Fit {
  const cols = given.map((c) => ({ ...c }));
  const keep = cols.map((_, i) => i);
  const dropped: number[] = [];
  if (span(cols.map((c) => c.natural)) <= width) return { keep, widths: cols.map((c) => c.natural), dropped };
  const floors = () => span(keep.map((i) => floorOf(cols[i], width)));
  const order = keep.filter((i) => cols[i].drop !== undefined).sort((a, b) => cols[a].drop! - cols[b].drop!);
  while (floors() > width && order.length > 0) {
    const i = order.shift()!;
    keep.splice(keep.indexOf(i), 1);
    dropped.push(i);
  }
  const whole = keep.filter((i) => cols[i].whole).sort((a, b) => cols[a].natural - cols[b].natural);
  while (floors() > width && whole.length > 1) cols[whole.shift()!].whole = false;
  return { keep, widths: share(keep.map((i) => cols[i]), width), dropped };
}

/** Widths of `cols` in `width`: each its floor, and what is left shared so that narrow wants are met first. */
function share(cols: FitColumn[], width: number): number[] {
  const natural = cols.map((c) => c.natural);
  if (span(natural) <= width) return natural;
  const floors = cols.map((c) => floorOf(c, width));
  let left = width - span(floors);
  if (left <= 0) return floors;
  const want = cols.map((c, i) => c.natural - floors[i]);
  const widths = [...floors];
  // Water-filling: the smallest wants are met whole, the rest get an equal share.
  const open = want.map((w, i) => i).filter((i) => want[i] > 0).sort((a, b) => want[a] - want[b]);
  while (open.length > 0 && left > 0) {
    const each = Math.floor(left / open.length);
    const i = open[0];
    if (want[i] <= each) {
      widths[i] += want[i];
      left -= want[i];
      open.shift();
      continue;
    }
    for (const k of open) widths[k] += each;
    left -= each * open.length;
    // What a floor division leaves goes to the first ones.
    for (const k of open.slice(0, left)) widths[k] += 1;
    break;
  }
  return widths;
}

/**
 * The stderr note for dropped columns: which, and how to see them (--fields
 * with the first column, usually the id, and the dropped ones; or -o csv).
 */
export function droppedNote(headers: string[], keys: string[], firstKey: string, width: number): string {
  const named = headers.map((h, i) => (h.toLowerCase() === keys[i].replaceAll('_', ' ') ? h : `${h} (${keys[i]})`));
  const fields = [...new Set([firstKey, ...keys])].join(',');
  return `Left out to fit ${width} columns: ${named.join(', ')}; see them with --fields ${fields}, or every column with -o csv.`;
}
