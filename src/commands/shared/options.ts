/**
 * Zod at the door: every command parses its commander options with a schema
 * first thing in its action. A bad value becomes a UsageError (exit 2) in one
 * sentence naming the flag, never a zod dump.
 */
import * as z from 'zod';
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
  throw new UsageError(`${where}${issue.message.replace(/\.$/, '')}.`);
}

/** A positive integer typed on the command line (ids). */
export const intId = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .regex(/^\d+$/, `${what} must be a positive integer`)
    .transform(Number)
    .refine((n) => n > 0 && Number.isSafeInteger(n), `${what} must be a positive integer`);

/** An optional free-text filter with the service's length limit. */
export const maxText = (what: string, max: number) => z.string().max(max, `${what} must be at most ${max} characters`);

/** `get ID` of a resource with integer ids (invitations, test takers). */
export const IdOptions = z.object({ id: intId('ID') });
export type IdOptions = z.output<typeof IdOptions>;
