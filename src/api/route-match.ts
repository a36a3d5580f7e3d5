/**
 * The v2 paths, compiled once from the route table (routes.ts, which loads
 * without zod): path segments → the routes of that path, by method, and the
 * values of its :params. The stub dispatches on it (stub/app.ts); the client
 * asks it which route a raw path is (no key for the healthcheck, the hints of
 * its errors), so no other file spells a path.
 */
import { type HttpMethod, ROUTE_NAMES, ROUTES, type RouteName } from './routes.js';

interface PathRoutes {
  /** Literal segments; null for a :param. */
  segs: ReadonlyArray<string | null>;
  methods: Partial<Record<HttpMethod, RouteName>>;
  /** For a 405's Allow header, in the order GET, POST, PUT. */
  allowed: HttpMethod[];
}

interface RouteMatch {
  path: PathRoutes;
  params: string[];
}

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT'];

/** Bucket of a path: its length and first segment (`*` when that is a :param). */
const bucketOf = (length: number, first: string | null) => `${length}/${first ?? '*'}`;

function compile(): Map<string, PathRoutes[]> {
  const byPath = new Map<string, PathRoutes>();
  for (const name of ROUTE_NAMES) {
    const line = ROUTES[name];
    let p = byPath.get(line.path);
    if (!p) {
      p = { segs: line.path.slice(1).split('/').map((s) => (s.startsWith(':') ? null : s)), methods: {}, allowed: [] };
      byPath.set(line.path, p);
    }
    p.methods[line.method] = name;
  }
  const buckets = new Map<string, PathRoutes[]>();
  for (const p of byPath.values()) {
    p.allowed = METHOD_ORDER.filter((m) => p.methods[m] !== undefined);
    const key = bucketOf(p.segs.length, p.segs[0]);
    buckets.set(key, [...(buckets.get(key) ?? []), p]);
  }
  return buckets;
}

const BUCKETS = compile();

function matchIn(list: PathRoutes[] | undefined, seg: string[]): RouteMatch | null {
  if (!list) return null;
  for (const p of list) {
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < seg.length; i++) {
      const want = p.segs[i];
      if (want === null) params.push(seg[i]);
      else if (want !== seg[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { path: p, params };
  }
  return null;
}

/** Decoded path segments after /v2 → the routes of that path (null: no such path). */
export function matchRoute(seg: string[]): RouteMatch | null {
  if (seg.length === 0) return null;
  return matchIn(BUCKETS.get(bucketOf(seg.length, seg[0])), seg) ?? matchIn(BUCKETS.get(bucketOf(seg.length, null)), seg);
}

/**
 * The route a request goes to: its method and its path relative to the base
 * URL (a leading slash, a query string and a trailing slash are optional).
 */
export function routeAt(method: string, path: string): RouteName | undefined {
  const bare = path.split('?')[0].replace(/^\/+|\/+$/g, '');
  let seg: string[];
  try {
    seg = bare.split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  return matchRoute(seg)?.path.methods[method.toUpperCase() as HttpMethod];
}

/** Whether a path is one of a route that takes no key (the healthcheck), whatever the method. */
export function isKeyless(path: string): boolean {
  const bare = path.split('?')[0].replace(/^\/+|\/+$/g, '');
  const m = matchRoute(bare.split('/'));
  return m !== null && Object.values(m.path.methods).every((name) => !ROUTES[name].auth);
}
