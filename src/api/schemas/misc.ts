/**
 * The healthcheck and the error body.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';
import { timestamp } from './base.js';

// ---------------------------------------------------------------- misc

export const Healthcheck = z
  .object({ status: z.literal('ok'), timestamp, version: z.literal('v2') })
  .meta({ id: 'Healthcheck' });
export type Healthcheck = z.infer<typeof Healthcheck>;

/**
 * Error body. The reference: `{ error: <message> }`, or for some schema errors
 * `{ error: [ ... ] }`. We decided the array holds strings of the same
 * `<field>: <message>` form (docs/stub.md).
 */
export const ErrorBody = z.object({ error: z.union([z.string(), z.array(z.unknown())]) }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
