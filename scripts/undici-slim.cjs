'use strict';
// What src/client/http.ts takes from undici (Agent, EnvHttpProxyAgent,
// request), without the rest of undici's index: fetch, WebSocket, caches,
// cookies, mocks. The bundle aliases `undici` to this file (scripts/build.mjs):
// undici's index is over 1 MB of bundled code, and parsing it cost `jobfit
// teams` more start-up time than everything else together. Tests run from
// source against the real package, so a missing export shows up as a build
// error here, not as a difference in behaviour.
const Agent = require('../node_modules/undici/lib/dispatcher/agent');
const EnvHttpProxyAgent = require('../node_modules/undici/lib/dispatcher/env-http-proxy-agent');
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher');
const api = require('../node_modules/undici/lib/api');
const util = require('../node_modules/undici/lib/core/util');
const { InvalidArgumentError } = require('../node_modules/undici/lib/core/errors');
const { getGlobalDispatcher } = require('../node_modules/undici/lib/global');

// As undici's index does: dispatchers get .request() and friends.
Object.assign(Dispatcher.prototype, api);

// undici's index.js makeDispatcher(api.request), for the request(url, opts) form.
function request(url, opts) {
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
    throw new InvalidArgumentError('invalid url');
  }
  if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return api.request.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}

module.exports = { Agent, EnvHttpProxyAgent, Dispatcher, request };
