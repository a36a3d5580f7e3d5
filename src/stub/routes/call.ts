/**
 * What a v2 handler is given (a Call) and the helpers the handlers share:
 * the list envelope, path ids, configuration reads through the call's
 * cache, and the context of test-key fakes.
 */
import type { RouteName, RouteTable } from '../../api/routes.js';
import { SCORE_PROFILES, type ScoreProfileDef } from '../catalog.js';
import type * as F from '../fakes.js';
import type { Auth } from '../http/auth.js';
import { type Reply, json } from '../http/reply.js';
import { type Store, nowIso } from '../store.js';
import { accountRef } from '../views.js';

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
  /** Answer the reference's "not shown" list items with only the stated fields (AppOptions.minimalFields). */
  minimal?: boolean;
}

/** A route that needs a key is handed the call; one that does not (the healthcheck) is handed nothing. */
type Handler<K extends RouteName> = RouteTable[K]['auth'] extends true ? (c: Call) => Reply | Promise<Reply> : () => Reply;

/** Every route of the table and its handler: a route without one does not compile. */
export type Handlers = { readonly [K in RouteName]: Handler<K> };

export function list<T>(c: Call, data: T[], total = data.length): Reply {
  return json(200, { mode: c.auth.mode, object: 'list', total_count: total, has_more: total > data.length, data });
}

/** A positive integer path id, or null (an id that cannot exist). */
export function intId(s: string): number | null {
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

/** Some team of the account, for fakes. */
function anyTeam(c: Call): { id: number; display_name: string } {
  return c.store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE account_id = ? ORDER BY id LIMIT 1', c.auth.accountId) ?? { id: 0, display_name: 'Test Team' };
}

export function fakeCtx(c: Call, team?: { id: number; display_name: string }): F.FakeContext {
  return { origin: c.origin, account: accountRef(c.store, c.auth.accountId), team: team ?? anyTeam(c), now: nowIso() };
}

export function enabledProfiles(c: Call): ScoreProfileDef[] {
  const ids = new Set(c.store.all<{ score_profile_id: number }>('SELECT score_profile_id FROM account_score_profiles WHERE account_id = ?', c.auth.accountId).map((r) => r.score_profile_id));
  return SCORE_PROFILES.filter((p) => ids.has(p.id));
}
