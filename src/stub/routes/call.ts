/**
 * What a v2 handler is given (a Call) and the helpers the handlers share:
 * the list envelope, path ids, configuration reads through the call's
 * cache. (The account's context for fakes and score profiles, which needs
 * the catalog and the views: account-context.ts.)
 */
import type { RouteName, RouteTable } from '../../api/routes.js';
import type { Auth } from '../http/auth.js';
import { type Reply, json } from '../http/reply.js';
import type { Store } from '../store.js';
import type { TakerReads } from '../taker-reads.js';

export interface Call {
  store: Store;
  origin: string;
  method: string;
  /** The values of the path's :params, in order. */
  params: string[];
  query: URLSearchParams;
  auth: Auth;
  body: () => Promise<unknown>;
  /** Configuration reads remembered while the configuration is unchanged (http/cache.ts). */
  refs: Map<string, unknown>;
  /** The rows already read of a test taker of this account at this version (taker-reads.ts); absent: read them. */
  takerReads?: (id: number) => TakerReads;
  /** Answer the reference's "not shown" list items with only the stated fields (AppOptions.minimalFields). */
  minimal?: boolean;
}

/** A route that needs a key is handed the call; one that does not (the healthcheck) is handed nothing. */
type Handler<K extends RouteName> = RouteTable[K]['auth'] extends true ? (c: Call) => Reply | Promise<Reply> : () => Reply;

/**
 * Every route of the table and the loader of its handler (its module is
 * loaded on the route's first request): a route without one does not compile.
 */
export type Handlers = { readonly [K in RouteName]: () => Promise<Handler<K>> };

export function list<T>(c: Call, data: T[], total = data.length): Reply {
  return json(200, { mode: c.auth.mode, object: 'list', total_count: total, has_more: total > data.length, data });
}

/** A positive integer path id, or null (an id that cannot exist). */
export function pathId(s: string): number | null {
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

/** A configuration read through c.refs; misses are not remembered (rows may appear). */
export function ref<T>(c: Call, key: string, load: () => T | undefined): T | undefined {
  let v = c.refs.get(key) as T | undefined;
  if (v === undefined) {
    v = load();
    if (v !== undefined) c.refs.set(key, v);
  }
  return v;
}

export function teamOfAccount(c: Call, teamId: number): { id: number; display_name: string } | undefined {
  return ref(c, `team:${c.auth.accountId}:${teamId}`, () =>
    c.store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE id = ? AND account_id = ?', teamId, c.auth.accountId),
  );
}
