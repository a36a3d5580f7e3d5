/**
 * Builds dist/ once, before any test file runs. Tests that spawn the built
 * binary copy dist/ (test/e2e/built.ts) or run bin/jobfit.js in place; with
 * test files running in parallel, a build per file could replace dist/ while
 * another file is copying or loading it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
