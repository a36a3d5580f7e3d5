/** The router of the route table (src/api/route-match.ts, the stub's dispatch) finds every route of the table, and nothing else. */
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '../../src/api/routes.js';
import { matchRoute } from '../../src/api/route-match.js';

const segments = (path: string) => path.slice(1).split('/');

describe('matchRoute', () => {
  it('finds each route of ROUTES by method and path, with its :params in order', () => {
    for (const [name, route] of Object.entries(ROUTES) as Array<[RouteName, (typeof ROUTES)[RouteName]]>) {
      const path = route.path.replace(/:[A-Za-z]+/g, 'p1');
      const m = matchRoute(segments(path));
      expect(m?.path.methods[route.method], `${route.method} ${route.path}`).toBe(name);
      expect(m?.params).toEqual(route.path.includes(':') ? ['p1'] : []);
    }
  });

  it('lists the methods of a path in the order GET, POST, PUT (the Allow header)', () => {
    expect(matchRoute(['invitations'])?.path.allowed).toEqual(['GET', 'POST']);
    expect(matchRoute(['invitations', '7'])?.path.allowed).toEqual(['GET', 'PUT']);
    expect(matchRoute(['healthcheck'])?.path.allowed).toEqual(['GET']);
  });

  it('matches no path that is not in the table', () => {
    for (const seg of [[], ['nope'], ['invitations', '1', 'x'], ['test-takers', '1', 'scorecard', 'x'], ['accounts', '1'], ['v2', 'teams']]) {
      expect(matchRoute(seg), seg.join('/')).toBeNull();
    }
  });
});
