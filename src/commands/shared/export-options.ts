/**
 * The options `scorecard` and `job-fit` share: where the test taker ids come
 * from (arguments, --ids-from, or --all with its filters) and how the export
 * runs (--concurrency, --errors, --out). The id sources are checked together
 * in the schema, before anything is fetched.
 */
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import { checkIdSource } from '../../export/ids.js';
import { flag } from '../kit/flags.js';
import { maxText } from '../kit/options.js';
import { nameOrId } from './name-or-id.js';
import { statusFilterOptions } from './status-filter.js';

/** The flags in --help order; `all` and `errors` are described by each command. */
export function exportFlags(describe: { all: string; errors: string }) {
  return {
    ids: z.array(z.string()).default([]),
    idsFrom: flag(z.string().optional(), {
      flag: '--ids-from <file>',
      description: 'read test taker ids from a file (- for stdin): one per line, or jobfit CSV/JSON/NDJSON output with an id or test_taker_id',
    }),
    all: flag(z.boolean().default(false), { flag: '--all', description: describe.all }),
    team: flag(nameOrId('--team').optional(), { flag: '--team <id|name>', description: 'with --all: only this team (its id or its name)' }),
    customId: flag(maxText('the custom id filter', 50).optional(), { flag: '--custom-id <text>', description: 'with --all: only test takers whose custom_id contains this text' }),
    concurrency: flag(z.coerce.number().int().min(1).max(64).default(16), { flag: '--concurrency <n>', description: 'requests in flight (default 16)' }),
    errors: flag(z.string().optional(), { flag: '--errors <file>', description: describe.errors }),
    out: flag(z.string().min(1).optional(), { flag: '--out <file>', description: 'write the export to FILE, only once it is complete (a failed run leaves FILE as it was)' }),
    retryFailed: flag(z.boolean().optional(), {
      flag: '--retry-failed',
      description: 'with --out FILE: fetch again only the test takers the last export to FILE failed, and merge them into it (CSV, NDJSON, JSON)',
    }),
    ...statusFilterOptions,
  };
}

/** One source of ids (arguments, --ids-from or --all), --team and --custom-id only with --all, ids that are ids. */
export function checkIdSources(o: { ids: string[]; idsFrom?: string; all: boolean; team?: string; customId?: string; retryFailed?: boolean; out?: string }, zctx: z.RefinementCtx): void {
  if (o.retryFailed) {
    // The ids come from the note of the last export to --out (retry-failed.ts).
    if (o.out === undefined) zctx.addIssue({ code: 'custom', message: '--retry-failed retries the last export to a file: give its --out FILE.' });
    else if (o.ids.length > 0 || o.idsFrom !== undefined || o.all) zctx.addIssue({ code: 'custom', message: '--retry-failed takes its ids from the last export to --out: give no ids, --ids-from or --all.' });
    return;
  }
  try {
    // Only whether --team was given matters here; its name is looked up when the command runs.
    checkIdSource({ ...o, team: o.team === undefined ? undefined : 0 });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    zctx.addIssue({ code: 'custom', message: err.message });
  }
}
