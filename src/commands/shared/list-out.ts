/**
 * `--out FILE` for one page of a list (every list command has it, with or
 * without `--all`): the page goes to a temporary file beside FILE and is
 * renamed onto it only once written, as an export's (src/export/target.ts);
 * a request that fails leaves FILE as it was.
 */
import * as z from 'zod';
import type { Session } from '../../core/session.js';
import { openTarget } from '../../export/target.js';
import { type ListEnvelope, type PrintListOptions, printList } from '../../format/output.js';
import { flag } from '../kit/flags.js';

export const outFlag = (what: string) =>
  flag(z.string().min(1).optional(), {
    flag: '--out <file>',
    description: `write ${what} to FILE, only once complete (a failed run leaves FILE as it was)`,
  });

/** Fetches one page and prints it, to stdout or (with `out`) to FILE once it is whole. */
export async function printPage(ctx: Session, out: string | undefined, fetch: () => Promise<unknown>, opts: PrintListOptions): Promise<void> {
  if (out === undefined) return printList(ctx, (await fetch()) as ListEnvelope, opts);
  const target = openTarget(ctx, out, opts.noun ?? 'items');
  try {
    await printList(target.ctx, (await fetch()) as ListEnvelope, opts);
  } catch (err) {
    await target.abandon(undefined, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await target.commit(undefined);
}
