/**
 * The HTTP layer in one import. Commands normally get a client from
 * ctx.client(); createClient is for the few that need one for a URL and key
 * not yet saved (`jobfit login` verifying a key before storing it).
 */
import { JobfitClient } from './client.js';
import { HttpClient, type HttpClientOptions } from './http.js';

export * from './client.js';
export * from './errors.js';
export * from './http.js';
export * from './retry.js';

export function createClient(opts: HttpClientOptions & { verbose?: boolean }): JobfitClient {
  const { verbose, ...http } = opts;
  return new JobfitClient(new HttpClient(http), { verbose: verbose ?? Boolean(opts.trace) });
}
