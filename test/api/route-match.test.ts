/** The router of the route table (src/api/route-match.ts, the stub's dispatch) finds every route of the table, and nothing else. */
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '../../src/api/routes.js';
import { isKeyless, matchRoute, routeAt } from '../../src/api/route-match.js';

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

describe('routeAt', () => {
  it('names the route of a method and a path relative to the base URL, with or without slashes and query', () => {
    expect(routeAt('GET', '/test-takers/7/scorecard?sp=sales')).toBe('getScorecard');
    expect(routeAt('put', 'invitations/12/')).toBe('updateInvitation');
    expect(routeAt('GET', '/career-navigation-profiles/cnp_x%2Fy')).toBe('getCareerNavigationProfile');
  });

  it('names nothing for a path or method the table does not have', () => {
    expect(routeAt('DELETE', '/invitations/1')).toBeUndefined();
    expect(routeAt('GET', '/v2/teams')).toBeUndefined();
    expect(routeAt('GET', '/invitations/%E0%A4%A')).toBeUndefined();
  });
});

describe('isKeyless', () => {
  it('is true only for the path of a route that takes no key', () => {
    for (const p of ['/healthcheck', 'healthcheck', '/healthcheck?x=1', '/healthcheck/']) expect(isKeyless(p), p).toBe(true);
    for (const p of ['/teams', '/invitations/1', '/nope', '/v2/healthcheck']) expect(isKeyless(p), p).toBe(false);
  });
});
