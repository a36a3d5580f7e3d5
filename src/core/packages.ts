/**
 * The CommonJS packages loaded only when a command needs them, from the
 * install's node_modules at run time (outside the bundle: start-up time, and
 * better-sqlite3 is a native addon). The standalone executable has no
 * node_modules: its build (scripts/package.mjs) puts packages.sea.ts in this
 * module's place, which has them bundled in.
 */
import { createRequire } from 'node:module';

export type RuntimePackage = 'pg' | 'cli-progress' | 'better-sqlite3';

export function requirePackage(name: RuntimePackage): unknown {
  return createRequire(import.meta.url)(name);
}
