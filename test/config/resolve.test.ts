import { describe, expect, it } from 'vitest';
import { AuthError, ExitCode, UsageError } from '../../src/core/errors.js';
import { viewOf } from '../../src/config/read.js';
import { type ResolveInput, resolveConnection } from '../../src/config/resolve.js';
import type { ConfigData } from '../../src/config/types.js';

const LIVE = 'sk_live_0123456789abcdefa1b2';
const TEST = 'sk_test_0123456789abcdefc3d4';
const ENV_LIVE = 'sk_live_envenvenvenvenv9999';

const twoProfiles: ConfigData = {
  current_profile: 'work',
  profiles: {
    work: { base_url: 'https://work.example.com/v2', live_key: LIVE, test_key: TEST },
    sandbox: { base_url: 'https://sandbox.example.com/v2', test_key: TEST, default_mode: 'test' },
  },
};

function input(data: ConfigData, env: Record<string, string> = {}, globals: ResolveInput['globals'] = {}): ResolveInput {
  return { globals, env, config: viewOf(data, '/x/config.json') };
}

describe('resolveConnection', () => {
  it('with nothing configured asks for the embedded stub', () => {
    expect(resolveConnection(input({}))).toEqual({ embedded: true, mode: undefined });
    expect(resolveConnection(input({}, {}, { mode: 'test' }))).toEqual({ embedded: true, mode: 'test' });
  });

  it('uses the current profile, its default mode, and the mode of the key', () => {
    const r = resolveConnection(input(twoProfiles));
    expect(r).toEqual({ baseUrl: 'https://work.example.com/v2', apiKey: LIVE, mode: 'live', source: 'profile:work', profileName: 'work' });
    const t = resolveConnection(input(twoProfiles, {}, { mode: 'test' }));
    expect(t).toMatchObject({ apiKey: TEST, mode: 'test', source: 'profile:work' });
  });

  it('flag > env > profile for the profile name', () => {
    expect(resolveConnection(input(twoProfiles, { JOBFIT_PROFILE: 'sandbox' }))).toMatchObject({ source: 'profile:sandbox', mode: 'test' });
    expect(resolveConnection(input(twoProfiles, { JOBFIT_PROFILE: 'sandbox' }, { profile: 'work' }))).toMatchObject({ source: 'profile:work' });
  });

  it('env key beats the profile key, but not an explicit --profile', () => {
    const env = { JOBFIT_API_KEY: ENV_LIVE };
    expect(resolveConnection(input(twoProfiles, env))).toMatchObject({ apiKey: ENV_LIVE, source: 'env', baseUrl: 'https://work.example.com/v2' });
    expect(resolveConnection(input(twoProfiles, env, { profile: 'sandbox' }))).toMatchObject({ apiKey: TEST, source: 'profile:sandbox' });
  });

  it('flag > env > profile for the base URL', () => {
    const env = { JOBFIT_BASE_URL: 'https://env.example.com/v2/' };
    expect(resolveConnection(input(twoProfiles, env))).toMatchObject({ baseUrl: 'https://env.example.com/v2' });
    expect(resolveConnection(input(twoProfiles, env, { baseUrl: 'https://flag.example.com/v2' }))).toMatchObject({
      baseUrl: 'https://flag.example.com/v2',
    });
  });

  it('env key and base URL alone are enough', () => {
    const r = resolveConnection(input({}, { JOBFIT_API_KEY: TEST, JOBFIT_BASE_URL: 'http://127.0.0.1:9/v2' }));
    expect(r).toEqual({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: TEST, mode: 'test', source: 'env', profileName: undefined });
  });

  it('a base URL without any key is a keyless connection, not the stub', () => {
    expect(resolveConnection(input({}, {}, { baseUrl: 'https://x.example.com/v2' }))).toEqual({ baseUrl: 'https://x.example.com/v2', source: 'flag' });
  });

  it('explains what is wrong, with the right exit code', () => {
    expect(() => resolveConnection(input(twoProfiles, {}, { profile: 'nope' }))).toThrow(UsageError);
    expect(() => resolveConnection(input({}, { JOBFIT_API_KEY: TEST }))).toThrow(/no base URL/);
    let err: unknown;
    try {
      resolveConnection(input(twoProfiles, {}, { profile: 'sandbox', mode: 'live' }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).exitCode).toBe(ExitCode.AUTH);
    expect(() => resolveConnection(input({}, { JOBFIT_API_KEY: TEST, JOBFIT_BASE_URL: 'https://x/v2' }, { mode: 'live' }))).toThrow(
      /--live was given but the key from JOBFIT_API_KEY is a test key \(sk_test_…c3d4\)/,
    );
    expect(() => resolveConnection(input({ profiles: { a: { live_key: LIVE }, b: { live_key: LIVE } } }))).toThrow(/Several profiles/);
  });

  it('never puts a whole key in an error message', () => {
    const bad = 'pk_0123456789abcdef0123';
    try {
      resolveConnection(input({}, { JOBFIT_API_KEY: bad, JOBFIT_BASE_URL: 'https://x/v2' }));
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(bad);
    }
  });
});
