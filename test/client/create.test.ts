/**
 * The one client factory: the environment's settings, and `login` (which
 * checks a key before saving it) honouring them like every other command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/client/create.js';
import { createContext } from '../../src/cli/create-context.js';
import * as login from '../../src/commands/login/login.js';
import { JobfitError, UsageError } from '../../src/core/errors.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';
import { memoryIO } from '../helpers/io.js';

describe('settingsFromEnv', () => {
  it('reads JOBFIT_TIMEOUT, JOBFIT_MAX_RETRIES and JOBFIT_BREAKER_SECONDS, and nothing when unset', () => {
    expect(settingsFromEnv({})).toEqual({ timeouts: undefined, retry: undefined, breaker: undefined });
    expect(settingsFromEnv({ JOBFIT_TIMEOUT: '' })).toEqual({ timeouts: undefined, retry: undefined, breaker: undefined });
    expect(settingsFromEnv({ JOBFIT_TIMEOUT: '2.5', JOBFIT_MAX_RETRIES: '1.9', JOBFIT_BREAKER_SECONDS: '0' })).toEqual({
      timeouts: { headersMs: 2500, bodyMs: 2500 },
      retry: { maxRetries: 1, maxRateLimitWaits: 0 },
      breaker: { windowMs: Number.POSITIVE_INFINITY, minFailures: 4 },
    });
  });

  it('refuses a value that is not a non-negative number, naming it', () => {
    expect(() => settingsFromEnv({ JOBFIT_TIMEOUT: 'soon' })).toThrow(new UsageError('JOBFIT_TIMEOUT must be a non-negative number, got "soon".'));
    expect(() => settingsFromEnv({ JOBFIT_MAX_RETRIES: '-1' })).toThrow(UsageError);
  });
});

describe('login honours JOBFIT_TIMEOUT', () => {
  let server: FaultServer;
  let base: string;
  const dirs: string[] = [];
  beforeAll(async () => {
    // Answers the healthcheck (when asked to) and never anything else.
    server = await startFaultServer({ anyKey: true });
    server.faults.push((req, res) => {
      if (req.url === '/v2/healthcheck') return send(res, 200, { status: 'ok', version: 'v2' });
      // Anything else: the request is read and never answered.
      return true;
    });
    base = server.url;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  function loginCtx() {
    const dir = mkdtempSync(join(tmpdir(), 'jobfit-login-timeout-'));
    dirs.push(dir);
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir, JOBFIT_API_KEY: 'sk_test_timeouttimeout1234a1b2', JOBFIT_TIMEOUT: '1', JOBFIT_MAX_RETRIES: '0' } });
    return createContext(m.io, { color: false, quiet: false, verbose: false });
  }

  async function timed(p: Promise<unknown>): Promise<{ err: unknown; seconds: number }> {
    const t0 = Date.now();
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    return { err, seconds: (Date.now() - t0) / 1000 };
  }

  it('the key check (GET /accounts) gives up after JOBFIT_TIMEOUT, not the default 30 s', async () => {
    const ctx = loginCtx();
    const { err, seconds } = await timed(login.runLogin({ baseUrl: `${base}/v2` }, ctx));
    expect(err).toBeInstanceOf(JobfitError);
    expect((err as Error).message).toContain('no answer within 1s');
    expect((err as Error).message).toContain('/accounts');
    expect(seconds).toBeLessThan(6);
    await ctx.close();
  });

  it('the base URL check (GET /healthcheck) gives up after JOBFIT_TIMEOUT, not its own 10 s', async () => {
    const ctx = loginCtx();
    const { err, seconds } = await timed(login.runLogin({ baseUrl: `${base}/never/v2` }, ctx));
    expect(err).toBeInstanceOf(JobfitError);
    expect((err as Error).message).toMatch(/^Nothing at .*\/never\/v2 answered: .*no answer within 1s/);
    expect(seconds).toBeLessThan(6);
    await ctx.close();
  });
});
