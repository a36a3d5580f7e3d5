/**
 * The stub's HTTP server on node:http. startStub() in index.ts is the public
 * entry; this only binds the app to a port.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppOptions, createApp } from './app.js';
import { MAX_BODY, tooLargeReply } from './http/body.js';
import { hostNameOf, isLoopbackHost, STUB_INSTANCE_PATH } from '../core/loopback.js';
import { error, writeReply } from './http/reply.js';
import type { FaultInjector } from './faults.js';
import type { Store } from './store.js';

export interface StubListenOptions {
  store: Store;
  port?: number;
  host?: string;
  faults?: FaultInjector;
  pages?: AppOptions['pages'];
  /** The origin of the URLs the app hands out; default: the one it listens on. */
  urlOrigin?: () => string;
  minimalFields?: boolean;
}

export interface Listening {
  server: Server;
  origin: string;
  /** The address and port really bound (`0.0.0.0:4010`, `[::1]:4010`), which the origin may not show. */
  bound: string;
  /** This server's random id, answered at STUB_INSTANCE_PATH (core/loopback.ts). */
  instance: string;
  close(): Promise<void>;
}

export const FOREIGN_HOST = 'This stub answers only requests addressed to this machine (Host: localhost, 127.0.0.1 or [::1]).';

export async function listenStub(opts: StubListenOptions): Promise<Listening> {
  let origin = '';
  const host = opts.host ?? '127.0.0.1';
  const app = createApp({ store: opts.store, origin: opts.urlOrigin ?? (() => origin), faults: opts.faults, pages: opts.pages, minimalFields: opts.minimalFields });
  // Bound to this machine only, a request addressed to another name came from a
  // web page whose name was pointed here (DNS rebinding), and the seed's keys
  // are public: it is refused before any route runs. (An HTTP/1.0 request
  // without a Host header is let through, as curl --http1.0 sends one anyway.)
  const loopbackOnly = isLoopbackHost(host);
  const instance = randomUUID();
  const guarded = (req: IncomingMessage, res: ServerResponse) => {
    const hostHeader = req.headers.host;
    if (loopbackOnly && hostHeader !== undefined && !isLoopbackHost(hostNameOf(hostHeader))) {
      writeReply(res, error(403, FOREIGN_HOST));
      return;
    }
    // Who this server is (never faulted): the CLI checks it against what `stub serve` recorded.
    if (req.url === STUB_INSTANCE_PATH && req.method === 'GET') {
      writeReply(res, { status: 200, json: { instance }, headers: { 'cache-control': 'no-store' } });
      return;
    }
    app(req, res);
  };
  const server = createServer({ keepAliveTimeout: 5000 }, guarded);
  // `Expect: 100-continue` (curl sends it for large bodies): a declared body
  // over the limit is refused before the client sends it.
  server.on('checkContinue', (req, res) => {
    if (Number(req.headers['content-length']) > MAX_BODY) {
      writeReply(res, tooLargeReply());
      return;
    }
    res.writeContinue();
    guarded(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  origin = `http://${shownHost === '0.0.0.0' || shownHost === '[::]' ? '127.0.0.1' : shownHost}:${addr.port}`;
  return {
    server,
    origin,
    bound: `${shownHost}:${addr.port}`,
    instance,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold close() open.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}
