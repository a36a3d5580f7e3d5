/**
 * A delivery's body read within bounds (receiver.ts says why), through the
 * bounded reader both servers share (core/bounded-body.ts): at most `limit`
 * bytes, bodies in flight sharing one budget, `Expect: 100-continue` answered
 * only when the body is wanted, the rest of a refused body dropped as it comes.
 */
import type { IncomingMessage } from 'node:http';
import { type Budget, readBoundedBody } from '../core/bounded-body.js';

export const DEFAULT_MAX_DELIVERY_BYTES = 1024 * 1024;

/** Bytes of request bodies read at the same time; past it a delivery gets 503 and is retried by its sender. */
export const IN_FLIGHT_BODY_BYTES = 16 * 1024 * 1024;

/** The body of a delivery, once it fits; `goOn` sends `100 Continue` to a sender that waits for it. */
export function readBody(req: IncomingMessage, limit: number, budget: Budget, goOn: () => void): Promise<Buffer> {
  return readBoundedBody(req, { limit, budget, goOn, rest: 'drop' });
}
