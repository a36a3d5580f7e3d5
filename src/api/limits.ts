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
