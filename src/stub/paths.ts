/**
 * Where the stub keeps its data: `<config dir>/stub`. The config dir
 * (JOBFIT_CONFIG_DIR, else the platform's config directory for jobfit) is
 * resolved in one place, src/config/paths.ts, shared with the config store.
 */
export { configDir, stubDataDir } from '../config/paths.js';
import { stubDataDir } from '../config/paths.js';

/** The `--data DIR` default of every `jobfit stub` command. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  return stubDataDir(env);
}
