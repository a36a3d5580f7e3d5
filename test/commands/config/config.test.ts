/**
 * `jobfit config` list, get, set, unset and path: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import * as configGet from '../../../src/commands/config/get.js';
import * as configList from '../../../src/commands/config/list.js';
import * as configPath from '../../../src/commands/config/path.js';
import * as configSet from '../../../src/commands/config/set.js';
import * as configUnset from '../../../src/commands/config/unset.js';
import { fakeContext, type StubEnv, stubForTests } from '../stub-env.js';

let s: StubEnv;
stubForTests((started) => {
  s = started;
});

describe('config', () => {
  it('set, get (masked), list, unset, path', async () => {
    const configDir = s.tmp();
    const c = (o: Partial<Parameters<typeof fakeContext>[0]> = {}) => fakeContext({ configDir, ...o });
    await configSet.default.run({ key: 'base_url', value: 'https://api.example.com/v2/' }, c({ globals: { profile: 'work' } }).ctx);
    const w = c({ globals: { profile: 'work' } });
    await configSet.default.run({ key: 'test_key', value: 'sk_test_abcdefghijklmnop1234' }, w.ctx);
    expect(w.stderr()).toContain('shell history');
    expect(w.stderr()).not.toContain('abcdefghijklmnop1234');
    const g = c({ globals: { profile: 'work' } });
    await configGet.default.run({ key: 'test_key' }, g.ctx);
    expect(g.stdout()).toBe('sk_test_…1234\n');
    const l = c({ globals: { output: 'json' } });
    await configList.default.run({}, l.ctx);
    expect(JSON.parse(l.stdout())).toEqual(
      expect.arrayContaining([
        { profile: 'work', key: 'base_url', value: 'https://api.example.com/v2' },
        { profile: 'work', key: 'test_key', value: 'sk_test_…1234', stored_in: expect.stringMatching(/config\.json$/) },
      ]),
    );
    await configUnset.default.run({ key: 'base_url' }, c({ globals: { profile: 'work' } }).ctx);
    await expect(configGet.default.run({ key: 'base_url' }, c({ globals: { profile: 'work' } }).ctx)).rejects.toThrow('base_url is not set in profile "work".');
    await expect(configGet.default.run({ key: 'colour' }, c().ctx)).rejects.toBeInstanceOf(UsageError);
    const p = c();
    await configPath.default.run({}, p.ctx);
    expect(p.stdout()).toBe(`${join(configDir, 'config.json')}\n`);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('set KEY - reads the value from stdin', async () => {
    const configDir = s.tmp();
    await configSet.default.run({ key: 'live_key', value: '-' }, fakeContext({ configDir, stdin: 'sk_live_zzzzzzzzzzzzzzzz9876\n' }).ctx);
    const g = fakeContext({ configDir });
    await configGet.default.run({ key: 'live_key' }, g.ctx);
    expect(g.stdout()).toBe('sk_live_…9876\n');
  });

});
