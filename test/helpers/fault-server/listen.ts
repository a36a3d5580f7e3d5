/**
 * How every world of the fault server binds and closes: port 0 on the
 * loopback, and a close that drops kept-alive connections first (a client
 * holding one open must not keep a test waiting).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenLoopback(server: Server): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
