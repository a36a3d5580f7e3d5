import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { CONFIG_KEY_NAMES } from '../../src/config/keys.js';
import { maskKey, redactKey } from '../../src/config/mask.js';
import { configDir, configFilePath } from '../../src/config/paths.js';
import { readConfigView } from '../../src/config/read.js';
import { ConfigStore } from '../../src/config/store.js';

const LIVE = 'sk_live_0123456789abcdefa1b2';
const TEST = 'sk_test_0123456789abcdefc3d4';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-config-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('maskKey', () => {
  it('keeps the prefix and the last 4 characters', () => {
    expect(maskKey(LIVE)).toBe('sk_live_…a1b2');
    expect(maskKey(TEST)).toBe('sk_test_…c3d4');
  });
  it('shows no tail of a short secret and handles missing keys', () => {
    expect(maskKey('sk_live_abc')).toBe('sk_live_…');
    expect(maskKey('short')).toBe('…');
    expect(maskKey(undefined)).toBe('(none)');
  });
  it('redactKey replaces every occurrence', () => {
    expect(redactKey(`a ${LIVE} b ${LIVE}`, LIVE)).toBe('a sk_live_…a1b2 b sk_live_…a1b2');
  });
});

describe('config paths', () => {
  it('uses JOBFIT_CONFIG_DIR when set', () => {
    expect(configDir({ JOBFIT_CONFIG_DIR: dir })).toBe(dir);
    expect(configFilePath({ JOBFIT_CONFIG_DIR: dir })).toBe(join(dir, 'config.json'));
  });
  it('is ~/.config/jobfit (XDG_CONFIG_HOME), not conf\'s jobfit-nodejs (issue 44)', () => {
    const xdg = join(dir, 'xdg-fresh');
    expect(configFilePath({ XDG_CONFIG_HOME: xdg }, 'linux')).toBe(join(xdg, 'jobfit', 'config.json'));
    expect(configDir({ APPDATA: join(dir, 'appdata') }, 'win32')).toBe(join(dir, 'appdata', 'jobfit', 'Config'));
  });

  it('moves an existing jobfit-nodejs folder to jobfit once, with everything in it (keys, the stub data)', () => {
    const xdg = join(dir, 'xdg-move');
    const old = join(xdg, 'jobfit-nodejs');
    mkdirSync(join(old, 'stub'), { recursive: true, mode: 0o700 });
    writeFileSync(join(old, 'config.json'), JSON.stringify({ profiles: { default: { live_key: LIVE } } }), { mode: 0o600 });
    writeFileSync(join(old, 'stub', 'stub.db'), 'db');
    const got = configDir({ XDG_CONFIG_HOME: xdg }, 'linux');
    expect(got).toBe(join(xdg, 'jobfit'));
    expect(existsSync(old)).toBe(false);
    expect(JSON.parse(readFileSync(join(got, 'config.json'), 'utf8')).profiles.default.live_key).toBe(LIVE);
    expect(readFileSync(join(got, 'stub', 'stub.db'), 'utf8')).toBe('db');
    expect(modeOf(join(got, 'config.json'))).toBe(0o600);
  });

  it('both folders: the new one, unless only the old one holds a config (a key is never lost)', () => {
    const a = join(dir, 'xdg-both-a');
    mkdirSync(join(a, 'jobfit'), { recursive: true });
    mkdirSync(join(a, 'jobfit-nodejs'), { recursive: true });
    writeFileSync(join(a, 'jobfit-nodejs', 'config.json'), '{}');
    expect(configDir({ XDG_CONFIG_HOME: a }, 'linux')).toBe(join(a, 'jobfit-nodejs'));
    const b = join(dir, 'xdg-both-b');
    mkdirSync(join(b, 'jobfit'), { recursive: true });
    mkdirSync(join(b, 'jobfit-nodejs'), { recursive: true });
    writeFileSync(join(b, 'jobfit', 'config.json'), '{}');
    writeFileSync(join(b, 'jobfit-nodejs', 'config.json'), '{}');
    expect(configDir({ XDG_CONFIG_HOME: b }, 'linux')).toBe(join(b, 'jobfit'));
  });
});

describe('ConfigStore', () => {
  it('writes the file with mode 0600 and fixes a looser mode on the next write', () => {
    const store = new ConfigStore({ dir });
    store.set('base_url', 'https://api.example.com/v2/');
    expect(modeOf(store.path)).toBe(0o600);
    chmodSync(store.path, 0o644);
    store.set('live_key', LIVE);
    expect(modeOf(store.path)).toBe(0o600);
    // Opening an existing file others can read tightens it as well.
    chmodSync(store.path, 0o644);
    new ConfigStore({ dir });
    expect(modeOf(store.path)).toBe(0o600);
    // One others can write is refused, untouched (issue 26): its base URL may already be theirs.
    chmodSync(store.path, 0o666);
    expect(() => new ConfigStore({ dir })).toThrow(/can be changed by anyone on this machine \(mode 666\): it is not used\. Run `chmod 600 /);
    expect(modeOf(store.path)).toBe(0o666);
  });

  it('refuses unknown keys and lists the valid ones', () => {
    const store = new ConfigStore({ dir });
    let err: unknown;
    try {
      store.set('api_key', 'x');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain('Unknown config key "api_key"');
    for (const k of CONFIG_KEY_NAMES) expect((err as UsageError).hint).toContain(k);
    expect(() => store.get('nope')).toThrow(UsageError);
    expect(() => store.unset('nope')).toThrow(UsageError);
  });

  it('validates values', () => {
    const store = new ConfigStore({ dir });
    expect(() => store.set('live_key', TEST)).toThrow(/sk_live/);
    expect(() => store.set('default_mode', 'prod')).toThrow(/live or test/);
    expect(() => store.set('invite_defaults.team_id', 'abc')).toThrow(/positive integer/);
    expect(() => store.set('base_url', 'ftp://x')).toThrow(/http/);
    store.set('invite_defaults.assessments', '6, 8');
    expect(store.get('invite_defaults.assessments')).toEqual([6, 8]);
  });

  it('get/set/unset/list on the current profile, masking keys in list', () => {
    const store = new ConfigStore({ dir });
    store.set('base_url', 'https://api.example.com/v2/');
    store.set('live_key', LIVE);
    store.set('test_key', TEST, 'staging');
    store.set('invite_defaults.team_id', '12');
    expect(store.currentProfileName()).toBe('default');
    expect(store.get('base_url')).toBe('https://api.example.com/v2');
    expect(store.get('live_key')).toBe(LIVE);
    expect(store.getDisplay('live_key')).toBe('sk_live_…a1b2');
    expect(store.profileNames()).toEqual(['default', 'staging']);

    const list = store.list();
    const text = JSON.stringify(list);
    expect(text).not.toContain(LIVE);
    expect(text).not.toContain(TEST);
    expect(list).toContainEqual({ key: 'current_profile', value: 'default' });
    expect(list).toContainEqual({ profile: 'default', key: 'live_key', value: 'sk_live_…a1b2', stored_in: store.path });
    expect(list).toContainEqual({ profile: 'staging', key: 'test_key', value: 'sk_test_…c3d4', stored_in: store.path });
    expect(store.list('staging')).toEqual([{ profile: 'staging', key: 'test_key', value: 'sk_test_…c3d4', stored_in: store.path }]);

    expect(store.unset('invite_defaults.team_id')).toBe(true);
    expect(store.unset('invite_defaults.team_id')).toBe(false);
    expect(store.getProfile('default')).toEqual({ base_url: 'https://api.example.com/v2', live_key: LIVE });
    // The file on disk holds what the light reader sees.
    const view = readConfigView({ JOBFIT_CONFIG_DIR: dir });
    expect(view.getProfile('staging')).toEqual({ test_key: TEST });
  });

  it('profile CRUD keeps current_profile sensible', () => {
    const store = new ConfigStore({ dir });
    store.setProfile('work', { base_url: 'https://a/v2', live_key: LIVE });
    expect(store.currentProfileName()).toBe('work');
    store.updateProfile('home', { base_url: 'https://b/v2', test_key: TEST, default_mode: 'test' });
    expect(store.currentProfileName()).toBe('work');
    store.setCurrentProfile('home');
    expect(store.deleteProfile('home')).toBe(true);
    expect(store.currentProfileName()).toBe('work');
    expect(store.deleteProfile('home')).toBe(false);
    expect(() => store.setProfile('bad name', {})).toThrow(UsageError);
    expect(store.deleteProfile('work')).toBe(true);
    expect(store.currentProfileName()).toBeUndefined();
  });

  it('every write is a locked read-modify-write of the file as it is now', () => {
    const a = new ConfigStore({ dir });
    const b = new ConfigStore({ dir });
    a.set('base_url', 'https://a.example/v2', 'a');
    // b was opened before a wrote: it starts from the file, not from what it saw.
    b.set('base_url', 'https://b.example/v2', 'b');
    b.updateProfile('c', { default_mode: 'test' }, { makeCurrent: true });
    expect(readConfigView({ JOBFIT_CONFIG_DIR: dir }).profileNames()).toEqual(['a', 'b', 'c']);
    expect(a.currentProfileName()).toBe('c');
    // An unset that changes nothing writes nothing.
    const before = statSync(a.path).mtimeMs;
    expect(a.unset('live_key', 'a')).toBe(false);
    expect(statSync(a.path).mtimeMs).toBe(before);
    expect(existsSync(`${a.path}.lock`)).toBe(false);
  });

  it('takes over the lock of a run that died, and refuses a bad profile name before locking', () => {
    const store = new ConfigStore({ dir });
    // A pid that is not running on this host.
    writeFileSync(`${store.path}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), started: '2020-01-01T00:00:00.000Z' }));
    store.set('default_mode', 'test', 'crashed');
    expect(store.getProfile('crashed')).toEqual({ default_mode: 'test' });
    expect(existsSync(`${store.path}.lock`)).toBe(false);
    expect(() => store.set('default_mode', 'test', 'bad name')).toThrow(UsageError);
  });

  it('reports a corrupt file in one sentence', () => {
    writeFileSync(join(dir, 'config.json'), '{nope');
    expect(() => new ConfigStore({ dir })).toThrow(/not valid JSON/);
    expect(() => readConfigView({ JOBFIT_CONFIG_DIR: dir })).toThrow(/not valid JSON/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{nope');
  });
});
