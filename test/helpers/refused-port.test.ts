/**
 * The held "nothing listens here" port of refused-port.ts: refused while held,
 * never given to a server that binds port 0, and taken by a server told to
 * listen on it.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { refusedPort } from './refused-port.js';

describe('refusedPort', () => {
  it('refuses connections, is never given to a bind of port 0, and a server can listen on it explicitly', async () => {
    const held = await refusedPort();
    try {
      const refused = await fetch(`http://127.0.0.1:${held.port}/`).catch((e: unknown) => (e as { cause?: { code?: string } }).cause?.code);
      expect(refused).toBe('ECONNREFUSED');
      const others = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const s = createServer();
          await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
          return s;
        }),
      );
      expect(others.map((s) => (s.address() as AddressInfo).port)).not.toContain(held.port);
      await Promise.all(others.map((s) => new Promise((ok) => s.close(ok))));
      const back = createHttpServer((_req, res) => res.writeHead(204).end());
      await new Promise<void>((ok, fail) => {
        back.once('error', fail);
        back.listen(held.port, '127.0.0.1', ok);
      });
      try {
        expect((await fetch(`http://127.0.0.1:${held.port}/`)).status).toBe(204);
      } finally {
        back.closeAllConnections();
        await new Promise((ok) => back.close(ok));
      }
    } finally {
      await held.close();
    }
  });
});
