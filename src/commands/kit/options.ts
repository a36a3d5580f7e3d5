/** Schemas for the options commands share (ids, filters). */
import * as z from 'zod';

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
