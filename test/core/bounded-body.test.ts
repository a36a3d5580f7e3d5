/**
 * The one bounded body reader of both servers (src/core/bounded-body.ts),
 * over a real loopback server: its bounds, and what it leaves of a refused body.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyBounds, BodyTooLarge, Busy, readBoundedBody } from '../../src/core/bounded-body.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** Sends `body` (chunked when `declare` is false) and gives what the reader made of it, and whether the rest of the request still flows. */
async function read(bounds: BodyBounds, body: Buffer, declare = true): Promise<{ got: Buffer | Error; flowing: boolean }> {
  let seen: (v: { got: Buffer | Error; flowing: boolean }) => void = () => {};
  const result = new Promise<{ got: Buffer | Error; flowing: boolean }>((r) => (seen = r));
  server = createServer((req: IncomingMessage, res) => {
    readBoundedBody(req, bounds).then(
      (got) => seen({ got, flowing: req.readableFlowing === true }),
      (got: Error) => seen({ got, flowing: req.readableFlowing === true }),
    );
    setTimeout(() => res.end('ok'), 20);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const req = request({ port, host: '127.0.0.1', method: 'POST', headers: declare ? { 'content-length': body.length } : {} });
  req.on('error', () => {});
  req.on('response', (res) => res.resume());
  if (declare) req.end(body);
  else {
    req.write(body);
    req.end();
  }
  return result;
}

describe('readBoundedBody', () => {
  it('gives a body within the limit, declared or chunked', async () => {
    expect(String((await read({ limit: 5, rest: 'drop' }, Buffer.from('hello'))).got)).toBe('hello');
    expect(String((await read({ limit: 5, rest: 'drop' }, Buffer.from('hello'), false)).got)).toBe('hello');
  });

  it('refuses a declared length over the limit before reading, and a chunked body once it goes over', async () => {
    const declared = await read({ limit: 4, rest: 'leave' }, Buffer.from('hello'));
    expect(declared.got).toBeInstanceOf(BodyTooLarge);
    expect((declared.got as Error).message).toBe('5');
    const chunked = await read({ limit: 4, rest: 'leave' }, Buffer.alloc(64 * 1024), false);
    expect(chunked.got).toBeInstanceOf(BodyTooLarge);
  });

  it("'leave' leaves the rest of a refused body unread for the caller to drain; 'drop' reads on", async () => {
    for (const declare of [true, false]) {
      expect((await read({ limit: 1024, rest: 'leave' }, Buffer.alloc(256 * 1024), declare)).flowing).toBe(false);
      expect((await read({ limit: 1024, rest: 'drop' }, Buffer.alloc(256 * 1024), declare)).flowing).toBe(true);
    }
  });

  it('refuses a body that does not fit the shared budget as Busy, and gives the budget back after a read', async () => {
    const budget = { used: 90, max: 100 };
    expect((await read({ limit: 50, budget, rest: 'drop' }, Buffer.alloc(20))).got).toBeInstanceOf(Busy);
    budget.used = 0;
    expect((await read({ limit: 50, budget, rest: 'drop' }, Buffer.alloc(20))).got).toHaveLength(20);
    expect(budget.used).toBe(0);
  });
});
