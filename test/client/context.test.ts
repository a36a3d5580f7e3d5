/**
 * ctx.config() / ctx.client() / ctx.close(): resolution, the embedded stub
 * (a stand-in here; the real one is covered by the CLI tests), the one notice,
 * the -v trace on stderr with the key masked.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../src/core/session.js';
import { createContext, EMBEDDED_NOTICE, type StartStub } from '../../src/cli/create-context.js';
import { memoryIO } from '../helpers/io.js';
import { type ForeignServer, FOREIGN_KEY as KEY, startFaultServer } from '../helpers/fault-server.js';

const G: GlobalOptions = { color: false, quiet: false, verbose: false };
let dir: string;
let server: ForeignServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-ctx-'));
  server = await startFaultServer({ world: 'foreign' });
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function fakeStub(calls: { dataDir?: string; closed: number; started: number }): StartStub {
  return async (opts) => {
    calls.dataDir = opts.dataDir;
    calls.started++;
    return {
      url: server.url,
      keys: [{ account_id: 1, display_name: 'Acme', live_key: KEY, test_key: 'sk_test_stubstubstub00001111' }],
      close: async () => {
        calls.closed++;
      },
    };
  };
}

describe('createContext', () => {
  it('with nothing configured runs the embedded stub, says so once, and closes it', async () => {
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir } });
    const calls = { closed: 0, started: 0 } as { dataDir?: string; closed: number; started: number };
    const ctx = createContext(m.io, G, { startStub: fakeStub(calls) });
    expect(ctx.connection).toBeUndefined();
    const client = await ctx.client();
    expect(await ctx.client()).toBe(client);
    const teams = await client.listTeams();
    expect(teams.total_count).toBe(1);
    expect(calls).toMatchObject({ started: 1, dataDir: join(dir, 'stub') });
    expect(m.stderr()).toBe(`${EMBEDDED_NOTICE}\n`);
    expect(m.stdout()).toBe('');
    expect(ctx.connection).toEqual({ baseUrl: server.url, mode: 'live', maskedKey: 'sk_live_…a1b2', source: 'embedded-stub', embedded: true, account: 'Acme (1)' });
    await ctx.close();
    expect(calls.closed).toBe(1);
    await ctx.close();
    expect(calls.closed).toBe(1);
  });

  it('--quiet hides the notice; --test uses the stub account test key', async () => {
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir } });
    const calls = { closed: 0, started: 0 };
    const ctx = createContext(m.io, { ...G, quiet: true, mode: 'test' }, { startStub: fakeStub(calls) });
    await ctx.client();
    expect(m.stderr()).toBe('');
    expect(ctx.connection?.mode).toBe('test');
    expect(ctx.connection?.maskedKey).toBe('sk_test_…1111');
    await ctx.close();
  });

  it('uses JOBFIT_API_KEY and JOBFIT_BASE_URL without starting the stub; -v traces with the key masked', async () => {
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir, JOBFIT_API_KEY: KEY, JOBFIT_BASE_URL: server.url } });
    const calls = { closed: 0, started: 0 };
    const ctx = createContext(m.io, { ...G, verbose: true }, { startStub: fakeStub(calls) });
    const client = await ctx.client();
    await client.listTeams();
    await ctx.close();
    expect(calls.started).toBe(0);
    expect(ctx.connection).toMatchObject({ source: 'env', mode: 'live', embedded: false });
    const err = m.stderr();
    expect(err).toContain('→ GET /v2/teams');
    expect(err).toContain('Authorization: Bearer sk_live_…a1b2');
    expect(err).not.toContain(KEY);
    expect(err).not.toContain('embedded');
  });

  it('uses the profile saved through ctx.config(), whose file is 0600', async () => {
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir } });
    const ctx = createContext(m.io, G, { startStub: fakeStub({ closed: 0, started: 0 }) });
    const store = await ctx.config();
    expect(store.path).toBe(join(dir, 'config.json'));
    store.setProfile('work', { base_url: server.url, live_key: KEY });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    const ctx2 = createContext(m.io, G, { startStub: fakeStub({ closed: 0, started: 0 }) });
    await (await ctx2.client()).listTeams();
    expect(ctx2.connection).toMatchObject({ source: 'profile:work', profileName: 'work', baseUrl: server.url });
    await ctx2.close();
  });

  it('reports a resolution problem when the client is asked for, not before', async () => {
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir, JOBFIT_API_KEY: KEY } });
    const ctx = createContext(m.io, G);
    await expect(ctx.client()).rejects.toThrow(/no base URL/);
    await ctx.close();
  });
});
