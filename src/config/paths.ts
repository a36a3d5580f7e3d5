/**
 * Where the config lives, computed without loading `conf` so that commands
 * which only read the config (almost all) start fast. Mirrors conf's default
 * (env-paths with the `nodejs` suffix); a test checks the two agree.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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
 * Why a config file is unsafe to trust, or undefined: one that others can
 * write could have its base URL changed to catch the key.
 */
export function unsafeConfigProblem(path: string): string | undefined {
  const modeOf = (p: string) => {
    try {
      return statSync(p).mode;
    } catch {
      return undefined;
    }
  };
  const file = modeOf(path);
  if (file === undefined) return undefined;
  const who = (m: number) => (m & 0o002 ? 'anyone on this machine' : 'its group');
  const risk = 'its base URL could be pointed elsewhere to catch your key';
  if ((file & 0o022) !== 0) {
    return `the config file ${path} can be changed by ${who(file)} (mode ${(file & 0o777).toString(8)}): ${risk}. Run \`chmod 600 ${path}\`.`;
  }
  // A folder others can write lets them replace the file (unless sticky, as /tmp is).
  const dir = dirname(path);
  const folder = modeOf(dir);
  if (folder !== undefined && (folder & 0o022) !== 0 && (folder & 0o1000) === 0) {
    return `the config folder ${dir} can be changed by ${who(folder)} (mode ${(folder & 0o777).toString(8)}), so the config file could be replaced: ${risk}. Run \`chmod 700 ${dir}\`.`;
  }
  return undefined;
}
