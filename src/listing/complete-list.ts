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
import { createdAt, itemKey, newestOf } from './list-item.js';
import { LIST_CAP_FILTERED } from '../api/limits.js';
import {
  type Active,
  type SearchCell,
  CharStats,
  cellDone,
  checkComplete,
  child,
  chooseSide,
  gaveUpError,
  join,
  minimumRequests,
  openCell,
  patternOf,
  requestBudget,
  seenOrder,
  sharedJump,
  type Side,
  smallChildren,
  type Unfinished,
} from './cell-search.js';
import { InOrder } from './in-order.js';
import { SeenTable } from './seen-table.js';

export { minimumRequests } from './cell-search.js';

export interface ListEnvelopeLike<T> {
  total_count?: number;
  has_more?: boolean;
  data: T[];
}

export interface BaseFilter {
  team_id?: number | string;
  custom_id?: string;
}

export interface ListPageQuery extends BaseFilter {
  email?: string;
}

export type FetchPage<T> = (query: ListPageQuery, signal?: AbortSignal) => Promise<ListEnvelopeLike<T>>;

export interface ListAllOptions<T> {
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after every request (for a -v trace or a progress line). */
  onRequest?: (query: ListPageQuery, answer: { total: number; returned: number; hasMore: boolean }) => void;
  /** Called once with the `total_count` of the unfiltered query, when its first answer comes: room to make for that many items. */
  onTotal?: (total: number) => void;
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

/** The base filter as sent: an empty team or custom id is no filter at all. */
export function cleanFilter(base: BaseFilter): BaseFilter {
  const clean: BaseFilter = {};
  if (base.team_id !== undefined && base.team_id !== '') clean.team_id = base.team_id;
  if (base.custom_id) clean.custom_id = base.custom_id;
  return clean;
}

/**
 * What a list answer says, checked: its total_count and whether it was cut
 * (`has_more`, or fewer items than the count). A complete list cannot be
 * checked without both a data array and a count.
 */
export function readAnswer<T>(env: ListEnvelopeLike<T> | undefined, noun: string): { total: number; hasMore: boolean } {
  if (!env || !Array.isArray(env.data)) throw new JobfitError(`The service answered the list of ${noun} without a data array.`);
  const total = typeof env.total_count === 'number' ? env.total_count : Number.NaN;
  if (!Number.isFinite(total)) throw new JobfitError(`The service answered the list of ${noun} without a total_count; a complete list cannot be checked.`);
  return { total, hasMore: env.has_more === true || env.data.length < total };
}

/** One answer of the search: its count, whether it was cut, and the created_at that dates the count. */
interface Answer {
  total: number;
  hasMore: boolean;
  newest: number;
}

/**
 * The state of one complete listing: the items seen, the cells being refined,
 * the requests sent. Its methods are the steps of the search; listComplete runs it.
 */
class PartitionSearch<T> {
  /** Everyone seen, by the id as a number (itemKey), flat (seen-table.ts): the one record that grows with the list. */
  readonly seen = new SeenTable();
  readonly unfinished: Unfinished[] = [];
  requests = 0;
  /**
   * A server whose answers never add up (it says there are more, yet every
   * narrower filter returns the same few items) would make the search grow
   * without end; give up, with a sentence, far past what a real list needs.
   */
  budget = Number.POSITIVE_INFINITY;
  total0 = 0;
  /** created_at of the first answer's newest item: an item newer was created during the run (checkComplete's rule). */
  newest0 = Number.POSITIVE_INFINITY;
  /** Distinct items seen that existed at the first answer. */
  private oldSeen = 0;
  /** onItem runs strictly one item after another, in the order items were found. */
  readonly delivery = new InOrder();
  private readonly stats = new CharStats();
  private readonly active = new Set<Active>();
  private readonly slot: ReturnType<typeof limiter>;
  private readonly emailOf: (item: T) => string | null | undefined;
  readonly noun: string;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    readonly base: BaseFilter,
    private readonly onItem: (item: T) => void | Promise<void>,
    private readonly opts: ListAllOptions<T>,
  ) {
    this.noun = opts.noun ?? 'items';
    this.emailOf = opts.emailOf ?? ((it: T) => (it as { email?: string | null }).email);
    this.slot = limiter(Math.max(1, opts.concurrency ?? 8));
  }

  /** Records the new items of an answer, adds them to the open cells they lie in, and queues their delivery. */
  take(items: T[]): void {
    for (const item of items) {
      const id = itemKey(item, this.noun);
      const row = this.seen.add(id, createdAt(item), this.emailOf(item));
      if (row < 0) continue;
      const entry = this.seen.view(row);
      if (!(entry.at > this.newest0)) this.oldSeen++;
      this.stats.add(entry);
      for (const a of this.active) if (entry.contains(a.pattern)) join(a, entry);
      this.delivery.add(() => this.onItem(item));
    }
  }

  /**
   * Cell `cell` needs no more requests: its own count is reached, or every
   * item that existed at the first answer has been seen, which is what
   * checkComplete asks. A service whose email filter matches more than a
   * substring (a collation folding accents: \`e@\` finds \`é@\`) never lets
   * the cells add up; the whole list still does (issue 43).
   */
  private finished(cell: Active): boolean {
    return cellDone(cell) || (this.total0 > 0 && this.oldSeen >= this.total0);
  }

  /** One request: the base filter, narrowed to `email` when given. */
  /** The base query's total_count, known: room made for that many (SeenTable.reserve), and the caller told. */
  sized(total: number): void {
    this.total0 = total;
    this.seen.reserve(total);
    this.opts.onTotal?.(total);
  }

  async query(email: string | undefined): Promise<Answer> {
    const signal = this.opts.signal;
    const q: ListPageQuery = { ...this.base };
    if (email !== undefined) q.email = email;
    // Sent in a slot, once there is room (in-order.ts: a reader that stopped holds the search here; else no await is added), never after a stop.
    const send = () => {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      if (this.requests >= this.budget) throw gaveUpError({ open: [...this.active].filter((a) => a.counted < a.total), requests: this.requests, found: this.seen.size, total: this.total0, noun: this.noun });
      this.requests++;
      return this.fetchPage(q, signal);
    };
    const env = await this.slot(() => this.delivery.room()?.then(send) ?? send());
    const { total, hasMore } = readAnswer(env, this.noun);
    this.take(env.data);
    this.opts.onRequest?.(q, { total, returned: env.data.length, hasMore });
    return { total, hasMore, newest: newestOf(env.data) };
  }

  /**
   * Finishes cell `c`, whose total is known and exceeds what one answer held.
   * `tried` lists the sides already exhausted for this cell.
   */
  async refine(c: SearchCell, total: number, newest: number, tried: Side[] = [], parent?: Active): Promise<void> {
    const cell = openCell(c, total, newest, parent ? parent.members : this.seen.values());
    this.active.add(cell);
    try {
      await this.refineActive(cell, tried);
    } finally {
      this.active.delete(cell);
    }
  }

  /**
   * Refines an open cell on its cheaper side (chooseSide), in three steps,
   * until it is done (cellDone) or both sides are exhausted. The steps' rules
   * are in cell-search.ts; here only the requests, in their order. (Every
   * await here is a request or a child's refinement: an await that waits on
   * nothing would reorder the requests of cells refined side by side.)
   */
  private async refineActive(cell: Active, tried: Side[]): Promise<void> {
    if (this.finished(cell)) return;
    const sides = (['local', 'domain'] as Side[]).filter((s) => !tried.includes(s));
    if (sides.length === 0) {
      this.unfinished.push({ pattern: cell.pattern, missing: cell.total - cell.counted });
      return;
    }
    const { side, n, localCounts, domainCounts } = chooseSide(cell, sides);
    const other: Side = side === 'local' ? 'domain' : 'local';
    const counts = side === 'local' ? localCounts : domainCounts;
    const queried = new Set<string>();

    // 0. Every item seen continues the same way (`@yahoo` -> `@yahoo.com`): jump
    // to the longest shared extension with one request instead of one per
    // character. When the counts show items outside it, the character split follows.
    const jump = sharedJump(cell, side, counts);
    if (jump) {
      const r = await this.query(patternOf(jump));
      if (r.total === cell.total) {
        if (r.hasMore) await this.refine(jump, r.total, r.newest, [], cell);
        if (this.finished(cell)) return;
      }
    }

    // 1. Every character seen at this position, at once.
    await Promise.all(seenOrder(counts).map((ch) => this.visit(cell, side, ch, queried)));
    if (this.finished(cell)) return;

    // 2. What is still missing has a character here that no item seen so far
    // has (in this generator and in real data: the oldest items, which no
    // capped answer returned). The other side's children that fit under the
    // cap return everything they hold, missing items included, with odds
    // proportional to their size; try them, largest first. (`n` and the counts
    // are those the side was chosen from, before step 1 added members.)
    if (!tried.includes(other)) {
      for (const ch of smallChildren(other === 'local' ? localCounts : domainCounts, n, cell.total)) {
        if (this.finished(cell)) break;
        await this.query(patternOf(child(cell.cell, other, ch)));
      }
      if (this.finished(cell)) return;
    }

    // 3. Probe the characters nobody has seen here, the likeliest first.
    for (const ch of this.stats.probeOrder(cell.cell, side, queried, this.seen)) {
      if (this.finished(cell)) return;
      await this.visit(cell, side, ch, queried);
    }
    if (this.finished(cell)) return;
    // What is left ends exactly here on this side: refine on the other one.
    await this.refineActive(cell, [...tried, side]);
  }

  /** Asks for child `ch` of the cell on `side`, and refines it when its answer was cut. */
  private async visit(cell: Active, side: Side, ch: string, queried: Set<string>): Promise<void> {
    queried.add(ch);
    const cc = child(cell.cell, side, ch);
    const r = await this.query(patternOf(cc));
    if (r.hasMore) await this.refine(cc, r.total, r.newest, [], cell);
  }
}

/**
 * Every item matching `base`, each exactly once, streamed to `onItem` as it is
 * found. Throws a JobfitError (exit 1) naming what is missing when the
 * distinct items do not add up to the service's `total_count`.
 */
export async function listComplete<T>(
  fetchPage: FetchPage<T>,
  base: BaseFilter,
  onItem: (item: T) => void | Promise<void>,
  opts: ListAllOptions<T> = {},
): Promise<ListAllResult> {
  // Every request in flight listens to Ctrl-C on the same signal.
  if (opts.signal) setMaxListeners(64, opts.signal);
  const search = new PartitionSearch(patient(fetchPage, opts.signal), cleanFilter(base), onItem, opts);
  try {
    return await searchAll(search);
  } catch (err) {
    // Requests still in flight deliver nothing more: the caller ends the output now.
    search.delivery.stop();
    throw err;
  }
}

async function searchAll<T>(search: PartitionSearch<T>): Promise<ListAllResult> {
  const first = await search.query(undefined);
  const total = first.total;
  search.sized(total);
  search.newest0 = first.newest;
  search.budget = requestBudget(total);
  if (first.hasMore) {
    // A cut unfiltered answer (50): the `@` pattern matches every email and
    // raises the cap to 150, so small sets finish in one more request.
    const root: SearchCell = { s: '', p: '' };
    if (total <= LIST_CAP_FILTERED && !search.base.custom_id) {
      const r = await search.query('@');
      if (r.hasMore) await search.refine(root, r.total, r.newest);
    } else {
      await search.refine(root, total, first.newest);
    }
  }
  await search.delivery.done();
  // What the first answer counted: items created after it are not in `total`.
  const created = checkComplete({ seen: search.seen.values(), newest0: first.newest, total, unfinished: search.unfinished, noun: search.noun });
  return { items: search.seen.size, requests: search.requests, total, minimum: minimumRequests(total), created };
}
