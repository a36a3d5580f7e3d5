/**
 * `--all` for invitations, test-takers and profiles: the complete list, beyond
 * the service's cap of 50/150 per request. The engine is src/export/complete-list.ts;
 * this file only adapts it to the commands.
 */
import type { JobfitClient, ListFilter } from '../../client/client.js';
import type { Context } from '../../cli/context.js';
import { JobfitError } from '../../cli/errors.js';
import type { ColumnSpec } from '../../format/output.js';

export type AllResource = 'invitations' | 'test-takers' | 'profiles';

export interface ListEverythingOptions {
  resource: AllResource;
  filter?: ListFilter;
  columns: ColumnSpec[];
  noun: string;
}

export async function listEverything(_ctx: Context, _client: JobfitClient, o: ListEverythingOptions): Promise<void> {
  throw new JobfitError(`--all for ${o.resource} is not available in this build yet.`);
}
