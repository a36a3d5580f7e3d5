/**
 * The zod schemas the route table (routes.ts) names, by name. Kept apart from
 * the table so that the table loads without zod: only what needs the schemas
 * themselves (the OpenAPI document, the client's `-v` check) imports this.
 */
import type * as z from 'zod';
import * as Requests from './requests.js';
import type { RouteDef, SchemaName } from './routes.js';
import * as Answers from './schemas.js';

const SCHEMAS: Readonly<Record<string, unknown>> = { ...Answers, ...Requests };

/** The schema of that name in schemas.ts or requests.ts. */
export function schemaOf(name: SchemaName): z.ZodType {
  return SCHEMAS[name] as z.ZodType;
}

/** The schema of a route's successful answer; undefined for a route that answers bytes. */
export function responseSchema(route: RouteDef): z.ZodType | undefined {
  return route.response === undefined ? undefined : schemaOf(route.response);
}
