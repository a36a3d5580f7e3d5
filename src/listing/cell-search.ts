/**
 * The rules of the partition search of complete-list.ts, as named steps that
 * a unit test can reach: what a cell (`s@p`) is, which items it holds, when
 * it is done, which side to refine it on (the cost model), which characters
 * to ask for first, and what to say when the counts do not add up. The
 * search itself (requests, concurrency, the order of the steps) stays in
 * complete-list.ts; nothing here sends a request.
 */
import { JobfitError } from '../core/errors.js';
import { MemberList } from './seen-table.js';
import { LIST_CAP_FILTERED } from '../api/limits.js';

/** Characters an email may hold, beyond those seen in the data (lower case: the filter ignores case). */
export const FALLBACK_DOMAIN = 'abcdefghijklmnopqrstuvwxyz0123456789.-_';
export const FALLBACK_LOCAL = `${FALLBACK_DOMAIN}+!#$%&'*/=?^\`{|}~"`;

/** The end of a local part (`local`) or the start of a domain (`domain`). */
export type Side = 'local' | 'domain';

/** The emails whose local part ends with `s` and whose domain starts with `p`: the filter `s@p`. */
export interface SearchCell {
  /** Local-part suffix, lower case. */
  s: string;
  /** Domain prefix, lower case. */
  p: string;
}

/** Everyone seen so far (a SeenTable, or a Map of Seen in a test). */
export interface SeenSoFar {
  readonly size: number;
  values(): Iterable<Seen>;
}

/** An item the search has seen, as the rules need it. */
export interface Seen {
  /** created_at in ms (NaN when the item has none). */
  readonly at: number;
  /** Lower-cased email, or '' when the item has none. */
  readonly email: string;
  readonly local: string;
  readonly domain: string;
  /** The character `k` places away from the `@` on `side` (0: next to it), or '' past the end. */
  near(side: Side, k: number): string;
  /** The email holds `pattern` (a filter's substring match). */
  contains(pattern: string): boolean;
}

/**
 * A Seen that keeps the email once and where it splits: the local part and
 * the domain are read from it when asked. The search keeps one per person
 * for the whole listing, so each field is memory that grows with the list
 * (two strings fewer: about 250 bytes an item down to 180, measured with
 * 100,000 items; issue 47).
 */
class SeenEmail implements Seen {
  constructor(
    readonly at: number,
    readonly email: string,
    /** Index of the last `@`, or -1. */
    private readonly split: number,
  ) {}

  get local(): string {
    return this.split < 0 ? this.email : this.email.slice(0, this.split);
  }

  get domain(): string {
    return this.split < 0 ? '' : this.email.slice(this.split + 1);
  }

  near(side: Side, k: number): string {
    const end = this.split < 0 ? this.email.length : this.split;
    if (side === 'domain') return this.split < 0 ? '' : (this.email[this.split + 1 + k] ?? '');
    return end - k - 1 >= 0 ? this.email[end - k - 1] : '';
  }

  contains(pattern: string): boolean {
    return this.email.includes(pattern);
  }
}

/** A cell being refined: its count and the items seen in it so far. */
export interface Active {
  cell: SearchCell;
  pattern: string;
  /** The cell's total_count. */
  total: number;
  /** created_at (ms) of the newest item of the answer that gave `total`; +Infinity when it cannot be told. */
  newest: number;
  /** Items seen so far that lie in the cell (kept up to date as items are seen; rows of the search's SeenTable). */
  members: MemberList;
  /** Members that existed when `total` was counted (created at or before `newest`): what may add up to `total`. */
  counted: number;
}

/** A cell the search could not finish, for the final message. */
export interface Unfinished {
  pattern: string;
  missing: number;
}

export const patternOf = (c: SearchCell): string => `${c.s}@${c.p}`;

/** The local part and the domain of a lower-cased email (split at its last `@`). */
export function splitEmail(lc: string): { local: string; domain: string } {
  const at = lc.lastIndexOf('@');
  return at < 0 ? { local: lc, domain: '' } : { local: lc.slice(0, at), domain: lc.slice(at + 1) };
}

/** What the rules keep of an item: its id, created_at and email (lower-cased, split). */
export function seenItem(at: number, email: string | null | undefined): Seen {
  const lc = (email ?? '').toLowerCase();
  return new SeenEmail(at, lc, lc.lastIndexOf('@'));
}

/** The item lies in cell `c`: the filter `s@p` matches its email. */
export const matches = (it: Seen, c: SearchCell): boolean => it.contains(patternOf(c));

/** The character that refines an item of cell `c` on `side`, or '' when it ends there. */
export function nextChar(it: Seen, c: SearchCell, side: Side): string {
  return it.near(side, side === 'domain' ? c.p.length : c.s.length);
}

/** Cell `c` narrowed by `ext` on `side` (one character, or a run of them). */
export const child = (c: SearchCell, side: Side, ext: string): SearchCell => (side === 'domain' ? { s: c.s, p: c.p + ext } : { s: ext + c.s, p: c.p });

/** How many of `items` continue cell `c` with each character on `side` ('' for those that end there). */
export function charCounts(items: Iterable<Seen>, c: SearchCell, side: Side): Map<string, number> {
  const counts = new Map<string, number>();
  for (const it of items) bump(counts, nextChar(it, c, side));
  return counts;
}

/**
 * Expected requests to finish a cell of `total` items by refining on `side`,
 * from the distribution (`counts`, over `n` items seen) of its next characters.
 */
export function splitCost(counts: Map<string, number>, n: number, side: Side, total: number): number {
  let cost = 0;
  let singletons = 0;
  let distinct = 0;
  for (const [ch] of counts) if (ch !== '') distinct++;
  // An overflowing child splits again about as widely as this cell does (ten
  // ways for digits), and its children again, until they fit: a child just
  // above the cap costs a whole level of requests.
  const fan = Math.min(20, Math.max(4, distinct));
  const tree = (x: number): number => (x <= LIST_CAP_FILTERED ? 1 : 1 + fan * tree(x / fan));
  for (const [ch, k] of counts) {
    if (ch === '') continue;
    cost += tree((total * k) / n);
    if (k === 1) singletons++;
  }
  // Good-Turing: the share of the cell in characters not seen yet; each costs a probe.
  const alphabet = side === 'domain' ? FALLBACK_DOMAIN.length : FALLBACK_LOCAL.length;
  const unseenMass = (singletons / n) * total;
  if (unseenMass >= 1) cost += Math.min(alphabet - distinct, 2 + Math.sqrt(unseenMass) / 2);
  // Items that end at this cell on this side cannot be reached by its children at all.
  const ends = counts.get('') ?? 0;
  if (ends > 0) cost += 3 + ((total * ends) / n / LIST_CAP_FILTERED) * 20;
  return cost;
}

/**
 * The side to refine `cell` on, of those not yet exhausted, with what the
 * choice was made from: the next-character counts of both sides over `n` members.
 */
export function chooseSide(cell: Active, sides: Side[]): { side: Side; n: number; localCounts: Map<string, number>; domainCounts: Map<string, number> } {
  const n = cell.members.length || 1;
  const localCounts = charCounts(cell.members, cell.cell, 'local');
  const domainCounts = charCounts(cell.members, cell.cell, 'domain');
  const side: Side =
    sides.length === 1
      ? sides[0]
      : // The domain side is preferred on a near tie: capped samples show the newest items
        // only, and the end of a local part (often a number) changes with age more than a domain does.
        splitCost(localCounts, n, 'local', cell.total) < 0.85 * splitCost(domainCounts, n, 'domain', cell.total)
        ? 'local'
        : 'domain';
  return { side, n, localCounts, domainCounts };
}

/** The characters seen next to a cell, the most frequent first (those that end there left out). */
export function seenOrder(counts: Map<string, number>): string[] {
  return [...counts.entries()]
    .filter(([ch]) => ch !== '')
    .sort((a, b) => b[1] - a[1])
    .map(([ch]) => ch);
}

/**
 * Children on the other side expected to fit under the cap (with some room),
 * the largest first, at most `limit`: they return everything they hold,
 * items never seen included.
 */
export function smallChildren(counts: Map<string, number>, n: number, total: number, limit = 6): string[] {
  const small = [...counts.entries()]
    .filter(([ch, k]) => ch !== '' && (total * k) / n <= LIST_CAP_FILTERED * 0.8)
    .sort((a, b) => b[1] - a[1])
    .map(([ch]) => ch);
  return small.slice(0, Math.min(small.length, limit));
}

/** The longest run of characters every member shares next to cell `c` on `side` (at most 200). */
export function sharedExtension(members: Seen[] | MemberList, c: SearchCell, side: Side): string {
  const first = members instanceof MemberList ? members.first() : members[0];
  if (!first) return '';
  const rest = (it: Seen) => (side === 'domain' ? it.domain.slice(c.p.length) : it.local.slice(0, it.local.length - c.s.length));
  let ext = rest(first);
  for (const it of members) {
    const r = rest(it);
    if (side === 'domain') {
      let i = 0;
      while (i < ext.length && i < r.length && ext[i] === r[i]) i++;
      ext = ext.slice(0, i);
    } else {
      let i = 0;
      while (i < ext.length && i < r.length && ext[ext.length - 1 - i] === r[r.length - 1 - i]) i++;
      ext = ext.slice(ext.length - i);
    }
    if (!ext) break;
  }
  return ext.slice(side === 'domain' ? 0 : Math.max(0, ext.length - 200), 200);
}

/**
 * The jump of step 0: when every member seen continues cell `c` the same way
 * on `side` (one next character, none ending there) for more than one
 * character, the child that extends it by that whole shared run.
 */
export function sharedJump(cell: Active, side: Side, counts: Map<string, number>): SearchCell | undefined {
  if (counts.size !== 1 || counts.has('')) return undefined;
  const ext = sharedExtension(cell.members, cell.cell, side);
  return ext.length > 1 ? child(cell.cell, side, ext) : undefined;
}

/** A cell to refine, of `total` items counted at `newest`, with the members of `pool` that lie in it. */
export function openCell(c: SearchCell, total: number, newest: number, pool: Iterable<Seen>): Active {
  const cell: Active = { cell: c, pattern: patternOf(c), total, newest, members: new MemberList(total), counted: 0 };
  for (const it of pool) if (matches(it, c)) join(cell, it);
  return cell;
}

/** Adds `it` to the members of `cell`, counting it when it existed when the cell was counted. */
export function join(cell: Active, it: Seen): void {
  cell.members.push(it);
  if (!(it.at > cell.newest)) cell.counted++;
}

/**
 * The completeness rule of a cell: it is done when the members that existed
 * when it was counted add up to its total. An item created since must not
 * stand in for an old one never fetched.
 */
export function cellDone(cell: Active): boolean {
  return cell.counted >= cell.total;
}

/**
 * Which characters appear where in the emails seen so far: the guess for
 * characters nobody has seen next to a cell yet.
 */
export class CharStats {
  /** Characters seen at the end of local parts and the start of domains, over all items. */
  private readonly freq: Record<Side, Map<string, number>> = { local: new Map(), domain: new Map() };
  /** Characters seen at the same distance from the `@`, per side and distance, recounted as items grow. */
  private readonly positional = new Map<string, { size: number; order: string[] }>();

  /** Counts the characters of an item just seen. */
  add(it: Seen): void {
    for (const ch of it.local) bump(this.freq.local, ch);
    for (const ch of it.domain) bump(this.freq.domain, ch);
  }

  /** Unseen characters to probe next to `c` on `side`: by position, then by overall frequency, then the alphabet. */
  probeOrder(c: SearchCell, side: Side, exclude: Set<string>, seen: SeenSoFar): string[] {
    const out: string[] = [];
    const have = new Set(exclude);
    const add = (ch: string) => {
      if (!have.has(ch) && ch !== '@') {
        have.add(ch);
        out.push(ch);
      }
    };
    for (const ch of this.positionalOrder(c, side, seen)) add(ch);
    for (const [ch] of [...this.freq[side].entries()].sort((a, b) => b[1] - a[1])) add(ch);
    for (const ch of side === 'domain' ? FALLBACK_DOMAIN : FALLBACK_LOCAL) add(ch);
    return out;
  }

  /** Characters seen at the same distance from the `@` on this side, over every item: the best guess for a probe. */
  private positionalOrder(c: SearchCell, side: Side, seen: SeenSoFar): string[] {
    const k = side === 'domain' ? c.p.length : c.s.length;
    const key = `${side}${k}`;
    const cached = this.positional.get(key);
    // Recounted only when the items seen grew by a tenth: an order, not an exact count, is needed.
    if (cached && seen.size < cached.size * 1.1) return cached.order;
    const counts = new Map<string, number>();
    for (const it of seen.values()) {
      const ch = it.near(side, k);
      if (ch) bump(counts, ch);
    }
    const order = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([ch]) => ch);
    this.positional.set(key, { size: seen.size, order });
    return order;
  }
}

/**
 * The search went on far past what a real list needs: the service's answers
 * do not add up. Names the narrowest group still open.
 */
export function gaveUpError(o: { open: Active[]; requests: number; found: number; total: number; noun: string }): JobfitError {
  // The narrowest open group says most about where the answers stop adding up.
  const narrowest = [...o.open].sort((a, b) => b.pattern.length - a.pattern.length)[0];
  const where = narrowest
    ? ` Not completed: ${o.open.length} group${o.open.length === 1 ? '' : 's'}, the narrowest emails matching "${narrowest.pattern.slice(0, 60)}" (${narrowest.counted} of ${narrowest.total} found).`
    : '';
  return new JobfitError(`Gave up on the complete list of ${o.noun} after ${o.requests} requests (${o.found} of ${o.total} found): the service's answers do not add up (it keeps reporting more than it returns).${where}`, {
    hint: 'narrow the list with --team or --custom-id, or check that the base URL points at the service',
  });
}

/** The fewest requests that can return `total` items. */
export function minimumRequests(total: number): number {
  return Math.max(1, Math.ceil(total / LIST_CAP_FILTERED));
}

/**
 * The request budget of a search for `total` items: a few times what a real
 * list needs (the search stays within 5x on realistic data), plus room to
 * probe the whole alphabet on both sides of one cell.
 */
export function requestBudget(total: number): number {
  return 8 * minimumRequests(total) + 128;
}

/**
 * The final count check: of the items seen, those that existed at the first
 * answer (not newer than `newest0`) must add up to its total. Returns how many
 * were created since; throws, naming what is missing, when they do not add up.
 */
export function checkComplete(o: { seen: Iterable<Seen>; newest0: number; total: number; unfinished: Unfinished[]; noun: string }): number {
  // One pass, nothing kept: `seen` is everyone (a SeenTable's views are made one at a time).
  let count = 0;
  let created = 0;
  let noEmail = 0;
  for (const it of o.seen) {
    count++;
    if (it.at > o.newest0) created++;
    if (!it.email) noEmail++;
  }
  // Items created during the run are delivered, and reported, but only those
  // that existed at the first answer must add up to its total_count.
  const found = count - created;
  if (found === o.total) return created;
  const { total, unfinished, noun } = o;
  const where = unfinished.length
    ? ` Unreachable: ${unfinished
        .slice(0, 5)
        .map((u) => `${u.missing} matching email "${u.pattern}"`)
        .join(', ')}${unfinished.length > 5 ? ` and ${unfinished.length - 5} more groups` : ''}.`
    : '';
  const why =
    found < total
      ? `${total - found} of ${total} ${noun} could not be reached through the email filter.${where}${noEmail ? ` ${noEmail} items have no email.` : ''}`
      : `found ${found} distinct ${noun} but the service reports ${total}; the list probably changed during the export.`;
  throw new JobfitError(`The complete list is not complete: ${why}`, {
    hint: found < total ? 'run it again; if it persists, narrow the export with --team or --custom-id' : 'run the export again',
  });
}

export function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
