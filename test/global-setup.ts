/**
 * Builds dist/ once, before any test file runs. Tests that spawn the built
 * binary copy dist/ (test/e2e/built.ts) or run bin/jobfit.js in place; with
 * test files running in parallel, a build per file could replace dist/ while
 * another file is copying or loading it. JOBFIT_TEST_BUILT=1 says dist/ is
 * already built (.ci/windows builds once, then runs two Node lines' tests side
 * by side on one tree, where two builds would write dist/ at once).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  if (process.env.JOBFIT_TEST_BUILT === '1') return;
  const root = fileURLToPath(new URL('../', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
