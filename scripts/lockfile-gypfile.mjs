#!/usr/bin/env node
/**
 * Keeps `"gypfile": false` in package-lock.json for every installed package
 * whose own package.json says so (better-sqlite3 13: its binaries are prebuilt
 * inside the package). `npm ci` builds its tree from the lockfile alone, and a
 * lockfile entry does not carry `gypfile`: npm then sees the package's
 * binding.gyp and runs an implicit `node-gyp rebuild`, which needs a compiler
 * and Node's headers from nodejs.org (npm 10, and npm 11 without allowScripts).
 * npm drops the field whenever it rewrites the lockfile: run `npm run lockfile`
 * after `npm install`; test/lint/lockfile.test.ts fails until it is done.
 *
 *   node scripts/lockfile-gypfile.mjs [--check]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const lockPath = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const missing = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!path) continue;
  const manifest = join(root, path, 'package.json');
  if (!existsSync(manifest)) continue;
  if (JSON.parse(readFileSync(manifest, 'utf8')).gypfile === false && entry.gypfile !== false) {
    missing.push(path);
    entry.gypfile = false;
  }
}
if (process.argv.includes('--check')) {
  if (missing.length) {
    console.error(`package-lock.json lacks "gypfile": false for ${missing.join(', ')}: run \`npm run lockfile\`.`);
    process.exitCode = 1;
  }
} else if (missing.length) {
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`package-lock.json: "gypfile": false for ${missing.join(', ')}`);
}
