/**
 * An unknown --sp fails every scorecard of a run the same way; checking it once
 * against GET /score-profiles turns thousands of identical 400s into one
 * clear sentence before anything else is fetched. It is the export's first
 * read, so it is asked again like every other read of the export
 * (ask-again.ts): a connection dropped more times in a row than the client
 * retries must not end a run of thousands of ids before it starts.
 */
import type { JobfitClient } from '../client/client.js';
import { UsageError } from '../core/errors.js';
import { askAgain } from '../listing/ask-again.js';

/** `mode` is the key's mode: test keys may answer with fake profiles, so there the service decides. `signal` (Ctrl-C) ends a wait to ask again. */
export async function checkScoreProfile(client: JobfitClient, sp: string, mode: 'live' | 'test' | undefined, signal?: AbortSignal): Promise<void> {
  const list = (await askAgain(() => client.listScoreProfiles(), { signal })) as { data?: Array<{ short_name?: unknown }> };
  const names = (list.data ?? []).map((p) => p.short_name).filter((n): n is string => typeof n === 'string');
  if (names.includes(sp)) return;
  if (mode === 'test') return;
  throw new UsageError(
    `Unknown score profile "${sp}" for --sp.`,
    names.length ? `profiles of this account: ${names.join(', ')} (see \`jobfit score-profiles\`)` : 'see `jobfit score-profiles`',
  );
}
