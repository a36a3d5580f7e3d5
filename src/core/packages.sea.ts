/**
 * packages.ts in the standalone executable (scripts/package.mjs swaps it in):
 * each package bundled in, evaluated at its first use. better-sqlite3 is not
 * there: the executable's Node has node:sqlite (src/core/sqlite-engines.ts).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the bundler resolves these requires and wraps each package to load at the call */
import type { RuntimePackage } from './packages.js';

export function requirePackage(name: RuntimePackage): unknown {
  if (name === 'pg') return require('pg');
  if (name === 'cli-progress') return require('cli-progress');
  throw new Error(`${name} is not part of the standalone executable`);
}
