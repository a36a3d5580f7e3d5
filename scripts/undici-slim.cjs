'use strict';
// What src/client/http.ts takes from undici (Agent, EnvHttpProxyAgent),
// without the rest of undici's index: fetch, WebSocket, caches, cookies, mocks.
// The bundle aliases `undici` to this file (scripts/build.mjs): undici's index
// is over 1 MB of bundled code, and parsing it cost `jobfit teams` more
// start-up time than everything else together. Tests run from source against
// the real package, so a missing export shows up as a build error here, not
// as a difference in behaviour.
const Agent = require('../node_modules/undici/lib/dispatcher/agent');
const EnvHttpProxyAgent = require('../node_modules/undici/lib/dispatcher/env-http-proxy-agent');
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher');

// The client sends through dispatcher.dispatch() with its own handler, so of
// undici's request API only connect() is needed: ProxyAgent tunnels HTTPS
// through a proxy with it. (undici's index puts the whole API on every
// dispatcher: request, stream, pipeline, upgrade and connect.)
Dispatcher.prototype.connect = require('../node_modules/undici/lib/api/api-connect');

module.exports = { Agent, EnvHttpProxyAgent, Dispatcher };
