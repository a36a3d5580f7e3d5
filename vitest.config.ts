import { defineConfig } from 'vitest/config';
import { integrationFiles } from './test/tiers/integration.js';

// Two tiers (README.md, "Tests"): `npm run test:unit` runs the unit project only;
// `npm test` (and CI) runs both.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of the long files wait on sockets, Retry-After and child processes,
    // not on the CPU: three at once on a 2-CPU machine takes the suite from
    // ~13 to ~5 minutes. Raise or lower with --maxWorkers.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: integrationFiles,
          setupFiles: ['test/tiers/unit-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integrationFiles,
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
