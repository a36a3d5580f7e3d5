// The esbuild options of the CLI's bundle (scripts/build.mjs), in a module of
// their own so that a bench can bundle the same code another way
// (bench/cli/snapshot.mjs: one CommonJS file for a V8 start-up snapshot).
import { readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * Must be loaded from node_modules at run time: better-sqlite3 (a native
 * addon), exceljs and unzipper (workbooks: their dependencies call the
 * deprecated Buffer(), and Node prints DEP0005 for that unless the caller is
 * inside node_modules).
 */
export const EXTERNAL = ['better-sqlite3', 'exceljs', 'unzipper'];

/**
 * A module that stands for `require(name)`. A chunk sets up its imports as
 * soon as it loads (esbuild copies the names of a CommonJS module's exports
 * onto the importer's view of it), so a plain require would load node:crypto
 * with core/files.ts and node:child_process with commander on every command.
 * A built-in is therefore required the first time one of its exports is read: its names come from the build's Node (the
 * same on every line we support), and every operation on the stand-in goes to
 * the module itself. The external packages are required at once.
 *
 * Kept (issue 41, measured A/B in CPU time: docs/performance-history.md, "Start-up, item 5: earlier measurements"): without it an
 * embedded `teams` spends 14 % more. What it relies on that is not a
 * documented API: esbuild's CommonJS interop (__toESM, __copyProps) takes a
 * module's names from Object.getOwnPropertyNames and reads each value only
 * when the importer reads it. Should esbuild change that (read every value at
 * import, or list names another way), a built command fails or loads every
 * built-in at start: test/e2e/new-user.test.ts ("the first command on a fresh
 * HOME", "the embedded stub answers in this process") and the whole e2e
 * suite run the built bundle. The standard mechanism that would replace it is
 * process.getBuiltinModule() at each use, not a static import.
 */
function lazyRequire(name) {
  const id = JSON.stringify(name);
  // process is the global object itself.
  if (EXTERNAL.includes(name) || name === 'process' || name === 'node:process') return `module.exports = require(${id});`;
  const keys = JSON.stringify(Object.keys(createRequire(import.meta.url)(name)));
  return `let m;
const load = () => (m ??= require(${id}));
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  set: (_, key, value) => Reflect.set(load(), key, value),
  has: (_, key) => key in load(),
  defineProperty: (_, key, desc) => Reflect.defineProperty(load(), key, desc),
  deleteProperty: (_, key) => Reflect.deleteProperty(load(), key),
  ownKeys: () => ${keys},
});`;
}

/**
 * Node makes the ESM face of a built-in module by reading every one of its
 * exports, which runs their lazy getters: `import ... from 'node:http'` loads
 * node's own undici for http.WebSocket (75 internal modules more than
 * require('node:http')), `node:fs` loads fs.promises, `node:util` its parsers.
 * A static import of a built-in (or of an external package) is therefore made
 * a require, whose properties esbuild reads only where the code uses them, and
 * only once the importing module is first needed. `alsoRequired` names
 * built-ins whose plain require() is made lazy too (a start-up snapshot cannot
 * hold node:http).
 */
export function builtinsByRequire(alsoRequired = /^$/) {
  return {
    name: 'builtins-by-require',
    setup(b) {
      const names = [...builtinModules.filter((m) => !m.startsWith('_')), ...EXTERNAL].map((m) => m.replace(/[/]/g, '\\/'));
      const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
      b.onResolve({ filter }, (args) =>
        (args.kind === 'require-call' && !alsoRequired.test(args.path)) || args.kind === 'dynamic-import' || args.namespace === 'builtin-require'
          ? { path: args.path, external: true }
          : { path: args.path, namespace: 'builtin-require' },
      );
      b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({ contents: lazyRequire(args.path), loader: 'js' }));
    },
  };
}

/** esbuild's plugins for the bundle; `alsoRequired` as in builtinsByRequire. */
export function bundlePlugins(alsoRequired) {
  return [
    {
      // undici asserts its invariants with node:assert: see scripts/undici-assert.cjs.
      name: 'undici-assert',
      setup(b) {
        b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
          /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: new URL('./undici-assert.cjs', import.meta.url).pathname } : undefined,
        );
      },
    },
    builtinsByRequire(alsoRequired),
    {
      // undici's HTTP/2 client is never used (allowH2 is off): see scripts/undici-no-h2.cjs.
      name: 'undici-no-h2',
      setup(b) {
        b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
          /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: new URL('./undici-no-h2.cjs', import.meta.url).pathname } : undefined,
        );
      },
    },
  ];
}

/** What the CLI's bundle and the library's have in common. */
export const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: EXTERNAL,
  // Only the parts of undici the client uses (see scripts/undici-slim.cjs): start-up time.
  alias: { undici: './scripts/undici-slim.cjs' },
  plugins: bundlePlugins(),
  define: { __JOBFIT_VERSION__: JSON.stringify(pkg.version) },
  banner: {
    // CommonJS dependencies inside an ESM bundle need a real `require`.
    js: "import { createRequire as __jfCreateRequire } from 'node:module'; const require = __jfCreateRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
};

