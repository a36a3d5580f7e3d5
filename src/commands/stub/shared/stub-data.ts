/**
 * What the `jobfit stub …` verbs share: the
 * `--data DIR` option (default `<config dir>/stub`), opening the store there,
 * the checks of their options, and how they report. Every verb works on the
 * same SQLite file as a running `stub serve`, so lifecycle commands can be run
 * beside it. The stub's keys are its own fake keys and are printed whole on
 * purpose.
 */
import * as z from 'zod';
import { EVENT_TYPES } from '../../../api/schemas/events.js';
import { JobfitError } from '../../../core/errors.js';
import { stubDataDir } from '../../../config/paths.js';
import { jsonText } from '../../../format/output.js';
import { safeText } from '../../../format/sanitize.js';
import type { EventView, SeededStore, Store } from '../../../stub/index.js';
import type { Context } from '../../kit/context.js';
import { flag } from '../../kit/flags.js';

/** `--data DIR`, the last option of every stub verb. */
export const data = flag(z.string().optional(), { flag: '--data <dir>', description: 'stub data directory (default: <config dir>/stub)' });

/** A refusal: one sentence, and maybe a hint under it. */
type Refusal = string | { message: string; hint: string };

/**
 * The checks of a verb's options, in the order they have always run: the
 * first refusal is the sentence the user sees (exit 2), as written.
 */
export function firstRefusal<T>(check: (o: T) => Refusal | undefined) {
  return (o: T, zctx: z.RefinementCtx): void => {
    const r = check(o);
    if (r === undefined) return;
    if (typeof r === 'string') zctx.addIssue({ code: 'custom', message: r });
    else zctx.addIssue({ code: 'custom', message: r.message, params: { hint: r.hint } });
  };
}

/** A whole number typed on the command line (0 included); absent is fine. */
export function notPositiveInt(value: string | undefined, what: string): string | undefined {
  if (value === undefined || /^\d+$/.test(value.trim())) return undefined;
  return `${what} must be a positive integer, got "${value}".`;
}

export function notFraction(value: string | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) return `${what} must be a number between 0 and 1, got "${value}".`;
  return undefined;
}

/** An event type the service sends, or the refusal naming the known ones. */
export function notEventType(type: string | undefined): Refusal | undefined {
  if (type === undefined || (EVENT_TYPES as readonly string[]).includes(type)) return undefined;
  return { message: `Unknown event type "${type}".`, hint: `known types: ${EVENT_TYPES.join(', ')}` };
}

/** A checked number option, or undefined when absent. */
export const numberOf = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

export function dataDir(ctx: Context, opts: { data?: string }): string {
  return opts.data || stubDataDir(ctx.io.env);
}

/** Opens (and on first use seeds) the stub's store in the data directory for `fn`, and closes it. */
export async function withStore<T>(ctx: Context, opts: { data?: string }, fn: (store: SeededStore) => Promise<T> | T): Promise<T> {
  const { openStore } = await import('../../../stub/index.js');
  const store = await openStore(dataDir(ctx, opts));
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** The stub's refusals (an unknown id, an invitation already accepted) are the user's input problem: one sentence, exit 1. */
export function refused(err: unknown, refusal: abstract new (...args: never[]) => Error): never {
  if (err instanceof refusal) throw new JobfitError(err.message);
  throw err;
}

/** The first webhook attempt is made by this process; let it finish before we exit. */
export async function flushWebhooks(): Promise<void> {
  const { flushDeliveries } = await import('../../../stub/index.js');
  await flushDeliveries();
}

export function writeJsonOrLine(ctx: Context, obj: unknown, line: string): void {
  if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') ctx.io.stdout.write(`${jsonText(obj, ctx.globals.output === 'json' ? 2 : undefined)}\n`);
  // The line names people and addresses from the stub's data (a CSV's, once imported).
  else ctx.io.stdout.write(`${safeText(line)}\n`);
}

/** What became of an event's delivery, once the first attempt of this process has finished. */
export async function deliveryNote(ctx: Context, store: Store, eventId: string): Promise<void> {
  const stub = await import('../../../stub/index.js');
  await stub.flushDeliveries();
  const v = stub.listEventDeliveries(store, { id: eventId, limit: 1 })[0];
  if (!v) return;
  if (v.delivery === 'skipped') ctx.info(`Not sent: ${v.reason ?? 'delivery is off'}.`);
  else if (v.delivery === 'delivered') ctx.info(`Delivered to ${v.attempts.at(-1)?.url ?? 'the endpoint'} (${lastOutcome(v)}).`);
  else ctx.info(`Delivery ${v.delivery}: ${lastOutcome(v)}.`);
}

export function lastOutcome(v: EventView): string {
  const a = v.attempts.at(-1);
  if (!a) return v.reason ?? '';
  const what = a.response_status !== null ? `${a.response_status}` : (a.error ?? 'failed');
  return `${what}${a.duration_ms !== null ? ` in ${a.duration_ms} ms` : ''}${v.delivery === 'pending' && v.next_attempt_at ? `; retry at ${v.next_attempt_at}` : ''}`;
}
