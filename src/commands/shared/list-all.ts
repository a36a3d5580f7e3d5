/**
 * `--all` for invitations, test-takers and profiles: the complete list, past
 * the service's cap of 50 (150 with a filter) per request. The engine is
 * src/export/complete-list.ts (listAll); this file adapts it to the commands
 * and streams the items to the one output helper as they are found.
 */
import { setMaxListeners } from 'node:events';
import type { JobfitClient, ListFilter } from '../../client/client.js';
import type { Context } from '../../cli/context.js';
import { JobfitError } from '../../cli/errors.js';
import { type BaseFilter, type FetchPage, listAll } from '../../export/complete-list.js';
import { type ColumnSpec, createListWriter, type ListWriter } from '../../format/output.js';

export type AllResource = 'invitations' | 'test-takers' | 'profiles';

export interface ListEverythingOptions {
  resource: AllResource;
  filter?: ListFilter;
  columns: ColumnSpec[];
  noun: string;
}

interface Envelope {
  total_count?: number;
  has_more?: boolean;
  data: Array<Record<string, unknown>>;
}

export async function listEverything(ctx: Context, client: JobfitClient, o: ListEverythingOptions): Promise<void> {
  // Up to 8 requests in flight each listen to Ctrl-C on the same signal.
  setMaxListeners(64, ctx.io.signal);
  const writer = await createListWriter(ctx, { columns: o.columns, envelope: { mode: ctx.connection?.mode }, noun: o.noun });
  let requests: number;
  if (o.resource === 'profiles') {
    requests = await allProfiles(ctx, client, writer);
  } else {
    const fetch = (q: ListFilter, signal?: AbortSignal) =>
      (o.resource === 'invitations' ? client.listInvitations(q, signal) : client.listTestTakers(q, signal)) as Promise<Envelope>;
    requests = await allPeople(ctx, fetch, o.filter ?? {}, writer, o.noun);
  }
  writer.end();
  ctx.debug(`--all: ${writer.count} ${o.noun} in ${requests} request${requests === 1 ? '' : 's'}`);
}

async function allPeople(
  ctx: Context,
  fetch: (q: ListFilter, signal?: AbortSignal) => Promise<Envelope>,
  filter: ListFilter,
  writer: ListWriter,
  noun: string,
): Promise<number> {
  const signal = ctx.io.signal;
  const email = typeof filter.email === 'string' && filter.email !== '' ? filter.email : undefined;
  let requests = 0;
  if (email) {
    // With an email filter one request often holds every match (up to 150).
    const page = await fetch(filter, signal);
    requests++;
    if (!page.has_more) {
      for (const it of page.data) writer.write(it);
      return requests;
    }
  }
  const base: BaseFilter = {};
  if (filter.team_id !== undefined) base.team_id = filter.team_id as number;
  if (typeof filter.custom_id === 'string') base.custom_id = filter.custom_id;
  // The engine partitions on the email filter itself, so a user's email filter is applied here.
  const wanted = email?.toLowerCase();
  const result = await listAll(
    fetch as FetchPage<Record<string, unknown>>,
    base,
    (item) => {
      if (wanted && !String(item.email ?? '').toLowerCase().includes(wanted)) return;
      writer.write(item);
    },
    {
      signal,
      noun,
      onRequest: (q, a) => ctx.debug(`  --all: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
    },
  );
  return requests + result.requests;
}

/**
 * Profiles have no filters to split the list by. When the service's list is
 * cut, the rest is found through the test takers (complete via listAll): each
 * one's profile id is on the test taker, and the profile is then fetched.
 */
async function allProfiles(ctx: Context, client: JobfitClient, writer: ListWriter): Promise<number> {
  const signal = ctx.io.signal;
  const page = (await client.listCareerNavigationProfiles()) as unknown as Envelope;
  let requests = 1;
  const seen = new Set<string>();
  for (const it of page.data) {
    seen.add(String(it.id));
    writer.write(it);
  }
  if (!page.has_more) return requests;
  const total = page.total_count ?? Number.NaN;
  ctx.info(`The service lists at most ${page.data.length} career navigation profiles; finding the other ${Number.isFinite(total) ? total - page.data.length : ''} through the test takers…`.replace('  ', ' '));
  const takers: Array<Record<string, unknown>> = [];
  const r = await listAll(
    ((q: ListFilter, s?: AbortSignal) => client.listTestTakers(q, s)) as FetchPage<Record<string, unknown>>,
    {},
    (t) => {
      takers.push(t);
    },
    { signal, noun: 'test takers' },
  );
  requests += r.requests;
  const queue = [...takers];
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const tt = (await client.getTestTaker(t.id as number, signal)) as Record<string, unknown>;
      requests++;
      const pid = tt.career_navigation_profile_id;
      if (typeof pid !== 'string' || seen.has(pid)) continue;
      seen.add(pid);
      const p = (await client.getCareerNavigationProfile(pid, signal)) as Record<string, unknown>;
      requests++;
      // The shape of a list item, from the profile and its test taker (created_at is not on the profile).
      writer.write({
        object: 'career_navigation_profile_list_item',
        id: p.id,
        test_taker_id: p.test_taker_id,
        custom_id: tt.custom_id ?? t.custom_id ?? null,
        person_id: p.person_id ?? null,
        career_navigation_url: p.career_navigation_url,
        created_at: null,
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  if (Number.isFinite(total) && seen.size !== total) {
    throw new JobfitError(`Found ${seen.size} of ${total} career navigation profiles; the list is not complete.`);
  }
  return requests;
}
