/**
 * listAll and iterate for programs: every invitation, test taker or career
 * navigation profile, past the service's cap of 50 (150 with a filter) per
 * request, each exactly once, checked against the service's total_count:
 * all at once (listAll) or one by one as they are found (`for await ... of
 * iterate(...)`). The engine is the CLI's `list --all` (findEverything,
 * src/export/list-everything.ts).
 */
import type { CareerNavigationProfileListItem, InvitationListItem, TestTakerListItem } from '../api/index.js';
import type { JobfitClient } from '../client/index.js';
import { findEverything } from '../export/list-everything.js';

export type ListResource = 'invitations' | 'test-takers' | 'profiles';

/** Filters of the invitation and test-taker lists (the profile list has none). */
export interface ListFilters {
  team_id?: number | string;
  custom_id?: string;
  /** Case-insensitive part of the email. */
  email?: string;
}

export interface ListOptions {
  /** Stops the listing; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  /** Called after every request of the search: the query sent, and how much of its matches the answer held. */
  onRequest?: (query: ListFilters, answer: { total: number; returned: number; hasMore: boolean }) => void;
}

export interface ResourceItem {
  invitations: InvitationListItem;
  'test-takers': TestTakerListItem;
  profiles: CareerNavigationProfileListItem;
}

const RESOURCES: readonly ListResource[] = ['invitations', 'test-takers', 'profiles'];

/**
 * Every item of `resource` matching `filters`, in the order found. Throws a
 * JobfitError when the items found do not add up to the service's count.
 */
export async function listAll<R extends ListResource>(client: JobfitClient, resource: R, filters: ListFilters = {}, opts: ListOptions = {}): Promise<Array<ResourceItem[R]>> {
  checkArgs('listAll', resource, filters);
  const out: Array<ResourceItem[R]> = [];
  await findEverything(client, resource, { ...filters }, (it) => out.push(it as unknown as ResourceItem[R]), {
    signal: opts.signal,
    concurrency: opts.concurrency,
    onRequest: opts.onRequest,
  });
  return out;
}

function checkArgs(fn: string, resource: ListResource, filters: ListFilters): void {
  if (!RESOURCES.includes(resource)) throw new TypeError(`${fn}: resource must be one of ${RESOURCES.join(', ')}; got ${String(resource)}.`);
  if (resource === 'profiles' && Object.values(filters ?? {}).some((v) => v !== undefined)) throw new TypeError(`${fn}: the profile list takes no filters.`);
}

/**
 * The items of listAll one by one, as the search finds them, for
 * `for await (const t of iterate(client, 'test-takers')) ...`. The same items,
 * each once, and the same count check: when the items cannot add up, the loop
 * throws after the last one. Leaving the loop early (`break`, a throw) stops
 * the search and waits for its requests to end. Items found while the loop
 * body runs are held until it asks for them (at most the whole list).
 */
export function iterate<R extends ListResource>(client: JobfitClient, resource: R, filters: ListFilters = {}, opts: ListOptions = {}): AsyncGenerator<ResourceItem[R], void, undefined> {
  checkArgs('iterate', resource, filters);
  return items(client, resource, filters, opts);
}

async function* items<R extends ListResource>(client: JobfitClient, resource: R, filters: ListFilters, opts: ListOptions): AsyncGenerator<ResourceItem[R], void, undefined> {
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  let queue: Array<ResourceItem[R]> = [];
  let head = 0;
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: { error: unknown } | undefined;
  const search = findEverything(client, resource, { ...filters }, (it) => {
    queue.push(it as unknown as ResourceItem[R]);
    wake?.();
  }, { signal, concurrency: opts.concurrency, onRequest: opts.onRequest }).then(
    () => {
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      finished = true;
      wake?.();
    },
  );
  try {
    for (;;) {
      if (head < queue.length) {
        const it = queue[head++];
        if (head > 1024 && head * 2 > queue.length) {
          queue = queue.slice(head);
          head = 0;
        }
        yield it;
        continue;
      }
      if (finished) {
        if (failure) throw failure.error;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    if (!finished) {
      stop.abort(new Error('iterate: the loop ended before the list did'));
      await search;
    }
  }
}
