/**
 * What `invitations list` and `test-takers list` share: the filters of
 * GET /invitations and GET /test-takers, their limits, and `--all`.
 */
import * as z from 'zod';
import type { Context } from '../kit/context.js';
import { fieldNames } from '../../api/field-names.js';
import { LIST_CAP, LIST_CAP_FILTERED } from '../../api/limits.js';
import { InvitationListItem } from '../../api/schemas/invitations.js';
import { TestTakerListItem } from '../../api/schemas/test-takers.js';
import type { ListFilter } from '../../client/client.js';
import type { ColumnSpec } from '../../format/output.js';
import { listEverything } from '../../export/list-everything.js';
import { heapForSize } from '../../core/heap.js';
import { outFlag, printPage } from './list-out.js';
import { idOfName, nameOrId } from './name-or-id.js';
import { flag } from '../kit/flags.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { maxText } from '../kit/options.js';
import { itemPredicate } from '../../export/person-status.js';
import { filterPage, specOf, statusFilterOptions } from './status-filter.js';

export const PeopleListOptions = z.object({
  team: flag(nameOrId('--team').optional(), { flag: '--team <id|name>', description: 'only this team (its id or its name)' }),
  customId: flag(maxText('the custom id filter', 50).optional(), { flag: '--custom-id <text>', description: 'custom_id contains this text (case-insensitive, max 50)' }),
  email: flag(maxText('the email filter', 255).optional(), { flag: '--email <text>', description: 'email contains this text (case-insensitive, max 255)' }),
  all: flag(z.boolean().default(false), { flag: '--all', description: `every match, not only the first page the service returns (${LIST_CAP}, or ${LIST_CAP_FILTERED} with a filter)` }),
  out: outFlag('the list (the page, or with --all every match)'),
  ...statusFilterOptions,
});
export type PeopleListOptions = z.output<typeof PeopleListOptions>;

function filterOf(o: Omit<PeopleListOptions, 'team'> & { team?: number }): ListFilter {
  const f: ListFilter = {};
  if (o.team !== undefined) f.team_id = o.team;
  if (o.customId !== undefined) f.custom_id = o.customId;
  if (o.email !== undefined) f.email = o.email;
  return f;
}

/** A table column: first and last name together. */
export const fullName = (_v: unknown, row: unknown): string => {
  const r = row as { first_name?: string; last_name?: string };
  return [r.first_name, r.last_name].filter(Boolean).join(' ');
};

/**
 * The first columns of both lists' tables: who, and in which team and group.
 * The name and email are read whole; on a narrow terminal the team and the
 * custom id are left out before them, in the order each list gives (`drop`).
 */
export function personColumns(drop: { team: number; customId: number }): ColumnSpec[] {
  return [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'name', header: 'NAME', format: fullName, whole: true },
    { key: 'email', header: 'EMAIL', whole: true },
    { key: 'team', header: 'TEAM', drop: drop.team },
    { key: 'custom_id', header: 'CUSTOM ID', drop: drop.customId },
  ];
}

/** `invitations list` / `test-takers list`: one page as the service returns it, or every match with --all. */
export async function runPeopleList(
  ctx: Context,
  opts: PeopleListOptions,
  resource: 'invitations' | 'test-takers',
  columns: ColumnSpec[],
  noun: string,
): Promise<void> {
  // --fields names come from the list item's schema: checked (with -o and --out) before the
  // first request and before --team's name is looked up, whatever the service returns.
  const names = fieldNames(resource === 'invitations' ? InvitationListItem : TestTakerListItem);
  checkOutputOptions(ctx, { fields: { columns, fieldNames: names }, out: opts.out });
  const client = await ctx.client();
  const filter = filterOf({ ...opts, team: await idOfName(client, 'team', opts.team) });
  const spec = specOf(opts);
  const test = spec && itemPredicate(client, resource, spec, ctx.io.signal);
  if (opts.all) {
    const keep = test && { test, reason: 'outside --status/--since/--until' };
    heapForSize();
    await listEverything(ctx, client, { resource, filter, columns, noun, out: opts.out, fieldNames: names, mode: ctx.connection?.mode, keep });
    return;
  }
  const page = () => (resource === 'invitations' ? client.listInvitations(filter, ctx.io.signal) : client.listTestTakers(filter, ctx.io.signal));
  const fetch = test ? () => filterPage(ctx, page, test, opts, noun) : page;
  await printPage(ctx, opts.out, fetch, { columns, fieldNames: names, noun, capNotice: test ? false : undefined });
}
