/**
 * `--all` for invitations, test-takers and profiles: the complete list, past
 * the service's cap of 50 (150 with a filter) per request. The engines are
 * complete-list.ts (listComplete, items with an email) and guided-list.ts (test
 * takers, with or without an email on their items). findEverything runs them
 * for a resource and hands over each item once, with no Session (a program
 * can use it as is); listEverything streams the items to the one output helper
 * as they are found and accounts for every one of them. The commands only
 * parse their options and call listEverything.
 */
import { setMaxListeners } from 'node:events';
import type { JobfitClient, ListFilter } from '../client/client.js';
import type { Session } from '../core/session.js';
import { JobfitError } from '../core/errors.js';
import { readId } from '../api/ids.js';
import { bulkFetch } from './bulk-fetch.js';
import { IdFeed } from './id-feed.js';
import { type BaseFilter, type FetchPage, type ListAllResult, type ListPageQuery, listComplete } from '../listing/complete-list.js';
import { finishExport, isServiceGone } from './finish.js';
import { type InvitationRef, listTestTakersComplete, type TestTakerLike } from '../listing/guided-list.js';
import { ExportTally } from './tally.js';
import { orderedFilter } from './person-status.js';
import { openTarget } from './target.js';
import { type Listing, streamListing } from '../listing/item-stream.js';
import { type ColumnSpec, createListWriter, type ListWriter } from '../format/output.js';
import { NUM } from '../format/number.js';

export type AllResource = 'invitations' | 'test-takers' | 'profiles';

export interface ListEverythingOptions {
  resource: AllResource;
  filter?: ListFilter;
  columns: ColumnSpec[];
  noun: string;
  /** Write to this file, only once complete. */
  out?: string;
  /** A fixed CSV header, for items that do not all carry every field. */
  csvColumns?: string[];
  /** What --fields may name (the item's schema: src/api/field-names.ts); checked before the first request. */
  fieldNames?: readonly string[];
  /** The key's mode, for the JSON envelope. */
  mode?: 'live' | 'test';
  /** A client-side filter (--status, --since: person-status.ts): items it drops are counted under `reason`. */
  keep?: { test: (it: Item) => Promise<boolean>; reason: string };
}

type Item = Record<string, unknown>;

interface Envelope {
  total_count?: number;
  has_more?: boolean;
  data: Item[];
}

/** What a listing found: items it had to account for and the service's count for them. */
export interface ListedCount {
  listed: number;
  totalCount?: number;
  /** Items among `listed` created during the run (not in totalCount). */
  created?: number;
  requests: number;
}

/** How the engine reports back; nothing of a Session. */
export interface FindOptions {
  signal?: AbortSignal;
  /** Requests in flight at once (defaults: those of listComplete and bulkFetch). */
  concurrency?: number;
  /** Called after every list request (for a -v trace). */
  onRequest?: (query: ListPageQuery, answer: { total: number; returned: number; hasMore: boolean }) => void;
  /** An item the search found that the caller's email filter leaves out: counted, not written. */
  onOutside?: (item: Item) => void;
  /** A sentence for a person, when the list has to go the long way. */
  onNotice?: (message: string) => void;
}

const OUTSIDE_EMAIL = 'outside the --email filter';

/** Hands one item over; a promise while the reader is behind (the engine waits for it: back-pressure). */
type Put = (it: Item) => void | Promise<void>;

/**
 * The engine of `--all`: every item of `resource` matching `filter`, each
 * exactly once, handed to `write` as it is found (waiting while the promise
 * `write` returns is pending). Throws a JobfitError when the items found
 * cannot add up to the service's count.
 */
export async function findEverything(client: JobfitClient, resource: AllResource, filter: ListFilter, write: Put, o: FindOptions = {}): Promise<ListedCount> {
  return resource === 'profiles' ? allProfiles(client, write, o) : allPeople(client, resource, filter, write, o);
}

/**
 * findEverything as a loop: `for await (const it of streamEverything(...))`,
 * at most a few items held ahead of a reader that stops (listing/item-stream.ts);
 * `result` has the figures once the loop has ended.
 */
export function streamEverything(client: JobfitClient, resource: AllResource, filter: ListFilter, o: FindOptions = {}): Listing<Item, ListedCount> {
  return streamListing((put, signal) => findEverything(client, resource, filter, put, { ...o, signal }), { signal: o.signal });
}

export async function listEverything(ctx: Session, client: JobfitClient, o: ListEverythingOptions): Promise<void> {
  // Up to 8 requests in flight each listen to Ctrl-C on the same signal.
  setMaxListeners(64, ctx.io.signal);
  const started = performance.now();
  const target = openTarget(ctx, o.out, o.noun);
  const tally = new ExportTally(o.noun);
  let writer: ListWriter | undefined;
  let found: ListedCount | undefined;
  let seenSoFar = 0;
  let error: unknown;
  try {
    writer = await createListWriter(target.ctx, { columns: o.columns, csvColumns: o.csvColumns, fieldNames: o.fieldNames, envelope: { mode: o.mode }, noun: o.noun });
    const w = writer;
    // Back-pressure: a write that finds stdout full waits for it to drain, and the listing waits for the loop.
    const write = async (it: Item) => {
      tally.write();
      if (!w.write(it)) await w.drained();
    };
    const gate = o.keep && orderedFilter(o.keep.test, (it: Item, kept) => (kept ? write(it) : tally.skip(o.keep!.reason)));
    const listing = streamEverything(client, o.resource, o.filter ?? {}, {
      signal: ctx.io.signal,
      onRequest: (q, a) => ctx.debug(`  --all: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
      onOutside: () => {
        seenSoFar++;
        tally.skip(OUTSIDE_EMAIL);
      },
      onNotice: (m) => ctx.info(m),
    });
    for await (const it of listing) {
      seenSoFar++;
      if (gate) await gate.push(it);
      else await write(it);
    }
    found = await listing.result;
    await gate?.drain();
  } catch (err) {
    error = err;
  }
  await finishExport(
    ctx,
    {
      target,
      writer,
      tally,
      listed: found?.listed ?? seenSoFar,
      totalCount: found?.totalCount,
      created: found?.created,
      elapsedMs: performance.now() - started,
      rerun: `jobfit ${o.resource === 'profiles' ? 'profiles' : o.resource} list --all`,
    },
    error,
  );
  if (found) ctx.debug(`--all: ${NUM.format(found.listed)} ${o.noun} in ${found.requests} request${found.requests === 1 ? '' : 's'}`);
}

async function allPeople(client: JobfitClient, resource: 'invitations' | 'test-takers', filter: ListFilter, write: Put, o: FindOptions): Promise<ListedCount> {
  const { signal, concurrency, onRequest } = o;
  const fetchInvitations = (q: ListFilter, s?: AbortSignal) => client.listInvitations(q, s) as Promise<Envelope>;
  const fetchTakers = (q: ListFilter, s?: AbortSignal) => client.listTestTakers(q, s) as Promise<Envelope>;
  const email = typeof filter.email === 'string' && filter.email !== '' ? filter.email : undefined;
  let requests = 0;
  if (email) {
    // With an email filter one request often holds every match (up to 150).
    const page = await (resource === 'invitations' ? fetchInvitations : fetchTakers)(filter, signal);
    requests++;
    if (!page.has_more && typeof page.total_count === 'number' && page.data.length === page.total_count) {
      for (const it of page.data) await write(it);
      return { listed: page.data.length, totalCount: page.total_count, requests };
    }
  }
  const base: BaseFilter = {};
  if (filter.team_id !== undefined) base.team_id = filter.team_id as number;
  if (typeof filter.custom_id === 'string') base.custom_id = filter.custom_id;
  // The engines partition on the email filter themselves, so a user's email filter is applied here.
  const wanted = email?.toLowerCase();
  const keep = (it: Item, known: string | undefined) => {
    if (wanted && !(known ?? '').toLowerCase().includes(wanted)) return o.onOutside?.(it);
    return write(it);
  };
  let r: ListAllResult;
  if (resource === 'invitations') {
    r = await listComplete(fetchInvitations as FetchPage<Item>, base, (it) => keep(it, typeof it.email === 'string' ? it.email : undefined), {
      signal,
      concurrency,
      noun: 'invitations',
      onRequest,
    });
  } else {
    r = await listTestTakersComplete(
      fetchTakers as FetchPage<Item & TestTakerLike>,
      fetchInvitations as unknown as FetchPage<InvitationRef>,
      base,
      (it, known) => keep(it, known),
      { signal, concurrency, onRequest },
    );
  }
  return { listed: r.items, totalCount: r.total, created: r.created, requests: requests + r.requests };
}

/**
 * Profiles have no filters to split the list by, and their list items promise
 * only `custom_id` and `person_id`. When the service's list is cut, the rest
 * is found through the complete list of test takers: each one's profile id is
 * on the test taker, and the profile is then fetched.
 */
async function allProfiles(client: JobfitClient, write: Put, o: FindOptions): Promise<ListedCount> {
  const { signal, concurrency, onRequest } = o;
  const page = (await client.listCareerNavigationProfiles()) as unknown as Envelope;
  let requests = 1;
  const total = page.total_count;
  if (typeof total !== 'number') throw new JobfitError('The service answered the list of career navigation profiles without a total_count; a complete list cannot be checked.');
  if (!page.has_more && page.data.length >= total) {
    const ids = new Set<string>();
    for (const it of page.data) {
      if (ids.has(String(it.id))) continue;
      ids.add(String(it.id));
      await write(it);
    }
    return { listed: ids.size, totalCount: total, requests };
  }
  o.onNotice?.(`The service lists at most ${page.data.length} career navigation profiles; finding all ${NUM.format(total)} through the test takers…`);
  const feed = new IdFeed<number>();
  const listing = listTestTakersComplete(
    ((q: ListFilter, s?: AbortSignal) => client.listTestTakers(q, s)) as FetchPage<TestTakerLike>,
    ((q: ListFilter, s?: AbortSignal) => client.listInvitations(q, s)) as FetchPage<InvitationRef>,
    {},
    (t) => feed.push(readId(t.id, 'test taker id')),
    { signal, concurrency, idsOnly: true, onRequest },
  ).then(
    (r) => {
      feed.close();
      return r;
    },
    (err: unknown) => {
      feed.close();
      throw err;
    },
  );
  listing.catch(() => {});
  // created_at is on the service's list items only: kept for those it listed.
  const listedAt = new Map(page.data.filter((it) => typeof it.created_at === 'string').map((it) => [String(it.id), it.created_at]));
  const seen = new Set<string>();
  let failed: unknown;
  // Every test taker is accounted: with a profile (written), without one, or failed.
  const profiles = new ExportTally('test takers');
  const r = await bulkFetch(
    feed,
    async (id, s) => {
      const tt = (await client.getTestTaker(id, s)) as Item;
      const pid = tt.career_navigation_profile_id;
      if (typeof pid !== 'string') return undefined;
      const p = (await client.getCareerNavigationProfile(pid, s)) as Item;
      // The shape of a list item, from the profile and its test taker. created_at
      // comes from the service's list where it listed the profile; otherwise it is
      // left out, not made up: the profile object does not carry it (said in --help).
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
      onResult: (_id, out) => {
        if (out.kind === 'failed') {
          failed ??= out.error;
          profiles.fail();
          return;
        }
        if (out.kind !== 'ok' || out.value === undefined) return profiles.skip('without a profile');
        profiles.write();
        if (seen.has(String(out.value.id))) return;
        seen.add(String(out.value.id));
        return write(out.value);
      },
    },
  );
  const takers = await listing;
  requests += takers.requests + r.requests;
  profiles.check(takers.items);
  if (failed !== undefined) {
    throw new JobfitError(`${NUM.format(profiles.failed)} of ${NUM.format(takers.items)} test takers could not be read, so their profiles may be missing (${failed instanceof Error ? failed.message : String(failed)}).`);
  }
  return { listed: seen.size, totalCount: total, requests };
}
