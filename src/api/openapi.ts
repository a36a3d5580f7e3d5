/**
 * docs/openapi.json, generated from the route table and the zod schemas
 * (`npm run openapi`). A test fails when the committed file is stale.
 */
import * as z from 'zod';
import { ROUTES, type RouteDef } from './routes.js';
import { ErrorBody } from './schemas.js';

type Json = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  return z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
    unrepresentable: 'any',
    reused: 'inline',
    override: (ctx) => {
      // Safe-integer bounds that zod adds to every int are noise in a spec.
      const s = ctx.jsonSchema as Json;
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    },
  }) as Json;
}

function collectRefs(schema: Json, components: Json): Json {
  const defs = (schema.definitions ?? schema.$defs) as Record<string, Json> | undefined;
  if (defs) {
    for (const [name, def] of Object.entries(defs)) components[name] = def;
    delete schema.definitions;
    delete schema.$defs;
  }
  return JSON.parse(JSON.stringify(schema).replaceAll('#/definitions/', '#/components/schemas/').replaceAll('#/$defs/', '#/components/schemas/'));
}

function queryParameters(route: RouteDef): Json[] {
  if (!route.query) return [];
  const schema = toSchema(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: s,
  }));
}

export function buildOpenApi(): Json {
  const components: Json = {};
  const paths: Record<string, Record<string, Json>> = {};
  const errorSchema = collectRefs(toSchema(ErrorBody), components);
  for (const [operationId, route] of Object.entries(ROUTES) as Array<[string, RouteDef]>) {
    const oaPath = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params: Json[] = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: m[1] === 'careerNavigationProfileId' ? 'string' : 'integer' },
    }));
    const op: Json = {
      operationId,
      summary: route.summary,
      parameters: [...params, ...queryParameters(route)],
      responses: {
        [String(route.status)]: {
          description: 'Success',
          content: { 'application/json': { schema: collectRefs(toSchema(route.response), components) } },
        },
        ...(route.auth
          ? {
              '400': { description: 'Invalid request, unknown id or business rule', content: { 'application/json': { schema: errorSchema } } },
              '404': { description: 'Missing or invalid API key (or profile not found: null body)', content: { 'application/json': { schema: errorSchema } } },
            }
          : {}),
        '405': { description: 'Method not supported', content: { 'text/plain': { schema: { type: 'string' } } } },
      },
    };
    if (route.auth) op.security = [{ bearer: [] }];
    if (route.body) {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: collectRefs(toSchema(route.body, 'input'), components) } },
      };
    }
    paths[oaPath] ??= {};
    paths[oaPath][route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Assessment and Job-Fit Service API',
      version: 'v2',
      description: `Generated from jobfit src/api (the zod schemas). Shapes the reference leaves unshown are jobfit's decisions; see docs/stub.md.`,
    },
    servers: [{ url: 'http://127.0.0.1:4010/v2', description: 'jobfit stub serve' }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: components },
  };
}

export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}
