/**
 * docs/openapi.json, generated from the route table and the zod schemas
 * (`npm run openapi`, which also drives the stub for the examples). A test
 * fails when the committed file is stale, when it does not lint, or when a
 * response of the stub does not validate against it.
 *
 * OpenAPI 3.1 (docs/api.md says why): its schemas are JSON Schema 2020-12,
 * which is what z.toJSONSchema writes, so a nullable reference is
 * `anyOf: [{$ref}, {type: 'null'}]` and the 404 of a missing profile is
 * `{type: 'null'}`, with no translation of our own in between.
 */
import * as z from 'zod';
import { MSG } from './messages.js';
import { schemaOf } from './route-schemas.js';
import { JSON_TYPE, pathParams, ROUTES, type RouteDef, type RouteName } from './routes.js';
import { ErrorBody, Event } from './schemas.js';

type Json = Record<string, unknown>;

/** One request the stub was sent while generating, and what it answered. */
export interface ExampleCase {
  operationId: RouteName;
  status: number;
  /** Key of the example in the document (unique per response). */
  name: string;
  /** When the service answers so; shown beside the message. */
  summary: string;
  value: unknown;
}

const SCHEMAS = '#/components/schemas/';

/** Request schemas: written as the client sends them (io: input); everything else as the service answers. */
const REQUEST_IDS = new Set(['CreateInvitationBody', 'UpdateInvitationBody', 'ListQuery', 'ScorecardQuery']);

function registryComponents(io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `${SCHEMAS}${id}`,
    override: (ctx) => {
      // Safe-integer bounds that zod adds to every int are noise in a spec.
      const s = ctx.jsonSchema as Json;
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    },
  }) as { schemas: Record<string, Json> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('every schema of the route table needs .meta({ id })');
  return id;
}
const ref = (schema: z.ZodType): Json => ({ $ref: `${SCHEMAS}${idOf(schema)}` });

/** The components reachable from the roots, in a stable order; nothing unused. */
function reachable(all: Record<string, Json>, roots: string[]): Record<string, Json> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const schema = all[name];
    if (!schema) throw new Error(`unresolved schema ${name}`);
    seen.add(name);
    for (const m of JSON.stringify(schema).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) visit(m[1]);
  };
  roots.forEach(visit);
  return Object.fromEntries(Object.keys(all).filter((n) => seen.has(n)).map((n) => [n, all[n]]));
}

/** The documented query parameters of a route: the query schema's properties. */
function queryParameters(route: RouteDef, inputs: Record<string, Json>): Json[] {
  if (!route.query) return [];
  const schema = inputs[idOf(schemaOf(route.query))] as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: 'query', required: schema.required?.includes(name) ?? false, ...(description ? { description } : {}), schema: rest };
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request, unknown or foreign id, or a business rule refused it: `{ "error": "<message>" }`, or for JSON type errors `{ "error": ["<field>: <message>", ...] }`.',
  404: 'The key is missing or unknown, or its account is gone.',
};

/** A successful answer: the route's schema, or for a route that does not answer JSON, its bytes. */
function successFor(route: RouteDef, examples: Json | undefined): Json {
  if (route.response === undefined) return { description: route.summary, content: { [route.contentType]: {} } };
  return { description: route.summary, content: { [route.contentType]: { schema: ref(schemaOf(route.response)), ...(examples ? { examples } : {}) } } };
}

function responseFor(route: RouteDef, status: number, cases: ExampleCase[]): Json {
  const examples = cases.length ? Object.fromEntries(cases.map((c) => [c.name, { summary: c.summary, value: c.value }])) : undefined;
  // Errors are JSON, whatever the route answers when it succeeds.
  const content = (schema: Json): Json => ({ [JSON_TYPE]: { schema, ...(examples ? { examples } : {}) } });
  if (status === route.status) return successFor(route, examples);
  const messages = cases
    .filter((c) => c.value !== null)
    .map((c) => `- ${c.summary}: \`${JSON.stringify((c.value as { error: unknown }).error)}\``);
  if (status === 404 && route.nullWhenMissing) {
    return {
      description: ['No such profile in the account: the body is the JSON literal `null`. Or the key is missing or unknown.', ...messages].join('\n'),
      content: content({ anyOf: [ref(ErrorBody), { type: 'null' }] }),
    };
  }
  return { description: [STATUS_TEXT[status] ?? `Status ${status}.`, ...messages].join('\n'), content: content(ref(ErrorBody)) };
}

/** One operation of the document: parameters, body, responses and security, from the route's line. */
function operationFor(operationId: string, route: RouteDef, inputs: Record<string, Json>, cases: ExampleCase[], roots: Set<string>): Json {
  const params: Json[] = pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: route.params?.[name] ?? 'integer' } }));
  const mine = cases.filter((c) => c.operationId === operationId);
  const statuses = [...new Set([route.status, ...(route.auth ? [404] : []), ...mine.map((c) => c.status)])].sort((a, b) => a - b);
  const responses = Object.fromEntries(statuses.map((status) => [String(status), responseFor(route, status, mine.filter((c) => c.status === status))]));
  const op: Json = { operationId, summary: route.summary };
  const parameters = [...params, ...queryParameters(route, inputs)];
  if (parameters.length) op.parameters = parameters;
  if (route.body) {
    const body = schemaOf(route.body);
    roots.add(idOf(body));
    op.requestBody = { required: true, content: { [JSON_TYPE]: { schema: ref(body) } } };
  }
  op.responses = responses;
  // The document's security applies to every operation that does not say otherwise.
  op.security = route.auth ? [{ bearer: [] }] : [];
  if (route.response !== undefined) roots.add(idOf(schemaOf(route.response)));
  return op;
}

const DESCRIPTION = `The Assessment and Job-Fit Service API v2, as jobfit's embedded stub serves it (\`jobfit stub serve\`).
Generated from jobfit's zod schemas (src/api) by \`npm run openapi\`; every example is an answer of the stub on its seed data.
Shapes the reference leaves unshown are jobfit's decisions (docs/stub.md).

Every path except \`${ROUTES.healthcheck.path}\` needs \`Authorization: Bearer <key>\` (\`sk_live_…\` or \`sk_test_…\`).
A missing or unknown key answers **404** \`{"error": "${MSG.apiKeyRequired}"}\`; a key whose account is gone, 404 \`{"error": "${MSG.accountNotFound}"}\`.
A method a path does not support answers **405** with the plain-text body \`${MSG.methodNotAllowed}\` and an \`Allow\` header; a path that does not exist, 404 \`{"error": "${MSG.notFound}"}\`.
A body that is not JSON answers 400 \`{"error": "${MSG.invalidJson}"}\`; JSON that is not an object, 400 \`{"error": "${MSG.bodyNotObject}"}\`.
A body over 1 MiB answers **413** \`{"error": "${MSG.bodyTooLarge}"}\` (the stub's limit; the reference states none).
The stub answers a write it could not store **507** (a full disk) or **503** (a read-only one) with \`{"error": "${MSG.notStored('<the cause>')}"}\`; nothing was stored, and reads go on.
Lists are cut at 50 items, or 150 with a \`custom_id\` or \`email\` filter; \`has_more\` says so (the reference gives no paging parameters).`;

function buildOpenApi(cases: ExampleCase[], table: Readonly<Record<string, RouteDef>>): Json {
  const outputs = registryComponents('output');
  const inputs = registryComponents('input');
  const paths: Record<string, Record<string, Json>> = {};
  const roots = new Set<string>([idOf(ErrorBody), idOf(Event)]);
  for (const [operationId, route] of Object.entries(table)) {
    const oaPath = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[oaPath] ??= {};
    paths[oaPath][route.method.toLowerCase()] = operationFor(operationId, route, inputs, cases, roots);
  }
  const all: Record<string, Json> = {};
  for (const [name, s] of Object.entries(outputs)) if (!REQUEST_IDS.has(name)) all[name] = s;
  for (const name of REQUEST_IDS) all[name] = inputs[name];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Assessment and Job-Fit Service API',
      version: 'v2',
      description: DESCRIPTION,
      license: { name: 'MIT (this document, as generated by jobfit)', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:4010/v2', description: 'jobfit stub serve' }],
    security: [{ bearer: [] }],
    paths,
    webhooks: {
      event: {
        post: {
          summary: "An event, POSTed to the account's webhook URL (docs/webhooks.md)",
          operationId: 'receiveEvent',
          requestBody: { required: true, content: { 'application/json': { schema: ref(Event) } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_live_… or sk_test_… API key' } },
      schemas: reachable(all, [...roots]),
    },
  };
}

/** The document of the route table (a test may give a table of its own), with these answers as examples. */
export function renderOpenApi(cases: ExampleCase[] = [], table: Readonly<Record<string, RouteDef>> = ROUTES): string {
  return `${JSON.stringify(buildOpenApi(cases, table), null, 2)}\n`;
}
