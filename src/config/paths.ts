/**
 * Where the config lives, computed without loading `conf` so that commands
 * which only read the config (almost all) start fast. Mirrors conf's default
 * (env-paths with the `nodejs` suffix); a test checks the two agree.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { trustProblem } from '../core/trust.js';

export const PROJECT_NAME = 'jobfit';
export const CONFIG_FILE_NAME = 'config.json';

type Env = Record<string, string | undefined>;

export function configDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.JOBFIT_CONFIG_DIR) return env.JOBFIT_CONFIG_DIR;
  const name = `${PROJECT_NAME}-nodejs`;
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', name);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), name, 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), name);
}

export function configFilePath(env: Env = process.env): string {
  return join(configDir(env), CONFIG_FILE_NAME);
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
