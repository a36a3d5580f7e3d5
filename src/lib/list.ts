/**
 * listAll for programs: every invitation, test taker or career navigation
 * profile, past the service's cap of 50 (150 with a filter) per request, each
 * exactly once, checked against the service's total_count. The engines are
 * src/export/complete-list.ts and src/export/guided-list.ts, as for the CLI's
 * `list --all`.
 */
import type { CareerNavigationProfileListItem, InvitationListItem, TestTakerListItem } from '../api/index.js';
import type { JobfitClient, ListFilter } from '../client/index.js';
import { JobfitError } from '../core/errors.js';
import { bulkFetch, IdFeed } from '../export/bulk-fetch.js';
import { type BaseFilter, type FetchPage, listAll as completeList, type ListAllResult } from '../export/complete-list.js';
import { isServiceGone } from '../export/finish.js';
import { type InvitationLike, listTestTakersComplete, type TestTakerLike } from '../export/guided-list.js';

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
  /** Called after every list request: the query sent, and how much of its matches the answer held. */
  onRequest?: (query: ListFilters, answer: { total: number; returned: number; hasMore: boolean }) => void;
}

export interface ResourceItem {
  invitations: InvitationListItem;
  'test-takers': TestTakerListItem;
  profiles: CareerNavigationProfileListItem;
}

type Item = Record<string, unknown>;
interface Envelope {
  total_count?: number;
  has_more?: boolean;
  data: Item[];
}

const RESOURCES: readonly ListResource[] = ['invitations', 'test-takers', 'profiles'];

/**
 * Every item of `resource` matching `filters`, in the order found. Throws a
 * JobfitError when the items found do not add up to the service's count.
 */
export async function listAll<R extends ListResource>(client: JobfitClient, resource: R, filters: ListFilters = {}, opts: ListOptions = {}): Promise<Array<ResourceItem[R]>> {
  if (!RESOURCES.includes(resource)) throw new TypeError(`listAll: resource must be one of ${RESOURCES.join(', ')}; got ${String(resource)}.`);
  const out: Item[] = [];
  if (resource === 'profiles') {
    if (Object.values(filters).some((v) => v !== undefined)) throw new TypeError('listAll: the profile list takes no filters.');
    await allProfiles(client, (it) => out.push(it), opts);
  } else {
    await allPeople(client, resource as 'invitations' | 'test-takers', filters, (it) => out.push(it), opts);
  }
  return out as Array<ResourceItem[R]>;
}

async function allPeople(client: JobfitClient, resource: 'invitations' | 'test-takers', filter: ListFilters, write: (it: Item) => void, opts: ListOptions): Promise<void> {
  const { signal, concurrency, onRequest } = opts;
  const fetchInvitations = (q: ListFilter, s?: AbortSignal) => client.listInvitations(q, s) as Promise<Envelope>;
  const fetchTakers = (q: ListFilter, s?: AbortSignal) => client.listTestTakers(q, s) as Promise<Envelope>;
  const email = typeof filter.email === 'string' && filter.email !== '' ? filter.email : undefined;
  if (email) {
    // With an email filter one request often holds every match (up to 150).
    const page = await (resource === 'invitations' ? fetchInvitations : fetchTakers)(filter, signal);
    if (!page.has_more && typeof page.total_count === 'number' && page.data.length === page.total_count) {
      for (const it of page.data) write(it);
      return;
    }
  }
  const base: BaseFilter = {};
  if (filter.team_id !== undefined) base.team_id = filter.team_id;
  if (filter.custom_id) base.custom_id = filter.custom_id;
  // The engines partition on the email filter themselves, so the caller's email filter is applied here.
  const wanted = email?.toLowerCase();
  const keep = (it: Item, known: string | undefined) => {
    if (!wanted || (known ?? '').toLowerCase().includes(wanted)) write(it);
  };
  const common = { signal, concurrency, onRequest };
  if (resource === 'invitations') {
    await completeList(fetchInvitations as FetchPage<Item>, base, (it) => keep(it, typeof it.email === 'string' ? it.email : undefined), { ...common, noun: 'invitations' });
  } else {
    await listTestTakersComplete(fetchTakers as FetchPage<Item & TestTakerLike>, fetchInvitations as unknown as FetchPage<InvitationLike>, base, keep, common);
  }
}

/**
 * Profiles have no filters to split the list by. When the service's list is
 * cut, the rest is found through the complete list of test takers: each one's
 * profile id is on the test taker, and the profile is then fetched.
 */
async function allProfiles(client: JobfitClient, write: (it: Item) => void, opts: ListOptions): Promise<void> {
  const { signal, concurrency, onRequest } = opts;
  const page = (await client.listCareerNavigationProfiles()) as unknown as Envelope;
  const total = page.total_count;
  if (typeof total !== 'number') throw new JobfitError('The service answered the list of career navigation profiles without a total_count; a complete list cannot be checked.');
  const seen = new Set<string>();
  const once = (it: Item) => {
    if (seen.has(String(it.id))) return;
    seen.add(String(it.id));
    write(it);
  };
  if (!page.has_more && page.data.length >= total) {
    for (const it of page.data) once(it);
    return;
  }
  const feed = new IdFeed<number>();
  const listing: Promise<ListAllResult> = listTestTakersComplete(
    ((q: ListFilter, s?: AbortSignal) => client.listTestTakers(q, s)) as FetchPage<TestTakerLike>,
    ((q: ListFilter, s?: AbortSignal) => client.listInvitations(q, s)) as FetchPage<InvitationLike>,
    {},
    (t) => feed.push(Number(t.id)),
    { signal, concurrency, onRequest, idsOnly: true },
  ).finally(() => feed.close());
  listing.catch(() => {});
  // created_at is on the service's list items only: kept for those it listed.
  const listedAt = new Map(page.data.filter((it) => typeof it.created_at === 'string').map((it) => [String(it.id), it.created_at]));
  let failed: unknown;
  let failures = 0;
  await bulkFetch(
    feed,
    async (id, s) => {
      const tt = (await client.getTestTaker(id, s)) as Item;
      const pid = tt.career_navigation_profile_id;
      if (typeof pid !== 'string') return undefined;
      const p = (await client.getCareerNavigationProfile(pid, s)) as Item;
      const at = listedAt.get(String(p.id));
      return {
        object: 'career_navigation_profile_list_item',
        id: p.id,
        test_taker_id: p.test_taker_id,
        custom_id: tt.custom_id ?? null,
        person_id: p.person_id ?? null,
        career_navigation_url: p.career_navigation_url,
        ...(at === undefined ? {} : { created_at: at }),
      } as Item;
    },
    {
      signal,
      concurrency,
      stopWhen: isServiceGone,
      onResult: (_id, o) => {
        if (o.kind === 'failed') {
          failed ??= o.error;
          failures++;
        } else if (o.kind === 'ok' && o.value !== undefined) once(o.value);
      },
    },
  );
  const takers = await listing;
  if (failed !== undefined) {
    throw new JobfitError(`${failures} of ${takers.items} test takers could not be read, so their profiles may be missing (${failed instanceof Error ? failed.message : String(failed)}).`, { cause: failed });
  }
}
