/**
 * `jobfit login` and `jobfit logout`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../../src/core/errors.js';
import * as configGet from '../../../src/commands/config/get.js';
import * as configList from '../../../src/commands/config/list.js';
import * as login from '../../../src/commands/login/login.js';
import * as logout from '../../../src/commands/logout/logout.js';
import * as whoami from '../../../src/commands/whoami/show.js';
import { fakeContext, scriptedPrompter, type StubEnv, stubForTests } from '../stub-env.js';

let s: StubEnv;
stubForTests((started) => {
  s = started;
});

describe('login and logout', () => {
  it('without a terminal: the key from stdin, verified, saved 0600, never shown whole', async () => {
    const configDir = s.tmp();
    const f = fakeContext({ configDir, stdin: `${s.test}\n`, globals: { profile: 'ci' } });
    await login.runLogin({ profile: 'ci', baseUrl: s.stub.url }, f.ctx);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toContain(`belongs to account ${s.stub.keys[0].display_name}`);
    expect(f.stderr()).not.toContain(s.test);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    // The saved profile now drives commands.
    const w = fakeContext({ configDir, globals: { output: 'json' } });
    await whoami.default.run({}, w.ctx);
    expect(JSON.parse(w.stdout())).toMatchObject({ mode: 'test', profile: 'ci', base_url: s.stub.url });
    await w.ctx.close();
    await logout.default.run({}, fakeContext({ configDir }).ctx);
    const l = fakeContext({ configDir, globals: { output: 'json' } });
    await configList.default.run({}, l.ctx);
    expect(JSON.parse(l.stdout())).toEqual([]);
  });

  it('without a terminal: JOBFIT_API_KEY, and a refused key is an auth error (exit 4)', async () => {
    const configDir = s.tmp();
    const bad = fakeContext({ configDir, env: { JOBFIT_API_KEY: 'sk_live_notarealkey000000000' } });
    const err = await login.runLogin({ baseUrl: s.stub.url }, bad.ctx).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.exitCode).toBe(4);
    expect(err.message).not.toContain('notarealkey000000000');
    const none = fakeContext({ configDir });
    await expect(login.runLogin({ baseUrl: s.stub.url }, none.ctx)).rejects.toThrow('No API key given and no terminal to ask on.');
  });

  it('on a terminal: asks, verifies both keys, saves the profile', async () => {
    const configDir = s.tmp();
    const prompter = scriptedPrompter([
      [/Profile name/, 'work'],
      [/Base URL/, s.stub.url],
      [/Live key/, s.live],
      [/Test key/, s.test],
      [/Mode to use/, 'test'],
    ]);
    const f = fakeContext({ configDir, tty: true, prompter });
    await login.runLogin({}, f.ctx);
    expect(prompter.asked).toHaveLength(5);
    expect(f.stderr()).toMatch(/✓ live key sk_live_…\w+: account /);
    expect(f.stderr()).not.toContain(s.live);
    const g = fakeContext({ configDir, globals: { profile: 'work' } });
    await configGet.default.run({ key: 'default_mode' }, g.ctx);
    expect(g.stdout()).toBe('test\n');
  });

});
