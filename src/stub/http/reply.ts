/**
 * What a handler answers (a Reply) and how it goes on the wire. A handler
 * that refuses a request calls fail(): the router turns the thrown HttpError
 * into its reply.
 */
import type { ServerResponse } from 'node:http';
import { MSG } from '../../api/messages.js';

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; headers?: Record<string, string> }
  /** Already serialised JSON (from the response cache): bytes, so that a hit is not encoded again. */
  | { status: number; raw: Buffer; headers?: Record<string, string> };

export const json = (status: number, body: unknown): Reply => ({ status, json: body });
export const error = (status: number, message: string | string[]): Reply => json(status, { error: message });

export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super('http error');
  }
}

/** Ends the handler with an error reply. */
export function fail(message: string | string[], status = 400): never {
  throw new HttpError(error(status, message));
}

export function methodNotAllowed(allowed: readonly string[]): Reply {
  const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
  return { status: 405, text: MSG.methodNotAllowed, headers: { allow: allow.join(', ') } };
}

export function replyParts(reply: Reply): { headers: Record<string, string | number>; body: string | Buffer } {
  const isJson = !('text' in reply);
  const body = 'json' in reply ? JSON.stringify(reply.json) : 'raw' in reply ? reply.raw : reply.text;
  const headers: Record<string, string | number> = {
    'content-type': isJson ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    ...reply.headers,
  };
  return { headers, body };
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const { headers, body } = replyParts(reply);
  res.writeHead(reply.status, headers);
  res.end(body);
}
