// Bundles the CLI into dist/ with esbuild. One bundle loads far faster than
// hundreds of node_modules files; code splitting keeps each command's code
// (and its dependencies) out of start-up until that command runs.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native addon: must be loaded from node_modules at run time.
  external: ['better-sqlite3'],
  // Only the parts of undici the client uses (see scripts/undici-slim.cjs): start-up time.
  alias: { undici: './scripts/undici-slim.cjs' },
  define: { __JOBFIT_VERSION__: JSON.stringify(pkg.version) },
  banner: {
    // CommonJS dependencies inside an ESM bundle need a real `require`.
    js: "import { createRequire as __jfCreateRequire } from 'node:module'; const require = __jfCreateRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
});
