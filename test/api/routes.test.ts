/**
 * The route table (src/api/routes.ts) and what derives from it: every route
 * has a stub handler, a client method and an OpenAPI operation that agree
 * with its line; the list-route set is the table's list routes; completion
 * offers the table's methods after `jobfit api`; a route that answers bytes
 * is typed and documented as such; parameters
 * and schemas named by a line exist; and no other file of src/ spells a path.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { Command } from 'commander';
import * as z from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { renderOpenApi } from '../../src/api/openapi.js';
import { responseSchema, schemaOf } from '../../src/api/route-schemas.js';
import { type AnswerOf, fillPath, JSON_TYPE, LIST_ROUTES, pathParams, ROUTE_NAMES, ROUTES, type RouteDef, type RouteName, type RouteResponse } from '../../src/api/routes.js';
import { type Invitation, TeamList } from '../../src/api/schemas.js';
import { JobfitClient } from '../../src/client/client.js';
import { buildSpec } from '../../src/commands/kit/completion-spec.js';
import { HANDLERS } from '../../src/stub/routes/index.js';

const routes = ROUTE_NAMES.map((name) => [name, ROUTES[name] as RouteDef] as const);

describe('the route table', () => {
  it('declares each :param of a path, and only those, with how it is written', () => {
    for (const [name, route] of routes) {
      expect(Object.keys(route.params ?? {}).sort(), name).toEqual(pathParams(route.path).sort());
      for (const type of Object.values(route.params ?? {})) expect(['integer', 'string'], name).toContain(type);
    }
  });

  it('names schemas that exist (zod schemas of schemas.ts or requests.ts); a JSON route has a response schema', () => {
    for (const [name, route] of routes) {
      for (const s of [route.query, route.body, route.response]) if (s !== undefined) expect(schemaOf(s), `${name}: ${s}`).toBeInstanceOf(z.ZodType);
      expect(route.contentType, name).toBe(JSON_TYPE);
      expect(responseSchema(route), name).toBeDefined();
    }
  });

  it('has one route per method and path', () => {
    const lines = routes.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('the list routes are the routes marked list, and exactly those whose answer is a list envelope', () => {
    expect([...LIST_ROUTES].sort()).toEqual(routes.filter(([, r]) => r.kind === 'list').map(([n]) => n).sort());
    for (const [name, route] of routes) {
      const shape = (responseSchema(route) as z.ZodObject).shape as Record<string, z.ZodType>;
      const envelope = shape.object instanceof z.ZodLiteral && shape.object.value === 'list' && shape.data instanceof z.ZodArray;
      expect(envelope, name).toBe(LIST_ROUTES.has(name));
    }
  });

  it('fills a path’s params, encoded, and refuses one that is missing', () => {
    expect(fillPath(ROUTES.getScorecard.path, { testTakerId: 7 })).toBe('/test-takers/7/scorecard');
    expect(fillPath(ROUTES.getCareerNavigationProfile.path, { careerNavigationProfileId: 'a/b c' })).toBe('/career-navigation-profiles/a%2Fb%20c');
    expect(() => fillPath(ROUTES.getInvitation.path, {})).toThrow('missing path parameter invitationId');
  });

  it('types an answer from the schema it names', () => {
    expectTypeOf<RouteResponse<'getInvitation'>>().toEqualTypeOf<Invitation>();
    expectTypeOf<RouteResponse<'listTeams'>>().toEqualTypeOf<z.infer<typeof TeamList>>();
  });
});

describe('what derives from it', () => {
  it('every route has a stub handler, and every handler a route', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual([...ROUTE_NAMES].sort());
    for (const name of ROUTE_NAMES) expect(typeof HANDLERS[name], name).toBe('function');
  });

  it('every route has a client method of its name', () => {
    expectTypeOf<RouteName>().toExtend<keyof JobfitClient>();
    for (const name of ROUTE_NAMES) expect(typeof JobfitClient.prototype[name], name).toBe('function');
  });

  it('every route has an OpenAPI operation with its method, path, path params, key and content type', () => {
    const doc = JSON.parse(renderOpenApi()) as { paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; in: string; schema: { type: string } }>; security: unknown[]; responses: Record<string, { content: Record<string, unknown> }> }>> };
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    expect(ops.map((o) => o.op.operationId).sort()).toEqual([...ROUTE_NAMES].sort());
    for (const { path, method, op } of ops) {
      const route = ROUTES[op.operationId as RouteName] as RouteDef;
      expect(`${method.toUpperCase()} ${path}`).toBe(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
      const inPath = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(Object.fromEntries(inPath.map((p) => [p.name, p.schema.type])), op.operationId).toEqual(route.params ?? {});
      expect(op.security, op.operationId).toEqual(route.auth ? [{ bearer: [] }] : []);
      expect(Object.keys(op.responses[String(route.status)].content), op.operationId).toEqual([route.contentType]);
    }
  });
});

describe('a route that does not answer JSON', () => {
  const PDF_ROUTE = { method: 'GET', path: '/test-takers/:testTakerId/job-fit-report.pdf', summary: 'Job fit report as a PDF', auth: true, params: { testTakerId: 'integer' }, kind: 'item', contentType: 'application/pdf', status: 200, testKey: 'fake' } as const satisfies RouteDef;

  it('is typed as bytes', () => {
    expectTypeOf<AnswerOf<typeof PDF_ROUTE>>().toEqualTypeOf<Uint8Array>();
  });

  it('is documented with its content type, and the document still lints with 0 errors', async () => {
    const text = renderOpenApi([], { ...ROUTES, getJobFitReportPdf: PDF_ROUTE });
    const op = (JSON.parse(text) as { paths: Record<string, { get: { operationId: string; responses: Record<string, { content: Record<string, unknown> }> } }> }).paths['/test-takers/{testTakerId}/job-fit-report.pdf'].get;
    expect(op.operationId).toBe('getJobFitReportPdf');
    expect(op.responses['200'].content).toEqual({ 'application/pdf': {} });
    expect(Object.keys(op.responses['404'].content)).toEqual([JSON_TYPE]);
    const dir = mkdtempSync(join(tmpdir(), 'jobfit-routes-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), text);
      const problems = await lint({ ref: join(dir, 'openapi.json'), config: await createConfig({ extends: ['recommended'] }) });
      expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('completion', () => {
  it('`jobfit api <TAB>` offers the methods of the table', () => {
    const scratch = new Command('jobfit');
    scratch.command('api');
    const api = buildSpec(scratch).commands.find((c) => c.name === 'api');
    expect(api?.argChoices).toEqual([...new Set(routes.map(([, r]) => r.method))]);
    expect(api?.argChoices).toEqual(['GET', 'POST', 'PUT']);
  });
});

describe('one file of src/ spells the route paths', () => {
  it('no other file has a string that starts with a route’s path', () => {
    const firsts = [...new Set(routes.map(([, r]) => r.path.split('/')[1]))];
    const seg = `(${firsts.join('|')})\\b`;
    // '/teams…', `${origin}/v2/teams`, or /\/teams/ in a regular expression.
    const literal = new RegExp(`['"\`]/${seg}|/v2/${seg}|\\\\/${seg}`);
    const src = join(import.meta.dirname, '../../src');
    const offenders: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file === join('api', 'routes.ts')) continue;
      readFileSync(join(src, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // Comments and prose (help texts say `GET /invitations`) are not paths the code uses.
          if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
          if (literal.test(line)) offenders.push(`src/${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
