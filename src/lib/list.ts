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
import { findEverything, streamEverything } from '../export/list-everything.js';

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
  await findEverything(client, resource, { ...filters }, (it) => void out.push(it as unknown as ResourceItem[R]), {
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
 * the search and waits for its requests to end. While the loop body runs,
 * the search holds only a few items ahead of it and then waits
 * (src/listing/item-stream.ts), so a slow body does not fill memory.
 */
export function iterate<R extends ListResource>(client: JobfitClient, resource: R, filters: ListFilters = {}, opts: ListOptions = {}): AsyncGenerator<ResourceItem[R], void, undefined> {
  checkArgs('iterate', resource, filters);
  return items(client, resource, filters, opts);
}

async function* items<R extends ListResource>(client: JobfitClient, resource: R, filters: ListFilters, opts: ListOptions): AsyncGenerator<ResourceItem[R], void, undefined> {
  const listing = streamEverything(client, resource, { ...filters }, { signal: opts.signal, concurrency: opts.concurrency, onRequest: opts.onRequest });
  for await (const it of listing) yield it as unknown as ResourceItem[R];
}
