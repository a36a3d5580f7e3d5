/**
 * What the `jobfit stub …` verbs share: the `--data DIR` option (default
 * `<config dir>/stub`), opening the store there, and the checks of their
 * number arguments.
 */
import type { Command } from 'commander';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { stubDataDir } from '../../config/paths.js';
import { jsonText } from '../../format/output.js';
import { safeText } from '../../format/sanitize.js';
import type { SeededStore } from '../../stub/seeded-store.js';
import type { Store } from '../../stub/store.js';
import type { EventView } from '../../stub/webhooks.js';

export const dataOption = (cmd: Command) => cmd.option('--data <dir>', 'stub data directory (default: <config dir>/stub)');

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

export function dataDir(ctx: Context, opts: { data?: string }): string {
  return opts.data || stubDataDir(ctx.io.env);
}

/** Opens (and on first use seeds) the stub's store in the data directory for `fn`, and closes it. */
export async function withStore<T>(ctx: Context, opts: { data?: string }, fn: (store: SeededStore) => Promise<T> | T): Promise<T> {
  const { openStore } = await import('../../stub/seeded-store.js');
  const store = await openStore(dataDir(ctx, opts));
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

export function positiveInt(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${what} must be a positive integer, got "${value}".`);
  return Number(value);
}

export function fraction(value: string, what: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${what} must be a number between 0 and 1, got "${value}".`);
  return n;
}

/** Lifecycle refusals (unknown id, already accepted) are the user's input problem: one sentence, exit 1. */
export function lifecycleError(err: unknown): never {
  if (err instanceof Error && err.name === 'LifecycleError') throw new JobfitError(err.message);
  throw err;
}

/** The first webhook attempt is made by this process; let it finish before we exit. */
export async function flushWebhooks(): Promise<void> {
  const { flushDeliveries } = await import('../../stub/webhooks.js');
  await flushDeliveries();
}

export function writeJsonOrLine(ctx: Context, obj: unknown, line: string): void {
  if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') ctx.io.stdout.write(`${jsonText(obj, ctx.globals.output === 'json' ? 2 : undefined)}\n`);
  // The line names people and addresses from the stub's data (a CSV's, once imported).
  else ctx.io.stdout.write(`${safeText(line)}\n`);
}

/** What became of an event's delivery, once the first attempt of this process has finished. */
export async function deliveryNote(ctx: Context, store: Store, eventId: string): Promise<void> {
  const wh = await import('../../stub/webhooks.js');
  await wh.flushDeliveries();
  const v = wh.listEventDeliveries(store, { limit: 1_000_000 }).find((e) => e.id === eventId);
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
