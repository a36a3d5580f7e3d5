/**
 * The complete list of test takers when its items carry no email.
 *
 * The reference promises only `id`, `custom_id`, `person_id`, `team` and
 * `account` on a test taker list item, but the `email` filter of
 * GET /test-takers still matches the test taker's email. Invitation list
 * items do carry `email` and `test_taker_id`, so:
 *
 * 1. the complete list of invitations (listComplete, same --team / --custom-id)
 *    gives every test taker's email;
 * 2. from those emails alone, planCells() chooses patterns `s@p` (local part
 *    ending in s, domain starting with p) that together cover every email,
 *    each matching at most 150, with as few patterns as it can find;
 * 3. one request per pattern returns every test taker in it.
 *
 * Nothing is assumed: the distinct ids must add up to the service's
 * total_count. A pattern that still comes back capped (the invitations and
 * the test takers disagree) sends the run to the adaptive search of
 * complete-list.ts for what is left, with the emails known so far.
 * When the items do carry an email, the adaptive search runs directly.
 */
import { JobfitError } from '../core/errors.js';
import { NUM } from '../format/number.js';
import { LIST_CAP_FILTERED } from '../api/limits.js';
import { readId } from '../api/ids.js';
import { type BaseFilter, cleanFilter, type FetchPage, type ListAllOptions, type ListAllResult, type ListPageQuery, listComplete, minimumRequests, patient, readAnswer } from './complete-list.js';
import { createdAt, itemKey, newestOf } from './list-item.js';
import { InOrder } from './in-order.js';

/** An id as the guide keys it (a number, as readId reads it), or NaN (found nowhere) when it is not one. */
const numberOf = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN);

interface Known {
  local: string;
  domain: string;
}

type Side = 'local' | 'domain';

interface Plan {
  cost: number;
  leaves: string[];
}

/**
 * Patterns `s@p` that together match every one of `emails`, each matching at
 * most `cap` of them: a partition tree over the emails, refining each cell on
 * the side (end of the local part, or start of the domain) that needs fewer
 * leaves in the end. A cell where both sides run out (more than `cap` emails
 * equal to the pattern itself) stays a leaf; the count check then catches it.
 */
export function planCells(emails: Iterable<string>, cap = LIST_CAP_FILTERED): string[] {
  const items: Known[] = [];
  for (const e of emails) {
    const lc = e.toLowerCase();
    const at = lc.lastIndexOf('@');
    if (at < 0) continue;
    items.push({ local: lc.slice(0, at), domain: lc.slice(at + 1) });
  }
  if (items.length === 0) return [];
  const memo = new Map<string, Plan>();

  const next = (it: Known, s: string, p: string, side: Side): string =>
    side === 'domain' ? (it.domain.length > p.length ? it.domain[p.length] : '') : it.local.length > s.length ? it.local[it.local.length - s.length - 1] : '';

  function best(s: string, p: string, members: Known[]): Plan {
    const pattern = `${s}@${p}`;
    if (members.length <= cap) return { cost: 1, leaves: [pattern] };
    const hit = memo.get(pattern);
    if (hit) return hit;
    let choice: Plan = { cost: Number.POSITIVE_INFINITY, leaves: [pattern] };
    for (const side of ['domain', 'local'] as Side[]) {
      const groups = new Map<string, Known[]>();
      let ended = false;
      for (const it of members) {
        const ch = next(it, s, p, side);
        if (ch === '') {
          ended = true;
          break;
        }
        const g = groups.get(ch);
        if (g) g.push(it);
        else groups.set(ch, [it]);
      }
      if (ended) continue;
      let cost = 0;
      const leaves: string[] = [];
      for (const [ch, g] of groups) {
        const sub = side === 'domain' ? best(s, p + ch, g) : best(ch + s, p, g);
        cost += sub.cost;
        if (cost >= choice.cost) break;
        leaves.push(...sub.leaves);
      }
      if (cost < choice.cost) choice = { cost, leaves };
    }
    if (!Number.isFinite(choice.cost)) choice = { cost: 1, leaves: [pattern] };
    memo.set(pattern, choice);
    return choice;
  }
  return best('', '', items).leaves;
}

export interface TestTakerLike {
  id: number | string;
  email?: string | null;
}

export interface InvitationRef {
  id: number | string;
  email?: string | null;
  test_taker_id?: number | string | null;
}

export interface CompleteTakersOptions<T> extends Omit<ListAllOptions<T>, 'idOf' | 'emailOf' | 'noun'> {
  /** Called with the figures of the invitations' list, when it was needed. */
  onGuide?: (r: ListAllResult) => void;
  /**
   * Only the ids are needed (scorecard --all, job-fit --all, profiles): when
   * the invitations' test_taker_ids add up to the test takers' total_count
   * and hold every id of the first answer, they are the list, and items
   * `{ id }` are delivered without asking for the test takers by pattern.
   */
  idsOnly?: boolean;
}

/** One answer of GET /test-takers, checked. */
interface TakerAnswer<T> {
  data: T[];
  total: number;
  hasMore: boolean;
}

/** The item carries an email the filter can match. */
const hasEmail = (it: TestTakerLike | undefined): boolean => typeof it?.email === 'string' && it.email.includes('@');

/**
 * The state of one complete listing of test takers: the ids seen, the emails
 * the invitations gave (the guide), the requests sent, and the items handed
 * over in order. listTestTakersComplete runs its steps.
 */
class TakerListing<T extends TestTakerLike> {
  readonly noun = 'test takers';
  requests = 0;
  /** Ids as numbers (itemKey): no string per person kept for the whole listing. */
  readonly seen = new Set<number>();
  /** test_taker_id -> email, from the complete list of invitations. */
  readonly guide = new Map<number, string>();
  /** Items newer than the first answer: delivered, not part of its total_count. */
  created = 0;
  /** created_at of the first answer's newest item (complete-list.ts, newestOf). */
  newest0 = Number.POSITIVE_INFINITY;
  total = 0;
  private readonly delivery = new InOrder();

  constructor(
    readonly fetchTakers: FetchPage<T>,
    readonly base: BaseFilter,
    private readonly onItem: (item: T, email: string | undefined) => void | Promise<void>,
    readonly opts: CompleteTakersOptions<T>,
  ) {}

  /** The item's own email, or its invitation's. */
  emailOf(it: T): string | undefined {
    return typeof it.email === 'string' && it.email.includes('@') ? it.email : this.guide.get(numberOf(it.id));
  }

  /** One request for test takers, checked and traced. */
  async ask(q: ListPageQuery): Promise<TakerAnswer<T>> {
    const signal = this.opts.signal;
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    // A reader that stopped holds the requests here (in-order.ts, room).
    const wait = this.room();
    if (wait) await wait;
    this.requests++;
    const env = await this.fetchTakers(q, signal);
    const { total, hasMore } = readAnswer(env, this.noun);
    this.opts.onRequest?.(q, { total, returned: env.data.length, hasMore });
    return { data: env.data, total, hasMore };
  }

  /** Hands one item over at once, with its email (when listComplete does the ordering). */
  deliver(it: T): void | Promise<void> {
    return this.onItem(it, this.emailOf(it));
  }

  /** Queues the delivery of the items not seen before. */
  take(items: T[]): void {
    for (const it of items) {
      const id = itemKey(it, this.noun);
      if (this.seen.has(id)) continue;
      this.seen.add(id);
      if (createdAt(it) > this.newest0) this.created++;
      this.delivery.add(() => this.deliver(it));
    }
  }

  /** Undefined while the deliveries keep up; else resolves once they do (in-order.ts, room). */
  room(): Promise<void> | undefined {
    return this.delivery.room();
  }

  /** Nothing more is delivered (the listing failed; requests still in flight add no row). */
  stop(): void {
    this.delivery.stop();
  }

  /** Waits for every delivery; the listing's figures. */
  async settle(): Promise<ListAllResult> {
    await this.delivery.done();
    return { items: this.seen.size, requests: this.requests, total: this.total, minimum: minimumRequests(this.total), created: this.created };
  }

  /** Distinct items that existed at the first answer add up to its total_count. */
  adds(r: { items: number; created: number }): boolean {
    return r.items - r.created === this.total;
  }
}

/**
 * Every test taker matching `base`, each exactly once, to `onItem` with the
 * email known for it (its own, or its invitation's). Works whether or not
 * the list items carry an email. Throws (exit 1) naming what is missing when
 * the distinct ids do not add up to the service's total_count.
 */
export async function listTestTakersComplete<T extends TestTakerLike>(
  fetchTakers: FetchPage<T>,
  fetchInvitations: FetchPage<InvitationRef>,
  base: BaseFilter,
  onItem: (item: T, email: string | undefined) => void | Promise<void>,
  opts: CompleteTakersOptions<T> = {},
): Promise<ListAllResult> {
  const l = new TakerListing(patient(fetchTakers, opts.signal), cleanFilter(base), onItem, opts);
  try {
    return await listTakers(l, fetchInvitations);
  } catch (err) {
    l.stop();
    throw err;
  }
}

async function listTakers<T extends TestTakerLike>(l: TakerListing<T>, fetchInvitations: FetchPage<InvitationRef>): Promise<ListAllResult> {
  const opts = l.opts;
  const first = await l.ask({ ...l.base });
  l.total = first.total;
  // Test takers created after the first answer (an invitation accepted during
  // the run) are delivered, but are not part of its total_count.
  l.newest0 = newestOf(first.data);
  // Every item of the first answer carries an email: the adaptive search needs nothing else.
  if (!first.hasMore || first.data.every(hasEmail)) return listDirectly(l, first);
  // 1. Every test taker's email, from the complete list of invitations.
  await learnEmails(l, fetchInvitations);
  if (opts.idsOnly && l.guide.size === l.total && first.data.every((it) => l.guide.has(numberOf(it?.id)))) {
    // A page at a time, each after the consumer has taken most of the last: not 100,000 deliveries queued at once.
    let page: T[] = [];
    for (const id of l.guide.keys()) {
      page.push({ id } as T);
      if (page.length < LIST_CAP_FILTERED) continue;
      l.take(page);
      page = [];
      const wait = l.room();
      if (wait) await wait;
    }
    l.take(page);
    return l.settle();
  }
  l.take(first.data);
  // 2. and 3. The planned patterns, a few at a time.
  const capped = await askPlanned(l, planCells(l.guide.values()));
  if (l.seen.size - l.created === l.total) return l.settle();
  return searchTheRest(l, capped);
}

/** The first answer holds everything, or its items carry emails: no guide needed. */
async function listDirectly<T extends TestTakerLike>(l: TakerListing<T>, first: TakerAnswer<T>): Promise<ListAllResult> {
  if (!first.hasMore) {
    l.take(first.data);
    const r = await l.settle();
    if (!l.adds(r)) throw new JobfitError(`The service listed ${NUM.format(r.items)} distinct ${l.noun} but reports ${NUM.format(l.total)}; the list is not complete.`);
    return r;
  }
  const r = await listComplete(l.fetchTakers, l.base, (it) => l.deliver(it), { ...l.opts, noun: l.noun });
  return { ...r, requests: r.requests + l.requests };
}

/** Step 1: the guide (test_taker_id -> email) from the complete list of invitations. */
async function learnEmails<T extends TestTakerLike>(l: TakerListing<T>, fetchInvitations: FetchPage<InvitationRef>): Promise<void> {
  const { signal, concurrency, onRequest } = l.opts;
  const g = await listComplete(
    fetchInvitations,
    l.base,
    (inv) => {
      // Invitations created during the run have no test taker yet: a guide, not a count, so they change nothing here.
      if (inv.test_taker_id !== null && inv.test_taker_id !== undefined && typeof inv.email === 'string') l.guide.set(readId(inv.test_taker_id, `test_taker_id of invitation ${String(inv.id).slice(0, 20)}`), inv.email);
    },
    { signal, concurrency, onRequest, noun: 'invitations' },
  );
  l.opts.onGuide?.(g);
  l.requests += g.requests;
}

/** Steps 2 and 3: one request per planned pattern, a few at a time. The patterns that still came back capped. */
async function askPlanned<T extends TestTakerLike>(l: TakerListing<T>, cells: string[]): Promise<string[]> {
  const capped: string[] = [];
  const queue = [...cells];
  const worker = async () => {
    for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
      const a = await l.ask({ ...l.base, email });
      l.take(a.data);
      if (a.hasMore) capped.push(email);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, l.opts.concurrency ?? 8) }, worker));
  return capped;
}

/** The invitations and the test takers disagree somewhere: the adaptive search for what is left. */
async function searchTheRest<T extends TestTakerLike>(l: TakerListing<T>, capped: string[]): Promise<ListAllResult> {
  const { signal, concurrency, onRequest } = l.opts;
  const r = await listComplete(l.fetchTakers, l.base, (it) => {
    l.take([it]);
    return l.room();
  }, { signal, concurrency, onRequest, noun: l.noun, emailOf: (it) => l.emailOf(it) }).catch((err: unknown) => {
    if (err instanceof JobfitError && capped.length > 0) {
      throw new JobfitError(`${err.message} The emails of ${capped.length} group${capped.length === 1 ? '' : 's'} (${capped.slice(0, 3).map((c) => `"${c}"`).join(', ')}) differ between invitations and test takers.`, { hint: err.hint });
    }
    throw err;
  });
  l.requests += r.requests;
  const out = await l.settle();
  if (!l.adds(out)) throw new JobfitError(`Found ${NUM.format(out.items)} of ${NUM.format(l.total)} ${l.noun}; the list is not complete.`);
  return out;
}
