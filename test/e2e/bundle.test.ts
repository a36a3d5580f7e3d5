/**
 * What the bundle leaves out or stands in for (scripts/build.mjs), on the
 * built binary: tests run the client from source against the real undici, so
 * only here would a stand-in that breaks a path show. The proxy agent and
 * undici's connect() are loaded only when the environment names a proxy
 * (scripts/undici-slim.cjs); a request through one must still go through it.
 */
import { spawnSync } from 'node:child_process';
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
  // bin/jobfit.js itself, under this node made to say it is Node 20 (not for the executable, which brings its own).
  it.skipIf(!!process.env.JOBFIT_E2E_EXE)('on a Node older than 22.12: one sentence and exit 1, not a crash in the bundle', () => {
    const asNode20 = 'data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.20.2"}})';
    const r = spawnSync(process.execPath, ['--import', asNode20, cli.bin, 'teams'], { encoding: 'utf8', env: { PATH: cli.path, HOME: cli.dir } });
    expect(r.stderr).toBe('jobfit needs Node.js 22.12 or later; this is Node.js 20.20.2. Install a current Node.js (https://nodejs.org), or use jobfit\'s standalone executable, which needs no Node.\n');
    expect(r.status).toBe(1);
  });

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
