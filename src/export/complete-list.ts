/**
 * Complete lists past the service's cap.
 *
 * GET /invitations and GET /test-takers return at most 50 items (150 with an
 * `email` or `custom_id` filter) and have no pagination. The `email` filter is
 * a case-insensitive substring match, and every email holds exactly one `@`,
 * so a pattern `s@p` matches exactly the emails whose local part ENDS with `s`
 * and whose domain STARTS with `p`. Such cells split cleanly: `s@p` is the
 * disjoint union of `s@pc` over every character c (plus the emails whose domain
 * is exactly p), and likewise of `cs@p` (plus those whose local part is exactly
 * s). We refine an overflowing cell on whichever side the items already seen
 * say is cheaper, until every cell fits under the cap.
 *
 * Requests are saved three ways:
 * - children are chosen from the characters actually seen in the data; the
 *   rest of the alphabet is probed only when the counts say something is
 *   still missing;
 * - a cell is known complete, without asking, when the items already seen in
 *   the part of it no queried child covers add up to what the counts leave
 *   over (cell total minus the children's totals);
 * - capped answers are not wasted: their items count as seen.
 *
 * Completeness is checked, not assumed: the number of distinct ids must equal
 * the `total_count` of the unfiltered query, or the export fails and says
 * which cells it could not finish.
 *
 * Under churn (docs/exports.md, "Lists that change while they are read"):
 * answers list the newest first, so an answer's newest created_at dates its
 * count. A cell is done only when the items seen in it that existed when it
 * was counted add up to its total, and the final check counts only the items
 * that existed at the first answer; items created since are delivered and
 * reported (`created`), never standing in for an old item not fetched.
 */
import { setMaxListeners } from 'node:events';
import { JobfitError } from '../core/errors.js';
import { askAgain, isGarbled } from './ask-again.js';
import { limiter } from '../core/pool.js';
import { LIST_CAP_FILTERED } from '../api/limits.js';
import { readId } from '../api/ids.js';

export interface ListEnvelopeLike<T> {
  total_count?: number;
  has_more?: boolean;
  data: T[];
}

export interface BaseFilter {
  team_id?: number | string;
  custom_id?: string;
}

export interface ListQuery extends BaseFilter {
  email?: string;
}

export type FetchPage<T> = (query: ListQuery, signal?: AbortSignal) => Promise<ListEnvelopeLike<T>>;

export interface ListAllOptions<T> {
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after every request (for a -v trace or a progress line). */
  onRequest?: (query: ListQuery, answer: { total: number; returned: number; hasMore: boolean }) => void;
  /** The email the filter matches (default `item.email`). */
  emailOf?: (item: T) => string | null | undefined;
  /** Plural noun for messages ("test takers"). */
  noun?: string;
}

export interface ListAllResult {
  /** Distinct items delivered to onItem. */
  items: number;
  /** Requests sent. */
  requests: number;
  /** `total_count` of the unfiltered (base) query. */
  total: number;
  /** The fewest requests any method could need: ceil(total / 150), at least 1. */
  minimum: number;
  /**
   * Items among `items` created after the first answer (newer than its newest
   * item): delivered, but not part of `total`, so `items - created` is what
   * must equal `total`.
   */
  created: number;
}

/** Characters an email may hold, beyond those seen in the data (lower case: the filter ignores case). */
const FALLBACK_DOMAIN = 'abcdefghijklmnopqrstuvwxyz0123456789.-_';
const FALLBACK_LOCAL = `${FALLBACK_DOMAIN}+!#$%&'*/=?^\`{|}~"`;

/**
 * A list request that still fails for a transient cause after the client's
 * own retries (a 429, a dropped connection, a 502/503/504, a page that is
 * not JSON after the list answered well once) is asked again
 * (ask-again.ts): a busy or flaky service must not make a complete list fail.
 */
export function patient<T>(fetchPage: FetchPage<T>, signal?: AbortSignal): FetchPage<T> {
  // A list page that comes back as an HTML page or half a JSON body is asked
  // again like a 502, once the list has answered well at least once (a base
  // URL that is not the service fails at once, on its first answer).
  let answered = false;
  const alsoTransient = (err: unknown) => answered && isGarbled(err);
  return (q, s) =>
    askAgain(
      async () => {
        const page = await fetchPage(q, s);
        answered = true;
        return page;
      },
      { signal, alsoTransient },
    );
}

/** The fewest requests that can return `total` items. */
export function minimumRequests(total: number): number {
  return Math.max(1, Math.ceil(total / LIST_CAP_FILTERED));
}

interface Cell {
  /** Local-part suffix, lower case. */
  s: string;
  /** Domain prefix, lower case. */
  p: string;
}

const patternOf = (c: Cell) => `${c.s}@${c.p}`;

interface Active {
  cell: Cell;
  pattern: string;
  /** The cell's total_count. */
  total: number;
  /** created_at (ms) of the newest item of the answer that gave `total`; +Infinity when it cannot be told. */
  newest: number;
  /** Items seen so far that lie in the cell (kept up to date by take()). */
  members: Seen[];
  /** Members that existed when `total` was counted (created at or before `newest`): what may add up to `total`. */
  counted: number;
}

interface Seen {
  id: string;
  /** created_at in ms (NaN when the item has none). */
  at: number;
  /** Lower-cased email, or '' when the item has none. */
  email: string;
  local: string;
  domain: string;
}

function splitEmail(lc: string): { local: string; domain: string } {
  const at = lc.lastIndexOf('@');
  return at < 0 ? { local: lc, domain: '' } : { local: lc.slice(0, at), domain: lc.slice(at + 1) };
}

type Side = 'local' | 'domain';

/**
 * Every item matching `base`, each exactly once, streamed to `onItem` as it is
 * found. Throws a JobfitError (exit 1) naming what is missing when the
 * distinct items do not add up to the service's `total_count`.
 */
export async function listAll<T>(
  fetchPage: FetchPage<T>,
  base: BaseFilter,
  onItem: (item: T) => void | Promise<void>,
  opts: ListAllOptions<T> = {},
): Promise<ListAllResult> {
  const idOf = (it: T) => String(readId(it !== null && typeof it === 'object' ? (it as { id?: unknown }).id : it, `id of an item of the list of ${noun}`));
  const emailOf = opts.emailOf ?? ((it: T) => (it as { email?: string | null }).email);
  const noun = opts.noun ?? 'items';
  fetchPage = patient(fetchPage, opts.signal);
  const slot = limiter(Math.max(1, opts.concurrency ?? 8));
  const signal = opts.signal;
  // Every request in flight listens to Ctrl-C on the same signal.
  if (signal) setMaxListeners(64, signal);

  const seen = new Map<string, Seen>();
  /** Characters seen at the end of local parts and the start of domains, over all items. */
  const charFreq: Record<Side, Map<string, number>> = { local: new Map(), domain: new Map() };
  let requests = 0;
  /**
   * A server whose answers never add up (it says there are more, yet every
   * narrower filter returns the same few items) would make the search below
   * grow without end; give up, with a sentence, far past what a real list needs.
   */
  let budget = Number.POSITIVE_INFINITY;
  let total0 = 0;
  // onItem runs strictly one item after another, in the order items were found.
  let delivery: Promise<void> = Promise.resolve();
  let deliveryError: unknown;

  const cleanBase: BaseFilter = {};
  if (base.team_id !== undefined && base.team_id !== '') cleanBase.team_id = base.team_id;
  if (base.custom_id) cleanBase.custom_id = base.custom_id;

  function take(items: T[]): void {
    for (const item of items) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      const email = (emailOf(item) ?? '').toLowerCase();
      const { local, domain } = splitEmail(email);
      const entry: Seen = { id, at: createdAt(item), email, local, domain };
      seen.set(id, entry);
      for (const ch of local) bump(charFreq.local, ch);
      for (const ch of domain) bump(charFreq.domain, ch);
      for (const a of active) if (email.includes(a.pattern)) join(a, entry);
      delivery = delivery.then(async () => {
        if (deliveryError !== undefined) return;
        try {
          await onItem(item);
        } catch (err) {
          deliveryError = err;
        }
      });
    }
  }

  async function query(email: string | undefined): Promise<{ total: number; hasMore: boolean; newest: number }> {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const q: ListQuery = { ...cleanBase };
    if (email !== undefined) q.email = email;
    const env = await slot(() => {
      if (requests >= budget) {
        const open = [...active].filter((a) => a.counted < a.total);
        // The narrowest open group says most about where the answers stop adding up.
        const narrowest = open.sort((a, b) => b.pattern.length - a.pattern.length)[0];
        const where = narrowest
          ? ` Not completed: ${open.length} group${open.length === 1 ? '' : 's'}, the narrowest emails matching "${narrowest.pattern.slice(0, 60)}" (${narrowest.counted} of ${narrowest.total} found).`
          : '';
        throw new JobfitError(`Gave up on the complete list of ${noun} after ${requests} requests (${seen.size} of ${total0} found): the service's answers do not add up (it keeps reporting more than it returns).${where}`, {
          hint: 'narrow the list with --team or --custom-id, or check that the base URL points at the service',
        });
      }
      requests++;
      return fetchPage(q, signal);
    });
    if (!env || !Array.isArray(env.data)) throw new JobfitError(`The service answered the list of ${noun} without a data array.`);
    const total = typeof env.total_count === 'number' ? env.total_count : Number.NaN;
    if (!Number.isFinite(total)) throw new JobfitError(`The service answered the list of ${noun} without a total_count; a complete list cannot be checked.`);
    const hasMore = env.has_more === true || env.data.length < total;
    take(env.data);
    opts.onRequest?.(q, { total, returned: env.data.length, hasMore });
    return { total, hasMore, newest: newestOf(env.data) };
  }

  const matches = (it: Seen, c: Cell) => it.email.includes(patternOf(c));
  const unfinished: Array<{ pattern: string; missing: number }> = [];

  /** The character that refines an item of cell `c` on `side`, or '' when it ends there. */
  function nextChar(it: Seen, c: Cell, side: Side): string {
    if (side === 'domain') return it.domain.length > c.p.length ? it.domain[c.p.length] : '';
    return it.local.length > c.s.length ? it.local[it.local.length - c.s.length - 1] : '';
  }

  const child = (c: Cell, side: Side, ch: string): Cell => (side === 'domain' ? { s: c.s, p: c.p + ch } : { s: ch + c.s, p: c.p });

  function charCounts(items: Seen[], c: Cell, side: Side): Map<string, number> {
    const counts = new Map<string, number>();
    for (const it of items) bump(counts, nextChar(it, c, side));
    return counts;
  }

  /**
   * Expected requests to finish cell `c` (of `total` items) by refining on
   * `side`, from the distribution of the items already seen in it.
   */
  function splitCost(counts: Map<string, number>, n: number, side: Side, total: number): number {
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

  /** Characters seen at the same distance from the `@` on this side, over every item: the best guess for a probe. */
  const positional = new Map<string, { size: number; order: string[] }>();
  function positionalOrder(c: Cell, side: Side): string[] {
    const k = side === 'domain' ? c.p.length : c.s.length;
    const key = `${side}${k}`;
    const cached = positional.get(key);
    // Recounted only when the items seen grew by a tenth: an order, not an exact count, is needed.
    if (cached && seen.size < cached.size * 1.1) return cached.order;
    const counts = new Map<string, number>();
    for (const it of seen.values()) {
      const ch = side === 'domain' ? it.domain[k] : it.local[it.local.length - k - 1];
      if (ch) bump(counts, ch);
    }
    const order = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([ch]) => ch);
    positional.set(key, { size: seen.size, order });
    return order;
  }

  /** Unseen characters to probe on `side`: by position, then by overall frequency, then the alphabet. */
  function probeOrder(c: Cell, side: Side, exclude: Set<string>): string[] {
    const out: string[] = [];
    const have = new Set(exclude);
    const add = (ch: string) => {
      if (!have.has(ch) && ch !== '@') {
        have.add(ch);
        out.push(ch);
      }
    };
    for (const ch of positionalOrder(c, side)) add(ch);
    for (const [ch] of [...charFreq[side].entries()].sort((a, b) => b[1] - a[1])) add(ch);
    for (const ch of side === 'domain' ? FALLBACK_DOMAIN : FALLBACK_LOCAL) add(ch);
    return out;
  }

  /** The longest run of characters every member shares next to cell `c` on `side`. */
  function sharedExtension(members: Seen[], c: Cell, side: Side): string {
    if (members.length === 0) return '';
    const rest = (it: Seen) => (side === 'domain' ? it.domain.slice(c.p.length) : it.local.slice(0, it.local.length - c.s.length));
    let ext = rest(members[0]);
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

  const active = new Set<Active>();

  /**
   * Finishes cell `c`, whose total is known and exceeds what one answer held.
   * `tried` lists the sides already exhausted for this cell.
   */
  async function refine(c: Cell, total: number, newest: number, tried: Side[] = [], parent?: Active): Promise<void> {
    const pool = parent ? parent.members : seen.values();
    const cell: Active = { cell: c, pattern: patternOf(c), total, newest, members: [], counted: 0 };
    for (const it of pool) if (matches(it, c)) join(cell, it);
    active.add(cell);
    try {
      await refineActive(cell, total, tried);
    } finally {
      active.delete(cell);
    }
  }

  async function refineActive(cell: Active, total: number, tried: Side[]): Promise<void> {
    const c = cell.cell;
    // Only items that existed when the cell was counted may add up to its
    // total: one created since must not stand in for an old one never fetched.
    const done = () => cell.counted >= total;
    if (done()) return;
    const sides = (['local', 'domain'] as Side[]).filter((s) => !tried.includes(s));
    if (sides.length === 0) {
      unfinished.push({ pattern: cell.pattern, missing: total - cell.counted });
      return;
    }
    const n = cell.members.length || 1;
    const localCounts = charCounts(cell.members, c, 'local');
    const domainCounts = charCounts(cell.members, c, 'domain');
    const side: Side =
      sides.length === 1
        ? sides[0]
        : // The domain side is preferred on a near tie: capped samples show the newest items
          // only, and the end of a local part (often a number) changes with age more than a domain does.
          splitCost(localCounts, n, 'local', total) < 0.85 * splitCost(domainCounts, n, 'domain', total)
          ? 'local'
          : 'domain';
    const other: Side = side === 'local' ? 'domain' : 'local';
    const counts = side === 'local' ? localCounts : domainCounts;
    const queried = new Set<string>();

    // Every item seen continues the same way (`@yahoo` -> `@yahoo.com`): jump
    // to the longest shared extension with one request instead of one per
    // character. When the counts show items outside it, fall through to the
    // character split below.
    if (counts.size === 1 && !counts.has('')) {
      const ext = sharedExtension(cell.members, c, side);
      if (ext.length > 1) {
        const cc = side === 'domain' ? { s: c.s, p: c.p + ext } : { s: ext + c.s, p: c.p };
        const r = await query(patternOf(cc));
        if (r.total === total) {
          if (r.hasMore) await refine(cc, r.total, r.newest, [], cell);
          if (done()) return;
        }
      }
    }

    const visit = async (ch: string) => {
      queried.add(ch);
      const cc = child(c, side, ch);
      const r = await query(patternOf(cc));
      if (r.hasMore) await refine(cc, r.total, r.newest, [], cell);
    };

    // 1. Every character seen at this position, at once.
    const seenChars = [...counts.entries()].filter(([ch]) => ch !== '').sort((a, b) => b[1] - a[1]).map(([ch]) => ch);
    await Promise.all(seenChars.map(visit));
    if (done()) return;

    // 2. What is still missing has a character here that no item seen so far
    // has (in this generator and in real data: the oldest items, which no
    // capped answer returned). The other side's children that fit under the
    // cap return everything they hold, missing items included, with odds
    // proportional to their size; try them, largest first.
    if (!tried.includes(other)) {
      const otherCounts = side === 'local' ? domainCounts : localCounts;
      const small = [...otherCounts.entries()]
        .filter(([ch, k]) => ch !== '' && (total * k) / n <= LIST_CAP_FILTERED * 0.8)
        .sort((a, b) => b[1] - a[1])
        .map(([ch]) => ch);
      const budget = Math.min(small.length, 6);
      for (let i = 0; i < budget && !done(); i++) await query(patternOf(child(c, other, small[i])));
      if (done()) return;
    }

    // 3. Probe the characters nobody has seen here, the likeliest first.
    for (const ch of probeOrder(c, side, queried)) {
      if (done()) return;
      await visit(ch);
    }
    if (done()) return;
    // What is left ends exactly here on this side: refine on the other one.
    await refineActive(cell, total, [...tried, side]);
  }

  const first = await query(undefined);
  const total = first.total;
  total0 = total;
  // What the first answer counted: items created after it are not in `total`.
  const newest0 = first.newest;
  // A few times what a real list needs (the search stays within 5x on realistic data),
  // plus room to probe the whole alphabet on both sides of one cell.
  budget = 8 * minimumRequests(total) + 128;
  if (first.hasMore) {
    // A cut unfiltered answer (50): the `@` pattern matches every email and
    // raises the cap to 150, so small sets finish in one more request.
    const root: Cell = { s: '', p: '' };
    if (total <= LIST_CAP_FILTERED && !cleanBase.custom_id) {
      const r = await query('@');
      if (r.hasMore) await refine(root, r.total, r.newest);
    } else {
      await refine(root, total, newest0);
    }
  }
  await delivery;
  if (deliveryError !== undefined) throw deliveryError;

  let created = 0;
  for (const it of seen.values()) if (it.at > newest0) created++;
  // Items created during the run are delivered, and reported, but only those
  // that existed at the first answer must add up to its total_count.
  const found = seen.size - created;
  const result: ListAllResult = { items: seen.size, requests, total, minimum: minimumRequests(total), created };
  if (found !== total) {
    const where = unfinished.length
      ? ` Unreachable: ${unfinished
          .slice(0, 5)
          .map((u) => `${u.missing} matching email "${u.pattern}"`)
          .join(', ')}${unfinished.length > 5 ? ` and ${unfinished.length - 5} more groups` : ''}.`
      : '';
    const noEmail = [...seen.values()].filter((s) => !s.email).length;
    const why =
      found < total
        ? `${total - found} of ${total} ${noun} could not be reached through the email filter.${where}${noEmail ? ` ${noEmail} items have no email.` : ''}`
        : `found ${found} distinct ${noun} but the service reports ${total}; the list probably changed during the export.`;
    throw new JobfitError(`The complete list is not complete: ${why}`, {
      hint: found < total ? 'run it again; if it persists, narrow the export with --team or --custom-id' : 'run the export again',
    });
  }
  return result;
}

/** Adds `it` to the members of `cell`, counting it when it existed when the cell was counted. */
function join(cell: Active, it: Seen): void {
  cell.members.push(it);
  if (!(it.at > cell.newest)) cell.counted++;
}

/** An item's created_at in ms, NaN when it has none. */
export function createdAt(item: unknown): number {
  const v = item !== null && typeof item === 'object' ? (item as { created_at?: unknown }).created_at : undefined;
  return typeof v === 'string' ? Date.parse(v) : Number.NaN;
}

/**
 * The newest created_at of an answer, which lists newest first: every item
 * of the filter that existed then is at most this old, and an item newer than
 * it was created afterwards. +Infinity (nothing can be told) when an item has
 * no created_at or the answer is not newest first.
 */
export function newestOf(data: unknown[]): number {
  let prev = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const it of data) {
    const at = createdAt(it);
    if (!Number.isFinite(at) || at > prev) return Number.POSITIVE_INFINITY;
    prev = at;
    if (at > max) max = at;
  }
  return data.length === 0 ? Number.POSITIVE_INFINITY : max;
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
