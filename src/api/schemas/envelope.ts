/**
 * The mode and the list envelope, in a module of their own: a command that
 * lists teams (api/schemas/teams.ts) builds them without every reference
 * schema of base.ts (zod builds each schema as its module loads).
 * Part of the API v2 contract (src/api/schemas.ts).
 */
import * as z from 'zod';

export const Mode = z.enum(['live', 'test']);
export type Mode = z.infer<typeof Mode>;

/** The list envelope: `total_count` counts all matches, `has_more` says the list was cut. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    mode: Mode,
    object: z.literal('list'),
    total_count: z.number().int(),
    has_more: z.boolean(),
    data: z.array(item),
  });
}
