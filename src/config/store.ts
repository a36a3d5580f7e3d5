/**
 * The config store: profiles on `conf`, in a file only the owner can read.
 * Load this module lazily (ctx.config()); read-only paths use read.ts.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Conf from 'conf';
import { JobfitError, UsageError } from '../core/errors.js';
import { conditionText, diskConditionOf } from '../core/disk.js';
import { withLockSync } from '../core/lock.js';
import { CONFIG_KEYS, keySpec } from './keys.js';
import { hideUrlPasswords, maskKey } from './mask.js';
import { CONFIG_FILE_NAME, configDir, PROJECT_NAME, unsafeConfigProblem } from './paths.js';
import { parseConfigText } from './read.js';
import type { ConfigData, Profile } from './types.js';

export const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface ConfigEntry {
  /** Set for profile keys; absent for top-level keys. */
  profile?: string;
  key: string;
  /** As shown to a person: keys masked, lists comma-joined. */
  value: string;
  /** For an API key: where it is kept, `OS keyring` or the config file's path. */
  stored_in?: string;
}

export interface ConfigStoreOptions {
  /** Overrides JOBFIT_CONFIG_DIR and the platform default (tests). */
  dir?: string;
  env?: Record<string, string | undefined>;
}

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`"${name}" is not a valid profile name.`, 'use letters, digits, dot, dash or underscore (up to 64 characters)');
  }
  return name;
}

function getPath(obj: Record<string, unknown> | undefined, dotted: string): unknown {
  let cur: unknown = obj;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/** Deletes the leaf and any parent object it leaves empty. */
function unsetPath(obj: Record<string, unknown>, dotted: string): boolean {
  const parts = dotted.split('.');
  const parents: Array<Record<string, unknown>> = [];
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object') return false;
    parents.push(cur);
    cur = next as Record<string, unknown>;
  }
  const leaf = parts[parts.length - 1];
  if (!Object.hasOwn(cur, leaf)) return false;
  delete cur[leaf];
  for (let i = parents.length - 1; i >= 0; i--) {
    const child = parents[i][parts[i]] as Record<string, unknown>;
    if (Object.keys(child).length === 0) delete parents[i][parts[i]];
  }
  return true;
}

/** A setting as shown (list, get): a key masked, a password in a URL (base_url) as `***`. */
function display(key: string, value: unknown): string {
  if (keySpec(key).secret && typeof value === 'string') return maskKey(value);
  return hideUrlPasswords(Array.isArray(value) ? value.join(',') : String(value));
}

/** A write under the config folder failed: name the file and, when it is the disk, why. */
function writeError(err: unknown, dir: string, what: string): JobfitError {
  const condition = diskConditionOf(err, dir);
  const reason = condition ? `the folder ${conditionText(condition)}` : (err as Error).message;
  return new JobfitError(`${what}: ${reason}.`, {
    cause: err,
    hint: condition === 'full' ? 'free some space and run the command again' : 'set JOBFIT_CONFIG_DIR to a folder you can write, or fix this one',
  });
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;
  private readonly conf: Conf<ConfigData>;

  constructor(opts: ConfigStoreOptions = {}) {
    this.dir = opts.dir ?? configDir(opts.env ?? process.env);
    // Never written into another user's file (run as root, `config set` would give them the key).
    const unsafe = unsafeConfigProblem(join(this.dir, CONFIG_FILE_NAME));
    if (unsafe) throw new UsageError(unsafe);
    try {
      mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    } catch (err) {
      throw writeError(err, this.dir, `Cannot create the config folder ${this.dir}`);
    }
    try {
      this.conf = new Conf<ConfigData>({
        projectName: PROJECT_NAME,
        cwd: this.dir,
        configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
        configFileMode: FILE_MODE,
        accessPropertiesByDotNotation: false,
        // Our own parse gives a one-sentence error instead of conf's exception.
        deserialize: (text) => parseConfigText(text, `${this.dir}/${CONFIG_FILE_NAME}`),
      });
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`Cannot open the config in ${this.dir}: ${(err as Error).message}`);
    }
    this.path = this.conf.path;
    // A file created by an older version or by hand may be readable by others.
    this.fixMode();
  }

  /** Owner-only read/write; called after every write because an editor or umask may have changed it. */
  private fixMode(): void {
    try {
      const st = statSync(this.path);
      if ((st.mode & 0o777) !== FILE_MODE) chmodSync(this.path, FILE_MODE);
      const dst = statSync(dirname(this.path));
      if ((dst.mode & 0o077) !== 0 && dirname(this.path) === this.dir) chmodSync(this.dir, dst.mode & 0o700);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  data(): ConfigData {
    return structuredClone(this.conf.store);
  }

  /**
   * Read-modify-write of the whole file under `<file>.lock`, so that parallel
   * writers (50 `config set --profile pN` at once) each start from the file as
   * the one before left it: every update is kept. `fn` changes `data` in place
   * and returns false when nothing changed (nothing is written then).
   * Never nest: the lock is not re-entrant.
   */
  private update(fn: (data: ConfigData) => boolean | void): boolean {
    try {
      return withLockSync(
        this.path,
        () => {
          const data = this.data();
          if (fn(data) === false) return false;
          this.conf.store = data;
          this.fixMode();
          return true;
        },
        { command: 'jobfit config' },
      );
    } catch (err) {
      if (err instanceof JobfitError) throw err;
      throw writeError(err, this.dir, `Cannot write the config file ${this.path}`);
    }
  }

  currentProfileName(): string | undefined {
    const c = this.conf.store.current_profile;
    return typeof c === 'string' && c ? c : undefined;
  }

  profileNames(): string[] {
    return Object.keys(this.conf.store.profiles ?? {}).sort();
  }

  getProfile(name: string): Profile | undefined {
    const profiles = this.conf.store.profiles ?? {};
    return Object.hasOwn(profiles, name) ? structuredClone(profiles[name]) : undefined;
  }

  /** The profile that `config get/set` act on: the one asked for, else the current one, else `default`. */
  activeProfileName(override?: string): string {
    return override ?? this.currentProfileName() ?? 'default';
  }

  setCurrentProfile(name: string | undefined): void {
    if (name !== undefined) validateProfileName(name);
    this.update((data) => {
      if (name === undefined) delete data.current_profile;
      else data.current_profile = name;
    });
  }

  /** Replaces a profile; the first profile saved becomes the current one. */
  setProfile(name: string, profile: Profile): void {
    validateProfileName(name);
    this.update((data) => {
      data.profiles = { ...(data.profiles ?? {}), [name]: structuredClone(profile) };
      if (!data.current_profile) data.current_profile = name;
    });
  }

  /**
   * Merges `patch` into a profile (undefined values remove a field), in one
   * locked update; `makeCurrent` also makes it the current profile (login).
   */
  updateProfile(name: string, patch: Partial<Profile>, opts: { makeCurrent?: boolean } = {}): Profile {
    validateProfileName(name);
    let merged: Profile = {};
    this.update((data) => {
      const profiles = data.profiles ?? {};
      merged = { ...(Object.hasOwn(profiles, name) ? profiles[name] : {}), ...structuredClone(patch) };
      for (const k of Object.keys(merged) as Array<keyof Profile>) if (merged[k] === undefined) delete merged[k];
      data.profiles = { ...profiles, [name]: merged };
      if (opts.makeCurrent || !data.current_profile) data.current_profile = name;
    });
    return structuredClone(merged);
  }

  deleteProfile(name: string): boolean {
    return this.update((data) => {
      if (!data.profiles || !Object.hasOwn(data.profiles, name)) return false;
      delete data.profiles[name];
      if (data.current_profile === name) {
        const rest = Object.keys(data.profiles);
        if (rest.length > 0) data.current_profile = rest.sort()[0];
        else delete data.current_profile;
      }
    });
  }

  /** Raw value of a key (not masked: for the program, never for printing). */
  get(key: string, profile?: string): unknown {
    const spec = keySpec(key);
    if (spec.scope === 'global') return getPath(this.conf.store as Record<string, unknown>, key);
    const p = this.getProfile(this.activeProfileName(profile));
    return getPath(p as Record<string, unknown> | undefined, key);
  }

  /** The value of a key as shown to a person (keys masked). */
  getDisplay(key: string, profile?: string): string | undefined {
    const v = this.get(key, profile);
    return v === undefined ? undefined : display(key, v);
  }

  /** Parses and stores a value typed by a person; unknown keys and bad values throw UsageError. */
  set(key: string, value: string, profile?: string): void {
    const spec = keySpec(key);
    const parsed = spec.parse(value);
    if (profile !== undefined) validateProfileName(profile);
    this.update((data) => {
      if (spec.scope === 'global') {
        setPath(data as Record<string, unknown>, key, parsed);
        return;
      }
      // The current profile as the file says now, under the lock.
      const current = typeof data.current_profile === 'string' && data.current_profile ? data.current_profile : undefined;
      const name = validateProfileName(profile ?? current ?? 'default');
      data.profiles ??= {};
      data.profiles[name] ??= {};
      setPath(data.profiles[name] as Record<string, unknown>, key, parsed);
      if (!data.current_profile) data.current_profile = name;
    });
  }

  unset(key: string, profile?: string): boolean {
    const spec = keySpec(key);
    return this.update((data) => {
      if (spec.scope === 'global') return unsetPath(data as Record<string, unknown>, key);
      const current = typeof data.current_profile === 'string' && data.current_profile ? data.current_profile : undefined;
      const p = data.profiles?.[profile ?? current ?? 'default'];
      return p ? unsetPath(p as Record<string, unknown>, key) : false;
    });
  }

  /** Every set value, keys masked: of one profile when given, else the top level and all profiles. */
  list(profile?: string): ConfigEntry[] {
    const out: ConfigEntry[] = [];
    const data = this.conf.store;
    if (profile === undefined) {
      for (const spec of CONFIG_KEYS) {
        if (spec.scope !== 'global') continue;
        const v = getPath(data as Record<string, unknown>, spec.name);
        if (v !== undefined) out.push({ key: spec.name, value: display(spec.name, v) });
      }
    }
    const names = profile === undefined ? this.profileNames() : [profile];
    for (const name of names) {
      const p = this.getProfile(name);
      if (!p) continue;
      for (const spec of CONFIG_KEYS) {
        if (spec.scope !== 'profile') continue;
        const v = getPath(p as Record<string, unknown>, spec.name);
        if (v !== undefined) out.push({ profile: name, key: spec.name, value: display(spec.name, v), ...(spec.secret ? { stored_in: this.path } : {}) });
        else if (spec.secret) {
          // A key in the OS keyring: the file holds its masked form only.
          const masked = p.keyring?.[spec.name === 'live_key' ? 'live' : 'test'];
          if (typeof masked === 'string') out.push({ profile: name, key: spec.name, value: masked, stored_in: 'OS keyring' });
        }
      }
    }
    return out;
  }
}
