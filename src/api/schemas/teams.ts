/**
 * Teams: the list item and the list. Apart from account.ts so that `jobfit
 * teams` builds only these (zod builds each schema as its module loads).
 * Part of the API v2 contract (src/api/schemas.ts, through account.ts).
 */
import * as z from 'zod';
import { listOf } from './envelope.js';

export const TeamListItem = z
  .object({
    object: z.literal('team_list_item'),
    id: z.number().int(),
    display_name: z.string(),
    users_count: z.number().int(),
    invitations_count: z.number().int(),
    test_takers_count: z.number().int(),
  })
  .meta({ id: 'TeamListItem' });
export type TeamListItem = z.infer<typeof TeamListItem>;
export const TeamList = listOf(TeamListItem).meta({ id: 'TeamList' });
