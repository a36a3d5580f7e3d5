/**
 * A tool's outputSchema and its `fields` input, from the API schema of what
 * its command prints (src/api/). Every field is optional in the output, at
 * every depth: `fields` keeps only some, and the client is lenient where a
 * newer server could leave one out. Unknown fields pass, as they do in the
 * client.
 */
import * as z from 'zod';
import { fieldNames } from '../api/field-names.js';
import type { ToolSpec } from './catalog.js';

const made = new WeakMap<z.ZodType, z.ZodType>();

/** Once per schema: a named one (`.meta({ id })`) stays one definition, referred to wherever it is used. */
function partialDeep(s: z.ZodType): z.ZodType {
  const known = made.get(s);
  if (known) return known;
  let out = partialOf(s);
  const id = (s.meta() as { id?: string } | undefined)?.id;
  if (id && s instanceof z.ZodObject) out = out.meta({ id: `${id}Fields`, additionalProperties: true });
  made.set(s, out);
  return out;
}

function partialOf(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional || s instanceof z.ZodDefault) return partialDeep(s.unwrap() as z.ZodType);
  if (s instanceof z.ZodNullable) return partialDeep(s.unwrap() as z.ZodType).nullable();
  if (s instanceof z.ZodArray) return z.array(partialDeep(s.element as z.ZodType));
  if (s instanceof z.ZodUnion) return z.union(s.options.map((o) => partialDeep(o as z.ZodType)) as [z.ZodType, z.ZodType]);
  // An integer's JSON schema carries ±2^53 bounds: noise an assistant pays for in every field.
  if (s instanceof z.ZodNumber) return z.number();
  if (s instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(s.shape).map(([k, v]) => [k, partialDeep(v as z.ZodType).optional()]));
    // Unknown fields pass (a newer server's), said as `true` rather than zod's `{}`.
    return z.looseObject(shape).meta({ additionalProperties: true, ...(s.description ? { description: s.description } : {}) });
  }
  return s;
}

/** What a paged answer adds (pages.ts), and what an answer written to a file is. */
export const PAGE_FIELDS = {
  next_cursor: z.string().optional().describe('more items: call the tool again with only this cursor'),
  page: z.object({ offset: z.number().int(), count: z.number().int(), of: z.number().int() }).optional(),
  written: z.object({ file: z.string(), bytes: z.number().int() }).optional().describe('the whole answer went to this file'),
};

/** The outputSchema of a tool: the API's object, or a list of its items (a list envelope's fields kept). */
export function outputSchemaOf(spec: ToolSpec, item: z.ZodType | undefined): z.ZodObject | undefined {
  if (!item) return undefined;
  // The answer itself is an object schema, not a reference to one (MCP asks for type: object).
  if (spec.answer === 'object') return partialOf(item) as z.ZodObject;
  const one = partialDeep(item);
  return z.looseObject({
    mode: z.enum(['live', 'test']).optional(),
    object: z.literal('list').optional(),
    total_count: z.number().int().optional(),
    has_more: z.boolean().optional(),
    data: z.array(one).optional(),
    ...PAGE_FIELDS,
  }).meta({ additionalProperties: true });
}

/**
 * The `fields` input: the names --fields takes for this answer, from the same
 * schema. The top-level names are listed; nested ones are dotted paths of the
 * outputSchema (the command refuses an unknown name, listing the valid ones).
 */
export function fieldsInput(item: z.ZodType): z.ZodType {
  const names = fieldNames(item);
  const top = names.filter((n) => !n.includes('.'));
  const dotted = names.find((n) => n.includes('.'));
  return z
    .array(z.string())
    .optional()
    .describe(`only these fields, as --fields: ${top.join(', ')}${dotted ? `, or dotted names for nested ones (${dotted})` : ''}; a smaller answer`);
}
