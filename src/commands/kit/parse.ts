/**
 * Zod at the door: the kit parses every command's options with its schema
 * before `run`. A bad value becomes a UsageError (exit 2) in one sentence
 * naming the flag, never a zod dump (a check across options may add a hint). (zod is a type here: this file loads
 * nothing, so a command without a schema never loads zod.)
 */
import type * as z from 'zod';
import { UsageError } from '../../core/errors.js';

/** `customId` → `--custom-id`; positional arguments are named as they are in the usage line. */
export function flagOf(key: string, positional: readonly string[] = []): string {
  if (positional.includes(key)) return key.toUpperCase();
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown, positional: readonly string[] = []): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const head = issue.path[0];
  const where = typeof head === 'string' ? `${flagOf(head, positional)}: ` : '';
  // A check across options may carry a hint (`params: { hint }`), shown under the sentence.
  const hint = issue.code === 'custom' ? (issue.params as { hint?: string } | undefined)?.hint : undefined;
  throw new UsageError(`${where}${issue.message.replace(/\.$/, '')}.`, hint);
}

