/**
 * Request bodies: read up to MAX_BODY, parsed as a JSON object. A body over
 * the limit is answered 413 at once, while the client may still be sending:
 * respond() drains the rest before the connection closes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MSG } from '../../api/messages.js';
import { BodyTooLarge, readBoundedBody } from '../../core/bounded-body.js';
import { lingerThenClose } from '../../core/linger.js';
import { HttpError, type Reply, error, fail, replyParts, writeReply } from './reply.js';

/** The largest request body the stub reads (docs/stub.md). */
export const MAX_BODY = 1_048_576;
/** After a 413, the rest of the body is read and dropped up to this much more, for this long; then the connection is cut. */
const DRAIN_MAX_BYTES = 64 * MAX_BODY;
const DRAIN_MAX_MS = 10_000;

export const tooLargeReply = (): Reply => ({ ...error(413, MSG.bodyTooLarge), headers: { connection: 'close' } });

/** Requests whose body went over MAX_BODY: answered with 413 while the client may still be sending. */
const oversized = new WeakSet<IncomingMessage>();

/**
 * Writes the answer to a request whose body was refused as too large. The
 * client may still be sending: the answer goes out at once, and the rest of
 * the body is read and dropped before the connection closes (core/linger.ts).
 */
function writeReplyDraining(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const { headers, body } = replyParts(reply);
  res.writeHead(reply.status, { ...headers, connection: 'close' });
  res.write(body);
  lingerThenClose(req, res, { maxBytes: DRAIN_MAX_BYTES, ms: DRAIN_MAX_MS });
}

/** Writes a reply; a request refused as too large has the rest of its body drained first. */
export function respond(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (oversized.has(req)) writeReplyDraining(req, res, reply);
  else writeReply(res, reply);
}

/**
 * The body up to MAX_BODY (core/bounded-body.ts). One declared over it is
 * refused before a byte is read; one that goes over it is refused at once,
 * its rest left unread: respond() writes the 413 first, then drains it.
 */
async function readBody(req: IncomingMessage): Promise<string> {
  try {
    return (await readBoundedBody(req, { limit: MAX_BODY, rest: 'leave' })).toString('utf8');
  } catch (err) {
    if (!(err instanceof BodyTooLarge)) throw err;
    oversized.add(req);
    throw new HttpError(tooLargeReply());
  }
}

/** The request body as a JSON object; anything else ends the request with the reference's 400. */
export async function parseJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  // readBody held it to MAX_BODY.
  return parseJson(await readBody(req));
}

/** A body already read (the embedded stub's, in-process.ts) as a JSON object: over MAX_BODY a 413, anything else the reference's 400. */
export function parseJsonText(text: string): Record<string, unknown> {
  if (Buffer.byteLength(text) > MAX_BODY) throw new HttpError(tooLargeReply());
  return parseJson(text);
}

function parseJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    fail(MSG.invalidJson);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(MSG.bodyNotObject);
  return value as Record<string, unknown>;
}
