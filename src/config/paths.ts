/**
 * Where the config lives, computed without loading `conf` so that commands
 * which only read the config (almost all) start fast: `~/.config/jobfit`
 * (XDG_CONFIG_HOME), `~/Library/Preferences/jobfit` on macOS,
 * `%APPDATA%\jobfit\Config` on Windows. Earlier versions (0.1) used conf's
 * default name, `jobfit-nodejs`: the first run that finds only that folder
 * moves it (one rename, the same disk; keys, profiles and the stub's data go
 * with it) and, when the move fails (a Windows file held open by a running
 * `stub serve`), keeps using it, so that nothing is ever left behind.
 */
import { existsSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { trustProblem } from '../core/trust.js';

export const PROJECT_NAME = 'jobfit';
export const CONFIG_FILE_NAME = 'config.json';

type Env = Record<string, string | undefined>;

/** The folder that holds the project's folder, and the config's place inside it (Windows: `Config`). */
function baseOf(env: Env, platform: NodeJS.Platform): { parent: string; inner: string[] } {
  const home = homedir();
  if (platform === 'darwin') return { parent: join(home, 'Library', 'Preferences'), inner: [] };
  if (platform === 'win32') return { parent: env.APPDATA || join(home, 'AppData', 'Roaming'), inner: ['Config'] };
  return { parent: env.XDG_CONFIG_HOME || join(home, '.config'), inner: [] };
}

/** The folder name of versions before 0.2 (conf's default suffix). */
export const LEGACY_NAME = `${PROJECT_NAME}-nodejs`;

const settled = new Map<string, string>();

/**
 * The config folder: the new name, after moving the old folder there when
 * only the old one exists; the old one when it holds a config and the move
 * could not be made (or the new folder has none), so no key is ever lost.
 */
export function configDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.JOBFIT_CONFIG_DIR) return env.JOBFIT_CONFIG_DIR;
  const { parent, inner } = baseOf(env, platform);
  const now = join(parent, PROJECT_NAME, ...inner);
  const known = settled.get(now);
  if (known) return known;
  const chosen = migrate(join(parent, PROJECT_NAME), join(parent, LEGACY_NAME), inner);
  settled.set(now, chosen);
  return chosen;
}

function migrate(fresh: string, legacy: string, inner: string[]): string {
  const legacyDir = join(legacy, ...inner);
  const freshDir = join(fresh, ...inner);
  if (!existsSync(legacy)) return freshDir;
  if (existsSync(fresh)) {
    // Both: the new one is used, unless only the old one holds a config (never lose a key).
    return !existsSync(join(freshDir, CONFIG_FILE_NAME)) && existsSync(join(legacyDir, CONFIG_FILE_NAME)) ? legacyDir : freshDir;
  }
  try {
    renameSync(legacy, fresh);
    return freshDir;
  } catch {
    // Held open (Windows), another disk, no permission: the old folder stays in use as it is.
    return existsSync(fresh) ? freshDir : legacyDir;
  }
}

export function configFilePath(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  return join(configDir(env, platform), CONFIG_FILE_NAME);
}

/** The embedded stub keeps its state here, beside the config. */
export function stubDataDir(env: Env = process.env): string {
  return join(configDir(env), 'stub');
}

/**
 * Why a config file is unsafe to trust, or undefined: one that another user
 * owns, or others can write (or replace, through its folder), could have its
 * base URL changed to catch the key. Such a file is refused before any key
 * is sent (read.ts, store.ts), with the path and the fix.
 */
export function unsafeConfigProblem(path: string): string | undefined {
  return trustProblem(path, 'The config file');
}
