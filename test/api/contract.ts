/**
 * docs/openapi.json as a validator, with standard tools only: Ajv (JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1) compiles the document's own
 * schemas, found by JSON pointer into the document.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DOC_URL } from '../../scripts/openapi.js';

type Responses = Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
export interface Operation {
  operationId: string;
  security?: unknown[];
  requestBody?: unknown;
  responses: Responses;
}
export interface Doc {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
}

export const committed = readFileSync(DOC_URL, 'utf8');
export const doc = JSON.parse(committed) as Doc;

export const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(doc, 'openapi.json');

/** operationId → [path template, method] in the document. */
export const operations = new Map<string, [string, string]>();
for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) operations.set(op.operationId, [path, method]);

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
export const schemaAt = (...parts: string[]): ValidateFunction => ajv.getSchema(`openapi.json#/${pointer(...parts)}`)!;

/** The document's validator of a response body of an operation and status; undefined when the status is not documented. */
export function responseValidator(operationId: string, status: number): ValidateFunction | undefined {
  const [path, method] = operations.get(operationId)!;
  if (!doc.paths[path][method].responses[String(status)]) return undefined;
  return schemaAt('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema');
}

const templates = [...operations.entries()].map(([operationId, [path, method]]) => ({
  operationId,
  method: method.toUpperCase(),
  re: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The operation a request (path relative to the base URL, without query) is for. */
export function operationOf(method: string, path: string): string | undefined {
  return templates.find((t) => t.method === method && t.re.test(path))?.operationId;
}

/** What is wrong with an answer for the document (null: nothing). */
export function violation(operationId: string, status: number, contentType: string, text: string): string | null {
  const validate = responseValidator(operationId, status);
  if (!validate) return `status ${status} is not documented for ${operationId}`;
  if (!/^application\/json/.test(contentType)) return `content-type ${contentType} is not application/json`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  return validate(body) ? null : ajv.errorsText(validate.errors);
}
