// Bundles the CLI into dist/ with esbuild. One bundle loads far faster than
// hundreds of node_modules files; code splitting keeps each command's code
// (and its dependencies) out of start-up until that command runs.
// The library (`import ... from 'jobfit-cli'`, src/lib/index.ts) is a second,
// separate bundle in dist/lib/ with its type declarations in dist/types/: the
// CLI's bundle and chunks are built as if it did not exist.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { build, transform } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = new URL('../dist/', import.meta.url);
// dist/types is kept when no source changed since it was written (declarations take tsc seconds); the rest is rebuilt.
for (const entry of existsSync(dist) ? readdirSync(dist) : []) if (entry !== 'types') rmSync(new URL(entry, dist), { recursive: true, force: true });

/**
 * Must be loaded from node_modules at run time: better-sqlite3 (a native
 * addon), exceljs and unzipper (workbooks: their dependencies call the
 * deprecated Buffer(), and Node prints DEP0005 for that unless the caller is
 * inside node_modules).
 */
const EXTERNAL = ['better-sqlite3', 'exceljs', 'unzipper'];

/**
 * A module that stands for `require(name)`. A chunk sets up its imports as
 * soon as it loads (esbuild copies the names of a CommonJS module's exports
 * onto the importer's view of it), so a plain require would load node:crypto
 * with core/files.ts and node:child_process with commander on every command.
 * A built-in is therefore required the first time one of its exports is read: its names come from the build's Node (the
 * same on every line we support), and every operation on the stand-in goes to
 * the module itself. The external packages are required at once.
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
 * The CLI's chunks as CommonJS. esbuild splits only ES modules, and node
 * loads an ES module at a higher cost than a CommonJS one (URLs, an async
 * job per module, linking): `jobfit teams` loads about 45 chunks, and this
 * saves about 5 % of its start (docs/performance.md). dist/main.js stays an
 * ES module (its top-level await); a chunk's import() becomes a require that
 * resolves in a promise, and import.meta.url its own file's URL.
 */
async function chunksToCommonJs(dir) {
  const banner = common.banner.js;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.js')) continue;
    const file = new URL(name, dir);
    let code = readFileSync(file, 'utf8');
    if (!code.startsWith(banner)) throw new Error(`${name}: the ESM banner is not where the build put it`);
    code = code.slice(banner.length);
    const urlOfFile = code.includes('import.meta') ? 'var __jfUrl = require("node:url").pathToFileURL(__filename).href;\n' : '';
    const out = await transform(code, {
      format: 'cjs',
      platform: 'node',
      target: common.target,
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__jfUrl' },
      logLevel: 'silent',
    });
    // esbuild warns of an import.meta it cannot carry over (anything but .url): a build error here.
    if (out.warnings.length > 0) throw new Error(`${name}: ${out.warnings.map((w) => w.text).join('; ')}`);
    writeFileSync(file, urlOfFile + out.code);
  }
  writeFileSync(new URL('package.json', dir), '{ "type": "commonjs" }\n');
}

/**
 * `--version` and `--help` load no chunk (src/cli/entry.ts): esbuild still
 * has the entry import its runtime chunk for its side effects, which a
 * CommonJS chunk has none of (each chunk requires what it uses). Any other
 * import of a chunk by the entry is a build error.
 */
function entryWithoutChunks(file) {
  const code = readFileSync(file, 'utf8').replace(/^import "\.\/chunks\/[\w-]+\.js";\n/gm, '');
  if (/from "\.\/chunks\//.test(code)) throw new Error('dist/main.js imports a chunk: --version and --help would load it (see src/cli/entry.ts)');
  writeFileSync(file, code);
}

/** What the CLI's bundle and the library's have in common. */
const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native addon: must be loaded from node_modules at run time. exceljs and
  // unzipper (workbooks) too: their dependencies call the deprecated Buffer(),
  // and Node prints DEP0005 for that unless the caller is inside node_modules.
  external: ['better-sqlite3', 'exceljs', 'unzipper'],
  // Only the parts of undici the client uses (see scripts/undici-slim.cjs): start-up time.
  alias: { undici: './scripts/undici-slim.cjs' },
  plugins: [
    {
      // undici asserts its invariants with node:assert: see scripts/undici-assert.cjs.
      name: 'undici-assert',
      setup(b) {
        b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
          /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: new URL('./undici-assert.cjs', import.meta.url).pathname } : undefined,
        );
      },
    },
    {
      // Node makes the ESM face of a built-in module by reading every one of its
      // exports, which runs their lazy getters: `import ... from 'node:http'`
      // loads node's own undici for http.WebSocket (75 internal modules more
      // than require('node:http')), `node:fs` loads fs.promises, `node:util` its
      // parsers. A static import of a built-in (or of an external package) is
      // therefore made a require, whose properties esbuild reads only where the
      // code uses them, and only once the importing module is first needed.
      name: 'builtins-by-require',
      setup(b) {
        const names = [...builtinModules.filter((m) => !m.startsWith('_')), ...EXTERNAL].map((m) => m.replace(/[/]/g, '\\/'));
        const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
        b.onResolve({ filter }, (args) =>
          args.kind === 'require-call' || args.kind === 'dynamic-import' || args.namespace === 'builtin-require'
            ? { path: args.path, external: true }
            : { path: args.path, namespace: 'builtin-require' },
        );
        b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({ contents: lazyRequire(args.path), loader: 'js' }));
      },
    },
    {
      // undici's HTTP/2 client is never used (allowH2 is off): see scripts/undici-no-h2.cjs.
      name: 'undici-no-h2',
      setup(b) {
        b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
          /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: new URL('./undici-no-h2.cjs', import.meta.url).pathname } : undefined,
        );
      },
    },
  ],
  define: { __JOBFIT_VERSION__: JSON.stringify(pkg.version) },
  banner: {
    // CommonJS dependencies inside an ESM bundle need a real `require`.
    js: "import { createRequire as __jfCreateRequire } from 'node:module'; const require = __jfCreateRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
};

await build({ ...common, entryPoints: { main: 'src/cli/entry.ts' }, outdir: 'dist' });
await chunksToCommonJs(new URL('chunks/', dist));
entryWithoutChunks(new URL('main.js', dist));
await build({ ...common, entryPoints: { index: 'src/lib/index.ts' }, outdir: 'dist/lib' });

// The library's type declarations (dist/types/lib/index.d.ts and what it imports),
// written again only when a source, a tsconfig or the lockfile is newer than they are.
const root = new URL('..', import.meta.url);
const typesEntry = new URL('types/lib/index.d.ts', dist);
const written = existsSync(typesEntry) ? statSync(typesEntry).mtimeMs : 0;
const inputs = [
  ...readdirSync(new URL('src', root), { recursive: true }).map((f) => new URL(`src/${f}`, root)),
  ...['tsconfig.json', 'tsconfig.lib.json', 'package-lock.json'].map((f) => new URL(f, root)),
];
if (inputs.some((f) => existsSync(f) && statSync(f).mtimeMs >= written)) {
  rmSync(new URL('types', dist), { recursive: true, force: true });
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.lib.json'], { cwd: root, stdio: 'inherit' });
}

// `jobfit --help` is printed from this file when stdout is a pipe or a terminal
// at least 80 columns wide (src/cli/entry.ts): the root help is the same text
// every time, and rendering it means loading commander and every command's
// summary. Generated by the CLI itself (piped, so wrapped at 80), so it cannot
// drift from what commander prints.
const rootHelp = execFileSync(process.execPath, [new URL('../dist/main.js', import.meta.url).pathname, '--help'], {
  env: { PATH: process.env.PATH ?? '', JOBFIT_CONFIG_DIR: '/nonexistent-jobfit-build' },
  encoding: 'utf8',
});
writeFileSync(new URL('../dist/root-help.txt', import.meta.url), rootHelp);
