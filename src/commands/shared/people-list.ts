/**
 * What `invitations list` and `test-takers list` share: the filters of
 * GET /invitations and GET /test-takers, their limits, and `--all`.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import type { ListFilter } from '../../client/client.js';
import { intId, maxText } from './options.js';

export const ListOptions = z.object({
  team: intId('--team').optional(),
  customId: maxText('the custom id filter', 50).optional(),
  email: maxText('the email filter', 255).optional(),
  all: z.boolean().default(false),
});
export type ListOptions = z.output<typeof ListOptions>;

export function addListFilters(cmd: Command): Command {
  return cmd
    .option('--team <id>', 'only this team (exact team id)')
    .option('--custom-id <text>', 'custom_id contains this text (case-insensitive, max 50)')
    .option('--email <text>', 'email contains this text (case-insensitive, max 255)')
    .option('--all', 'every match, not only the first page the service returns (50, or 150 with a filter)');
}

export function filterOf(o: ListOptions): ListFilter {
  const f: ListFilter = {};
  if (o.team !== undefined) f.team_id = o.team;
  if (o.customId !== undefined) f.custom_id = o.customId;
  if (o.email !== undefined) f.email = o.email;
  return f;
}
