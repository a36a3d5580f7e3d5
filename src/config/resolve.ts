/**
 * Which server and which key a command talks to.
 * Precedence: flag > environment > profile. A `--profile` flag beats
 * JOBFIT_API_KEY (the person asked for that profile); JOBFIT_PROFILE does not.
 * With nothing configured at all, the caller runs the embedded stub.
 */
import { AuthError, ModeMismatchError, UsageError } from '../core/errors.js';
import { normalizeBaseUrl } from './keys.js';
import { maskKey, modeOfKey } from './mask.js';
import type { ConfigView } from './read.js';
import type { KeyMode, Profile } from './types.js';

export type ConnectionSource = 'env' | `profile:${string}` | 'embedded-stub' | 'flag';

export interface ResolvedConnection {
  embedded?: false;
  baseUrl: string;
  /** Absent only when a base URL was given without any key (e.g. for `health`). */
  apiKey?: string;
  mode?: KeyMode;
  /** Where the key came from. */
  source: ConnectionSource;
  profileName?: string;
  /** The profile's key is in the OS keyring: the caller reads it (apiKey is then absent). */
  keyring?: { profile: string; mode: KeyMode; masked: string };
}

export interface EmbeddedConnection {
  embedded: true;
  /** `--live`/`--test` as given; the embedded stub uses the live key otherwise. */
  mode?: KeyMode;
  /** A profile that holds only settings (invite defaults), no server: its defaults still apply. */
  profileName?: string;
}

export type Resolution = ResolvedConnection | EmbeddedConnection;

export interface ResolveInput {
  globals: { profile?: string; mode?: KeyMode; baseUrl?: string };
  env: Record<string, string | undefined>;
  config: ConfigView;
}

const LOGIN_HINT = 'run `jobfit login` or set JOBFIT_API_KEY';

function pickProfileName(input: ResolveInput): { name?: string; explicit: boolean } {
  const { globals, env, config } = input;
  if (globals.profile) return { name: globals.profile, explicit: true };
  if (env.JOBFIT_PROFILE) return { name: env.JOBFIT_PROFILE, explicit: true };
  const current = config.currentProfileName();
  if (current && config.getProfile(current)) return { name: current, explicit: false };
  const names = config.profileNames();
  if (names.includes('default')) return { name: 'default', explicit: false };
  if (names.length === 1) return { name: names[0], explicit: false };
  if (names.length > 1) {
    throw new UsageError(
      `Several profiles exist (${names.join(', ')}) and none is current.`,
      'pass --profile NAME, set JOBFIT_PROFILE, or run `jobfit config set current_profile NAME`',
    );
  }
  return { explicit: false };
}

function requireProfile(config: ConfigView, name: string): Profile {
  const p = config.getProfile(name);
  if (!p) {
    const names = config.profileNames();
    throw new UsageError(
      `No profile named "${name}".`,
      names.length ? `known profiles: ${names.join(', ')}` : 'run `jobfit login` to create one',
    );
  }
  return p;
}

/**
 * A profile connects somewhere once it has a base URL or a key. One that holds
 * only invite defaults (`config set invite_defaults.created_by …` before any
 * login) is settings for the embedded stub, not a half-made connection.
 */
export function profileConnects(p: Profile): boolean {
  return Boolean(p.base_url || hasKey(p, 'live') || hasKey(p, 'test'));
}

/** The profile's key of a mode, from the file or (masked) from the keyring marker. */
export function storedKey(p: Profile, mode: KeyMode): { key: string; where: 'file' } | { masked: string; where: 'keyring' } | undefined {
  const plain = mode === 'live' ? p.live_key : p.test_key;
  if (plain) return { key: plain, where: 'file' };
  const masked = p.keyring && typeof p.keyring === 'object' ? p.keyring[mode] : undefined;
  return typeof masked === 'string' && masked ? { masked, where: 'keyring' } : undefined;
}

function hasKey(p: Profile, mode: KeyMode): boolean {
  return storedKey(p, mode) !== undefined;
}

function keyOfProfile(p: Profile, name: string, wanted?: KeyMode): { key?: string; masked: string; mode: KeyMode; inKeyring: boolean } {
  // Live is the default everywhere else; a profile with only a test key means test.
  const mode: KeyMode = wanted ?? p.default_mode ?? (hasKey(p, 'test') && !hasKey(p, 'live') ? 'test' : 'live');
  const stored = storedKey(p, mode);
  if (!stored) {
    const what = hasKey(p, 'live') || hasKey(p, 'test') ? `no ${mode} key` : 'no API key';
    throw new AuthError(`Profile "${name}" has ${what}.`, `run \`jobfit login --profile ${name}\` or \`jobfit config set ${mode}_key ...\``);
  }
  if (stored.where === 'keyring') return { masked: stored.masked, mode, inKeyring: true };
  return { key: stored.key, masked: maskKey(stored.key), mode, inKeyring: false };
}

function checkKeyMode(key: string, wanted: KeyMode | undefined, where: string): KeyMode {
  const mode = modeOfKey(key);
  if (!mode) throw new AuthError(`The API key from ${where} (${maskKey(key)}) does not start with sk_live or sk_test.`, LOGIN_HINT);
  if (wanted && wanted !== mode) {
    throw new ModeMismatchError(`--${wanted} was given but the key from ${where} is a ${mode} key (${maskKey(key)}).`);
  }
  return mode;
}

export function resolveConnection(input: ResolveInput): Resolution {
  const { globals, env, config } = input;
  const flagBase = globals.baseUrl ? normalizeBaseUrl(globals.baseUrl) : undefined;
  const envBase = env.JOBFIT_BASE_URL ? normalizeBaseUrl(env.JOBFIT_BASE_URL) : undefined;
  const envKey = env.JOBFIT_API_KEY?.trim() || undefined;

  const { name, explicit } = pickProfileName(input);
  const profile = name ? (explicit ? requireProfile(config, name) : config.getProfile(name)) : undefined;

  // The env key wins over a profile picked implicitly or by JOBFIT_PROFILE, not over --profile.
  if (envKey && !globals.profile) {
    const mode = checkKeyMode(envKey, globals.mode, 'JOBFIT_API_KEY');
    const baseUrl = flagBase ?? envBase ?? profile?.base_url;
    if (!baseUrl) {
      throw new UsageError('JOBFIT_API_KEY is set but no base URL is known.', 'set JOBFIT_BASE_URL or pass --base-url https://host/v2');
    }
    return { baseUrl, apiKey: envKey, mode, source: 'env', profileName: profile ? name : undefined };
  }

  if (profile && name && (profileConnects(profile) || flagBase || envBase)) {
    const { key, masked, mode, inKeyring } = keyOfProfile(profile, name, globals.mode);
    if (key) checkKeyMode(key, mode, `profile "${name}"`);
    const baseUrl = flagBase ?? envBase ?? profile.base_url;
    if (!baseUrl) {
      throw new UsageError(`Profile "${name}" has no base URL.`, `run \`jobfit config set base_url https://host/v2 --profile ${name}\``);
    }
    if (inKeyring) return { baseUrl, mode, source: `profile:${name}`, profileName: name, keyring: { profile: name, mode, masked } };
    return { baseUrl, apiKey: key, mode, source: `profile:${name}`, profileName: name };
  }

  // A server but no key: keyless routes (healthcheck) work; others get the API's key error.
  if (flagBase || envBase) {
    return { baseUrl: (flagBase ?? envBase)!, source: flagBase ? 'flag' : 'env' };
  }
  return profile && name ? { embedded: true, mode: globals.mode, profileName: name } : { embedded: true, mode: globals.mode };
}
