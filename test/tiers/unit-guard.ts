/**
 * The unit tier's honesty check (a setup file of the `unit` project in
 * vitest.config.ts): a test of that tier that starts a child process or opens
 * an SQLite database anywhere but in memory fails with one sentence naming
 * the way out. Node's own modules are patched in this worker only, through
 * node:module's syncBuiltinESMExports (a public API), so `import { spawn }`
 * sees the patch too.
 */
import { syncBuiltinESMExports } from 'node:module';

const moveIt = 'move the test file to the integration tier (test/tiers/integration.ts)';

function refuse(what: string): never {
  throw new Error(`unit tier: this test ${what}; ${moveIt}`);
}

const cp = process.getBuiltinModule('node:child_process');
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  Object.assign(cp, { [name]: () => refuse(`started a child process (child_process.${name})`) });
}

const sqlite = process.getBuiltinModule('node:sqlite');
if (sqlite) {
  const Original = sqlite.DatabaseSync;
  class MemoryOnly extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      const [path] = args;
      if (path !== ':memory:') refuse(`opened an SQLite database on disk (${String(path)})`);
      super(...args);
    }
  }
  Object.assign(sqlite, { DatabaseSync: MemoryOnly });
}

syncBuiltinESMExports();
