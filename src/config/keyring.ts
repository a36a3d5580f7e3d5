/**
 * API keys in the OS keyring: macOS Keychain, Windows Credential Manager, or
 * the Secret Service on Linux (gnome-keyring, KWallet, KeePassXC), through
 * @napi-rs/keyring (prebuilt binaries, no install script).
 *
 * Every call runs in a child process that is killed after 3 seconds: a D-Bus
 * call that never answers blocks the native library for minutes (libdbus's
 * own timeout), and a thread blocked in native code could not be abandoned
 * inside this process. On Linux the entry is pinned to the Secret Service: the
 * library would otherwise fall back to the kernel keyutils store, which keeps
 * keys in memory only and loses them at reboot. Anything but a clear answer is
 * a failure with a reason, and the caller keeps the key in the owner-only file.
 * The key itself travels on the child's stdin, never in its argv or env.
 */
import { resolve } from 'node:path';
import { isStandalone, loadAddonAsset } from '../core/standalone.js';
import type { KeyMode } from './types.js';

export const KEYRING_SERVICE = 'jobfit';
export const KEYRING_TIMEOUT_MS = 3000;

type Env = Record<string, string | undefined>;
/** A failure says why; `silent` when the keyring did not answer within the bound (the entry may well be there). */
export type KeyringAnswer<T> = { ok: true; value: T } | { ok: false; reason: string; silent?: boolean };

/**
 * The keyring entry of one key: service `jobfit`, account `<profile>/<mode>`
 * for the platform's config folder, `<profile>/<mode>@<folder>` for a folder
 * JOBFIT_CONFIG_DIR names. The keyring is one per user, the config folders
 * are many: without the folder in the name, a `login` in one would overwrite
 * the key of the same profile in another, and a `logout` remove it.
 */
export function keyringAccount(env: Env, profile: string, mode: KeyMode): string {
  const folder = env.JOBFIT_CONFIG_DIR;
  return folder ? `${profile}/${mode}@${resolve(folder)}` : `${profile}/${mode}`;
}

/** Where a person finds the entry, for messages and docs. */
export function keyringEntryText(env: Env, profile: string, mode: KeyMode): string {
  return `OS keyring (service ${KEYRING_SERVICE}, account ${keyringAccount(env, profile, mode)})`;
}

/**
 * The keyring helper, run in the child: one request as JSON on stdin, one
 * answer as JSON on stdout. `load` gives the library (require of its path, or
 * in the standalone executable the addon among its assets). Self-contained:
 * the npm install runs its source text with `node -e`.
 */
function keyringHelper(load: (module: string) => unknown): void {
  const chunks: Buffer[] = [];
  process.stdin
    .on('data', (c: Buffer) => chunks.push(c))
    .on('end', () => {
      let out;
      try {
        const req = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { module: string; service: string; account: string; op: string; secret?: string };
        type Entry = { getPassword(): string | null; setPassword(s: string): void; deleteCredential(): boolean };
        const { Entry } = load(req.module) as { Entry: new (service: string, account: string, opts?: unknown) => Entry };
        const e = new Entry(req.service, req.account, process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined);
        if (req.op === 'get') out = { ok: true, value: e.getPassword() ?? null };
        else if (req.op === 'set') {
          e.setPassword(req.secret ?? '');
          out = { ok: e.getPassword() === req.secret, value: true, reason: 'the key read back differs from the key written' };
        } else out = { ok: true, value: e.deleteCredential() };
      } catch (err) {
        out = { ok: false, reason: String((err as Error | undefined)?.message || err) };
      }
      process.stdout.write(JSON.stringify(out));
    });
}

/** Set in the environment of the standalone executable started as the keyring helper (src/cli/sea-entry.ts). */
export const KEYRING_HELPER_ENV = 'JOBFIT_KEYRING_HELPER';

/** The standalone executable as the keyring helper: the addon comes from its own assets. */
export function runKeyringHelper(): void {
  keyringHelper(() => loadAddonAsset('keyring.node'));
}

/** How to start the helper: the executable itself when standalone, else node with the helper's source. */
function helperCommand(): { args: string[]; module: string; env: Env } | undefined {
  if (isStandalone()) return { args: [], module: 'keyring.node', env: { [KEYRING_HELPER_ENV]: '1' } };
  const module = libraryPath();
  return module === undefined ? undefined : { args: ['-e', `(${keyringHelper.toString()})(require)`], module, env: {} };
}

function libraryPath(): string | undefined {
  try {
    return process.getBuiltinModule('node:module').createRequire(import.meta.url).resolve('@napi-rs/keyring');
  } catch {
    return undefined;
  }
}

/** The first line of a library error, without control characters, at most 160 characters. */
function reasonText(s: string): string {
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch/.test(s)) return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)';
  if (/ServiceUnknown|org\.freedesktop\.secrets|secret service/i.test(s)) return `no Secret Service on the session bus (${s.split('\n')[0].slice(0, 80)})`;
  const line = s.split('\n')[0].replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line || 'no reason given';
}

function call<T>(env: Env, req: { op: 'get' | 'set' | 'delete'; account: string; secret?: string }): Promise<KeyringAnswer<T>> {
  const helper = helperCommand();
  if (!helper) return Promise.resolve({ ok: false, reason: 'no keyring library for this platform' });
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: KeyringAnswer<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    // node:child_process when a keyring call is made: the standalone executable's entry imports this file.
    const child = process.getBuiltinModule('node:child_process').spawn(process.execPath, helper.args, {
      env: { ...env, ...helper.env } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ ok: false, reason: `no answer within ${KEYRING_TIMEOUT_MS / 1000} s`, silent: true });
    }, KEYRING_TIMEOUT_MS);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (e) => done({ ok: false, reason: reasonText(e.message) }));
    child.on('close', (code, signal) => {
      try {
        const a = JSON.parse(out) as { ok: boolean; value?: T; reason?: string };
        done(a.ok ? { ok: true, value: a.value as T } : { ok: false, reason: reasonText(a.reason ?? 'failed') });
      } catch {
        done({ ok: false, reason: reasonText(err || `the keyring helper ended (${signal ?? code})`) });
      }
    });
    child.stdin.on('error', () => {
      // The child died before reading: 'close' reports it.
    });
    child.stdin.end(JSON.stringify({ ...req, module: helper.module, service: KEYRING_SERVICE }));
  });
}

export function readKeyringKey(env: Env, profile: string, mode: KeyMode): Promise<KeyringAnswer<string | null>> {
  return call<string | null>(env, { op: 'get', account: keyringAccount(env, profile, mode) });
}

export function writeKeyringKey(env: Env, profile: string, mode: KeyMode, key: string): Promise<KeyringAnswer<true>> {
  return call<true>(env, { op: 'set', account: keyringAccount(env, profile, mode), secret: key });
}

/** Resolves true when an entry was removed, false when there was none. */
export function deleteKeyringKey(env: Env, profile: string, mode: KeyMode): Promise<KeyringAnswer<boolean>> {
  return call<boolean>(env, { op: 'delete', account: keyringAccount(env, profile, mode) });
}
