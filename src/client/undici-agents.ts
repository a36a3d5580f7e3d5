/**
 * undici's agents, in a module of their own: HttpClient loads it (and undici
 * with it) on the first request that goes over the network, so a command
 * against the embedded stub, answered in this process (stub/in-process.ts),
 * never loads undici.
 */
import { Agent, type buildConnector, type Dispatcher, EnvHttpProxyAgent, Pool } from 'undici';
import { isLoopbackHost } from '../core/loopback.js';
import type { Timeouts } from './transport.js';

/** The dispatcher for a base URL: a plain keep-alive agent, or the proxy the environment names (never for this machine). */
export function makeDispatcher(baseUrl: string, env: Record<string, string | undefined>, t: Timeouts): Dispatcher {
  const agentOpts = {
    connectTimeout: t.connectMs,
    headersTimeout: t.headersMs,
    bodyTimeout: t.bodyMs,
    keepAliveTimeout: 10_000,
  };
  const host = new URL(baseUrl).hostname;
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY;
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY;
  // The embedded stub and local servers never go through a proxy.
  if (isLoopbackHost(host) || (!httpProxy && !httpsProxy)) return new Agent(agentOpts);
  // Pass the values explicitly so the proxy follows io.env, not process.env.
  return new EnvHttpProxyAgent({
    ...agentOpts,
    factory: tunnelFailuresFinal,
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  });
}

/**
 * The error codes a failed tunnel is given, so the client's retry policy
 * (retry.ts) and its sentence (transport.ts) know it: the proxy closed the
 * connection before the tunnel was up (nothing reached the service), or it
 * answered the CONNECT with another status than 200.
 */
const PROXY_CLOSED = 'JOBFIT_PROXY_CLOSED';
const PROXY_REFUSED = 'JOBFIT_PROXY_REFUSED';

type Connector = buildConnector.connector;

/**
 * A tunnel that failed, as an error undici gives to the request. undici's
 * client treats a socket error while connecting (UND_ERR_SOCKET: the proxy
 * closed the CONNECT) as recoverable and connects again at once, with the
 * request still queued: a proxy that closes every CONNECT was asked about
 * 3,100 times a second, with no end and no way for Ctrl-C to reach it (issue
 * 42). Renamed, the error ends the attempt like any failed connection, and
 * the client's own retries (the same budget and breaker as a direct
 * connection) decide what comes next.
 */
function tunnelError(err: Error): Error {
  const code = (err as { code?: unknown }).code;
  if (code === 'UND_ERR_SOCKET') return Object.assign(new Error(`the proxy closed the connection before the tunnel was open (${err.message})`, { cause: err }), { code: PROXY_CLOSED });
  const status = /^Proxy response \((\d+)\)/.exec(err.message)?.[1];
  if (code === 'UND_ERR_ABORTED' && status) return Object.assign(new Error(`the proxy answered the tunnel request with HTTP ${status}`, { cause: err }), { code: PROXY_REFUSED, status: Number(status) });
  return err;
}

/** The connect function of an origin's pool, with a failed tunnel's error renamed. */
function finalConnect(connect: Connector): Connector {
  return (opts, callback) => connect(opts, (err, socket) => (err ? callback(tunnelError(err), null) : callback(null, socket!)));
}

/** undici's factory option (an origin's pool, as undici makes it) with tunnel failures final (see tunnelError). */
function tunnelFailuresFinal(origin: URL | string, opts: object): Dispatcher {
  const o = opts as Pool.Options & { connect?: unknown };
  return new Pool(origin, typeof o.connect === 'function' ? { ...o, connect: finalConnect(o.connect as Connector) } : o);
}
