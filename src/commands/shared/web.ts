/**
 * `--web` on `invitations get`, `test-takers get`, `scorecard ID` and
 * `job-fit ID`: the page of the thing in the browser (open-url.ts) instead of
 * its data on stdout. A page the service has not made yet (a scorecard before
 * acceptance) is one sentence and exit 1.
 */
import * as z from 'zod';
import { JobfitError, UsageError } from '../../core/errors.js';
import type { Session } from '../../core/session.js';
import { flag } from '../kit/flags.js';

export const webFlag = (what: string) =>
  flag(z.boolean().optional(), { flag: '--web', description: `open ${what} in the browser instead of printing it (off a terminal, or with no browser: its URL on stdout)` });

/** Opens `url` as `what`; `missing`: the sentence when there is none yet. */
export async function openWeb(ctx: Session, url: unknown, what: string, missing: string): Promise<void> {
  if (typeof url !== 'string' || url === '') throw new JobfitError(missing);
  const { openInBrowser } = await import('./open-url.js');
  await openInBrowser(ctx, url, what);
}

/** --web goes with exactly one id on the command line. */
export function checkWebOne(o: { web?: boolean; ids: string[]; idsFrom?: string; all?: boolean; out?: string }): void {
  if (!o.web) return;
  if (o.ids.length !== 1 || o.idsFrom !== undefined || o.all || o.out !== undefined) throw new UsageError('--web opens the page of one test taker: give one id (no --all, --ids-from or --out).');
}
