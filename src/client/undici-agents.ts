/**
 * undici's agents, in a module of their own: HttpClient loads it (and undici
 * with it) on the first request that goes over the network, so a command
 * against the embedded stub, answered in this process (stub/in-process.ts),
 * never loads undici.
 */
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
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
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  });
}
