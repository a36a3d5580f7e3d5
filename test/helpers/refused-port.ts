/**
 * A loopback port nothing listens on, for "the endpoint is down": a
 * connection to it is refused (ECONNREFUSED). Picking a free port, closing it
 * and using it later races under load (issue 23): meanwhile any server that
 * binds port 0 may be given it. This port is held the whole time by the local
 * end of a loopback connection, bound with SO_REUSEADDR (as node binds every
 * socket). The kernel never hands a held port to a bind of port 0, and
 * nothing listens on it, so a connection is refused; yet a server told to
 * listen on exactly this port (the endpoint coming back; node and PostgreSQL
 * both bind with SO_REUSEADDR) can, since no listener holds it.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface RefusedPort {
  port: number;
  /** Lets the port go. */
  close(): Promise<void>;
}

export async function refusedPort(): Promise<RefusedPort> {
  const accepted = new Set<Socket>();
  const peer = createServer((s) => {
    accepted.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((ok, fail) => {
    peer.once('error', fail);
    peer.listen(0, '127.0.0.1', () => ok());
  });
  // localAddress makes node bind the socket (with SO_REUSEADDR) before it connects.
  const holder = connect({ port: (peer.address() as AddressInfo).port, host: '127.0.0.1', localAddress: '127.0.0.1' });
  await new Promise<void>((ok, fail) => {
    holder.once('connect', ok);
    holder.once('error', fail);
  });
  holder.on('error', () => undefined);
  // A test that forgets close() does not keep its worker alive.
  holder.unref();
  peer.unref();
  return {
    port: holder.localPort!,
    close: () =>
      new Promise<void>((ok) => {
        holder.destroy();
        for (const s of accepted) s.destroy();
        peer.close(() => ok());
      }),
  };
}
