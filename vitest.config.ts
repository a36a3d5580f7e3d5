import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of the long files wait on sockets, Retry-After and child processes,
    // not on the CPU: three at once on a 2-CPU machine takes the suite from
    // ~13 to ~5 minutes. Raise or lower with --maxWorkers.
    maxWorkers: 3,
  },
});
