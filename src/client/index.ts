/**
 * The HTTP layer in one import. Commands normally get a client from
 * ctx.client(); clientForConnection (create.ts) is the one factory behind it, also
 * for the few that need a client for a URL and key not yet saved (`jobfit
 * login` verifying a key before storing it).
 */
export * from './client.js';
export * from './create.js';
export * from './errors.js';
export * from './http.js';
export * from './retry.js';
