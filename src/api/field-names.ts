/**
 * The names `--fields` takes for an answer, read from its schema (as gh reads
 * its `--json` fields from a fixed list per command): dotted paths through
 * objects, through arrays without an index (`invitation_assessments.short_name`),
 * and `name.*` under a record whose keys the reference does not fix
 * (`exercises.*`). A fixed list does not depend on what the service returned,
 * so `--fields first_name` is as valid on an empty list as on a full one.
 */
import * as z from 'zod';

export function fieldNames(schema: z.ZodType): string[] {
  const out = new Set<string>();
  const visit = (s: z.ZodType, prefix: string): void => {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) return visit(s.unwrap() as z.ZodType, prefix);
    if (s instanceof z.ZodArray) return visit(s.element as z.ZodType, prefix);
    if (s instanceof z.ZodUnion) {
      for (const o of s.options) visit(o as z.ZodType, prefix);
      return;
    }
    if (s instanceof z.ZodRecord) {
      if (prefix) out.add(`${prefix}.*`);
      return;
    }
    if (s instanceof z.ZodObject) {
      for (const [k, v] of Object.entries(s.shape)) {
        const p = prefix ? `${prefix}.${k}` : k;
        out.add(p);
        visit(v as z.ZodType, p);
      }
    }
  };
  visit(schema, '');
  return [...out];
}
