/**
 * The list caps (reference: Limits): GET /invitations and GET /test-takers
 * answer at most 50 items, 150 when filtered by custom_id or email (team_id
 * alone does not raise it). No imports: the stub applies them on every list
 * without loading zod.
 */
export const LIST_CAP = 50;
export const LIST_CAP_FILTERED = 150;
export function listCap(query: { custom_id?: string; email?: string }): number {
  return query.custom_id || query.email ? LIST_CAP_FILTERED : LIST_CAP;
}

/** custom_id: at most 50 characters, in create, update and the list filter alike. */
export const CUSTOM_ID_MAX = 50;

/**
 * The length of text as the reference counts "characters": Unicode code
 * points (an emoji is one, though it is two UTF-16 units), as zod's max()
 * does for the request schemas. Every length limit is counted this one way.
 */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
