'use strict';
// What src/client/http.ts takes from undici (Agent, EnvHttpProxyAgent, and
// Pool, the origin pool undici-agents.ts makes behind a proxy),
// without the rest of undici's index: fetch, WebSocket, caches, cookies, mocks.
// The bundle aliases `undici` to this file (scripts/build.mjs): undici's index
// is over 1 MB of bundled code, and parsing it cost `jobfit teams` more
// start-up time than everything else together. Tests run from source against
// the real package, so a missing export shows up as a build error here, not
// as a difference in behaviour.
const Agent = require('../node_modules/undici/lib/dispatcher/agent');

let EnvHttpProxyAgent;
/**
 * The proxy agent and what only it uses are loaded when the environment names
 * a proxy (transport.ts asks for it only then): ProxyAgent, its SOCKS5 agent,
 * and, of undici's request API, connect(), with which ProxyAgent tunnels HTTPS
 * through a proxy (undici's index puts the whole API on every dispatcher:
 * request, stream, pipeline, upgrade and connect; the client sends through
 * dispatch() with its own handler, so it needs none of them).
 */
function loadEnvHttpProxyAgent() {
  if (!EnvHttpProxyAgent) {
    const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher');
    Dispatcher.prototype.connect = require('../node_modules/undici/lib/api/api-connect');
    EnvHttpProxyAgent = require('../node_modules/undici/lib/dispatcher/env-http-proxy-agent');
  }
  return EnvHttpProxyAgent;
}

module.exports = {
  Agent,
  get EnvHttpProxyAgent() {
    return loadEnvHttpProxyAgent();
  },
  // Loaded by Agent already (its default factory); named here for src/client/undici-agents.ts.
  get Pool() {
    return require('../node_modules/undici/lib/dispatcher/pool');
  },
};
