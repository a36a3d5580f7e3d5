/**
 * `jobfit login` driven as a person would, through a pseudo-terminal: the
 * built binary asks, the keys are typed, each is checked against the stub.
 * The typed keys never appear in what the terminal shows, and the config file
 * is readable by its owner only (0600 on Linux and macOS; Windows has no modes,
 * and there the keys go to the Credential Manager: docs/security.md).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { keys, spawnPty } from '../helpers/pty.js';
import { type BuiltCli, buildCli, spawnedOnWindows } from './built.js';

let cli: BuiltCli;
let stub: StartedStub;
let tmp: string;

beforeAll(async () => {
  cli = buildCli();
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-login-'));
  stub = await startStub({ dataDir: join(tmp, 'stub') });
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * Each key is in the file whole, or (where a keyring answered: the Credential
 * Manager on Windows) not in it at all: only its masked form is.
 */
function expectKeptRight(profile: Record<string, unknown>, expected: Record<string, string>): void {
  const text = JSON.stringify(profile);
  for (const [name, key] of Object.entries(expected)) {
    if (profile[name] !== undefined) {
      expect(profile[name]).toBe(key);
    } else {
      expect(text).not.toContain(key.slice(8));
      expect(text).toContain(`${key.slice(0, 8)}…${key.slice(-4)}`);
    }
  }
}

describe('jobfit login on a terminal', () => {
  it('asks, masks the keys, verifies them and saves the profile 0600', async () => {
    const configDir = join(tmp, 'config');
    const { live_key: live, test_key: test, display_name: account } = stub.keys[0];
    const term = spawnPty(cli.command, [...cli.prefix, 'login'], { env: { JOBFIT_CONFIG_DIR: configDir, HOME: join(tmp, 'home'), PATH: cli.path } });
    try {
      await term.expect('Profile name');
      term.line('work');
      await term.expect('Base URL');
      term.line(stub.url);
      await term.expect('Live key');
      term.line(live);
      await term.expect(`✓ live key`);
      await term.expect('Test key');
      term.line(test);
      await term.expect('✓ test key');
      await term.expect('Mode to use');
      // The choices start at the default (live): one down picks test.
      term.send(keys.down);
      term.send(keys.enter);
      const { code, output } = await term.wait(20_000);
      expect(code, output).toBe(0);
      expect(output).toContain(`account ${account}`);
      expect(output).toContain('Saved profile "work"');
      // Neither key appears whole anywhere the terminal received, escape codes included.
      for (const k of [live, test]) {
        expect(term.raw()).not.toContain(k);
        expect(term.raw()).not.toContain(k.slice(8, 24));
      }
    } finally {
      term.kill();
    }
    const file = join(configDir, 'config.json');
    if (!spawnedOnWindows) expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.current_profile).toBe('work');
    expect(saved.profiles.work).toMatchObject({ base_url: stub.url, default_mode: 'test' });
    expectKeptRight(saved.profiles.work, { live_key: live, test_key: test });

    // The saved profile is what the next command uses.
    const who = await cli.runAsync(['whoami', '-o', 'json'], { env: { JOBFIT_CONFIG_DIR: configDir } });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ profile: 'work', mode: 'test', base_url: stub.url });
    expect(who.stdout + who.stderr).not.toContain(test);
  });

  it('a wrong key is refused and asked again', async () => {
    const configDir = join(tmp, 'config2');
    const { test_key: test } = stub.keys[0];
    const term = spawnPty(cli.command, [...cli.prefix, 'login', '--profile', 'p2', '--base-url', stub.url], {
      env: { JOBFIT_CONFIG_DIR: configDir, HOME: join(tmp, 'home'), PATH: cli.path },
    });
    try {
      await term.expect('Live key');
      term.line('');
      await term.expect('Test key');
      term.line('sk_test_wrongwrongwrongwrong');
      await term.expect('refused the test key');
      await term.expect('Test key');
      term.line(test);
      const { code, output } = await term.wait(20_000);
      expect(code, output).toBe(0);
      expect(term.raw()).not.toContain('wrongwrongwrongwrong');
      expect(term.raw()).not.toContain(test);
    } finally {
      term.kill();
    }
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(saved.profiles.p2).toMatchObject({ default_mode: 'test' });
    expectKeptRight(saved.profiles.p2, { test_key: test });
    expect(saved.profiles.p2.live_key).toBeUndefined();
  });
});

describe('jobfit login without a terminal', () => {
  it('reads the key from stdin and never prompts', async () => {
    const configDir = join(tmp, 'config3');
    const { live_key: live } = stub.keys[0];
    const r = await cli.runAsync(['login', '--profile', 'ci', '--base-url', stub.url], { env: { JOBFIT_CONFIG_DIR: configDir }, input: `${live}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain(live);
    if (!spawnedOnWindows) expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});
