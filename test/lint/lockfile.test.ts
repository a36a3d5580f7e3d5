/**
 * `npm ci` must need nothing but the registry (docs/runtimes.md): a package
 * that ships its binaries and says `"gypfile": false` must say so in the
 * lockfile too, or `npm ci` runs an implicit `node-gyp rebuild` for it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the lockfile installs with no compiler', () => {
  it('carries "gypfile": false wherever the package does (npm run lockfile)', () => {
    expect(() => execFileSync(process.execPath, ['scripts/lockfile-gypfile.mjs', '--check'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
    const lock = JSON.parse(readFileSync(`${ROOT}/package-lock.json`, 'utf8')) as { packages: Record<string, { gypfile?: boolean; hasInstallScript?: boolean }> };
    expect(lock.packages['node_modules/better-sqlite3'].gypfile).toBe(false);
  });

  it('no runtime dependency has an install script', () => {
    const lock = JSON.parse(readFileSync(`${ROOT}/package-lock.json`, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }> };
    const withScripts = Object.entries(lock.packages).filter(([path, e]) => path && e.hasInstallScript && !e.dev).map(([path]) => path);
    expect(withScripts).toEqual([]);
  });
});
