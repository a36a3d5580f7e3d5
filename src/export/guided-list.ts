/**
 * The complete list of test takers when its items carry no email.
 *
 * The reference promises only `id`, `custom_id`, `person_id`, `team` and
 * `account` on a test taker list item, but the `email` filter of
 * GET /test-takers still matches the test taker's email. Invitation list
 * items do carry `email` and `test_taker_id`, so:
 *
 * 1. the complete list of invitations (listAll, same --team / --custom-id)
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
import { type BaseFilter, createdAt, type FetchPage, type ListAllOptions, type ListAllResult, type ListQuery, listAll, minimumRequests, newestOf, patient } from './complete-list.js';

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

export interface InvitationLike {
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

/**
 * Every test taker matching `base`, each exactly once, to `onItem` with the
 * email known for it (its own, or its invitation's). Works whether or not
 * the list items carry an email. Throws (exit 1) naming what is missing when
 * the distinct ids do not add up to the service's total_count.
 */
export async function listTestTakersComplete<T extends TestTakerLike>(
  fetchTakers: FetchPage<T>,
  fetchInvitations: FetchPage<InvitationLike>,
  base: BaseFilter,
  onItem: (item: T, email: string | undefined) => void | Promise<void>,
  opts: CompleteTakersOptions<T> = {},
): Promise<ListAllResult> {
  const noun = 'test takers';
  fetchTakers = patient(fetchTakers, opts.signal);
  const clean: BaseFilter = {};
  if (base.team_id !== undefined && base.team_id !== '') clean.team_id = base.team_id;
  if (base.custom_id) clean.custom_id = base.custom_id;
  const signal = opts.signal;
  let requests = 0;
  const ask = async (q: ListQuery) => {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    requests++;
    const env = await fetchTakers(q, signal);
    if (!env || !Array.isArray(env.data)) throw new JobfitError(`The service answered the list of ${noun} without a data array.`);
    if (typeof env.total_count !== 'number') throw new JobfitError(`The service answered the list of ${noun} without a total_count; a complete list cannot be checked.`);
    const hasMore = env.has_more === true || env.data.length < env.total_count;
    opts.onRequest?.(q, { total: env.total_count, returned: env.data.length, hasMore });
    return { data: env.data, total: env.total_count, hasMore };
  };

  const first = await ask({ ...clean });
  const total = first.total;
  // Test takers created after the first answer (an invitation accepted during
  // the run) are delivered, but are not part of its total_count.
  const newest0 = newestOf(first.data);
  let created = 0;
  const seen = new Set<string>();
  const guide = new Map<string, string>();
  const emailOf = (it: T): string | undefined => (typeof it.email === 'string' && it.email.includes('@') ? it.email : guide.get(String(it.id)));
  let delivery: Promise<void> = Promise.resolve();
  let deliveryError: unknown;
  const take = (items: T[]) => {
    for (const it of items) {
      const id = String(readId(it !== null && typeof it === 'object' ? it.id : it, `id of an item of the list of ${noun}`));
      if (seen.has(id)) continue;
      seen.add(id);
      if (createdAt(it) > newest0) created++;
      delivery = delivery.then(async () => {
        if (deliveryError !== undefined) return;
        try {
          await onItem(it, emailOf(it));
        } catch (err) {
          deliveryError = err;
        }
      });
    }
  };
  const settle = async (): Promise<ListAllResult> => {
    await delivery;
    if (deliveryError !== undefined) throw deliveryError;
    return { items: seen.size, requests, total, minimum: minimumRequests(total), created };
  };

  // Every item of the first answer carries an email: the adaptive search needs nothing else.
  if (!first.hasMore || first.data.every((it) => typeof it?.email === 'string' && it.email.includes('@'))) {
    if (!first.hasMore) {
      take(first.data);
      const r = await settle();
      if (r.items - r.created !== total) throw new JobfitError(`The service listed ${NUM.format(r.items)} distinct ${noun} but reports ${NUM.format(total)}; the list is not complete.`);
      return r;
    }
    const r = await listAll(fetchTakers, clean, (it) => onItem(it, emailOf(it)), { ...opts, noun });
    return { ...r, requests: r.requests + requests };
  }

  // 1. Every test taker's email, from the complete list of invitations.
  const g = await listAll(
    fetchInvitations,
    clean,
    (inv) => {
      // Invitations created during the run have no test taker yet: a guide, not a count, so they change nothing here.
      if (inv.test_taker_id !== null && inv.test_taker_id !== undefined && typeof inv.email === 'string') guide.set(String(readId(inv.test_taker_id, `test_taker_id of invitation ${String(inv.id).slice(0, 20)}`)), inv.email);
    },
    { signal, concurrency: opts.concurrency, onRequest: opts.onRequest, noun: 'invitations' },
  );
  opts.onGuide?.(g);
  requests += g.requests;
  if (opts.idsOnly && guide.size === total && first.data.every((it) => guide.has(String(it?.id)))) {
    take([...guide.keys()].map((id) => ({ id: Number(id) }) as T));
    return settle();
  }
  take(first.data);

  // 2. and 3. The planned patterns, a few at a time.
  const cells = planCells(guide.values());
  const capped: string[] = [];
  const queue = [...cells];
  const worker = async () => {
    for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
      const a = await ask({ ...clean, email });
      take(a.data);
      if (a.hasMore) capped.push(email);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 8) }, worker));
  if (seen.size - created === total) return settle();

  // The invitations and the test takers disagree somewhere: search what is left.
  const r = await listAll(fetchTakers, clean, (it) => take([it]), {
    signal,
    concurrency: opts.concurrency,
    onRequest: opts.onRequest,
    noun,
    emailOf: (it) => emailOf(it),
  }).catch((err: unknown) => {
    if (err instanceof JobfitError && capped.length > 0) {
      throw new JobfitError(`${err.message} The emails of ${capped.length} group${capped.length === 1 ? '' : 's'} (${capped.slice(0, 3).map((c) => `"${c}"`).join(', ')}) differ between invitations and test takers.`, { hint: err.hint });
    }
    throw err;
  });
  requests += r.requests;
  const out = await settle();
  if (out.items - out.created !== total) throw new JobfitError(`Found ${NUM.format(out.items)} of ${NUM.format(total)} ${noun}; the list is not complete.`);
  return out;
}
