/**
 * An unknown --sp fails every scorecard of a run the same way; checking it once
 * against GET /score-profiles turns thousands of identical 400s into one
 * clear sentence before anything else is fetched.
 */
import type { Context } from '../kit/context.js';
import { UsageError } from '../../core/errors.js';
import type { JobfitClient } from '../../client/client.js';

export async function checkScoreProfile(ctx: Context, client: JobfitClient, sp: string): Promise<void> {
  const list = (await client.listScoreProfiles()) as { data?: Array<{ short_name?: unknown }> };
  const names = (list.data ?? []).map((p) => p.short_name).filter((n): n is string => typeof n === 'string');
  if (names.includes(sp)) return;
  // Test keys may answer with fake profiles: let the service decide.
  if (ctx.connection?.mode === 'test') return;
  throw new UsageError(
    `Unknown score profile "${sp}" for --sp.`,
    names.length ? `profiles of this account: ${names.join(', ')} (see \`jobfit score-profiles\`)` : 'see `jobfit score-profiles`',
  );
}
