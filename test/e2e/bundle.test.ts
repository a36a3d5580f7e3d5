/**
 * What the bundle leaves out or stands in for (scripts/build.mjs), on the
 * built binary: tests run the client from source against the real undici, so
 * only here would a stand-in that breaks a path show. The proxy agent and
 * undici's connect() are loaded only when the environment names a proxy
 * (scripts/undici-slim.cjs); a request through one must still go through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForeignServer, startFaultServer } from '../helpers/fault-server.js';
import { type BuiltCli, buildCli } from './built.js';

let cli: BuiltCli;
let server: ForeignServer;

beforeAll(async () => {
  cli = buildCli();
  server = await startFaultServer({ world: 'foreign' });
}, 120_000);
afterAll(async () => {
  cli?.close();
  await server?.close();
});

describe('the built binary', () => {
  it('goes through HTTP_PROXY (the proxy agent, loaded on demand) and not for hosts in NO_PROXY', async () => {
    const base = { JOBFIT_BASE_URL: 'http://api.jobfit.test:80/v2', JOBFIT_API_KEY: 'sk_test_proxyproxyproxy0000', HTTP_PROXY: `http://127.0.0.1:${server.port}` };
    // The proxy tunnels to the server behind it, which refuses the test key: proof the request went through.
    const via = await cli.runAsync(['teams', '-o', 'json'], { env: base });
    expect(via.stderr).toContain('API key is required');
    expect(via.code).toBe(4);
    expect(server.tunnels).toEqual(['api.jobfit.test:80']);

    const bypass = await cli.runAsync(['teams', '-o', 'json'], { env: { ...base, NO_PROXY: 'jobfit.test', JOBFIT_MAX_RETRIES: '0' } });
    expect(bypass.code).not.toBe(0);
    expect(bypass.stderr).toContain('Could not reach http://api.jobfit.test');
    expect(server.tunnels).toHaveLength(1);
  });
});
