// Bundles the CLI into dist/ with esbuild. One bundle loads far faster than
// hundreds of node_modules files; code splitting keeps each command's code
// (and its dependencies) out of start-up until that command runs.
// The library (`import ... from 'jobfit-cli'`, src/lib/index.ts) is a second,
// separate bundle in dist/lib/ with its type declarations in dist/types/: the
// CLI's bundle and chunks are built as if it did not exist.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build, transform } from 'esbuild';
import { common } from './bundle-options.mjs';
import { checkCoreChunk, coreChunk } from './core-chunk.mjs';

const dist = new URL('../dist/', import.meta.url);
// dist/types is kept when no source changed since it was written (declarations take tsc seconds); the rest is rebuilt.
for (const entry of existsSync(dist) ? readdirSync(dist) : []) if (entry !== 'types') rmSync(new URL(entry, dist), { recursive: true, force: true });

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

// Twice: the first build's module graph tells the second which modules are the core, one chunk (scripts/core-chunk.mjs).
const cli = { ...common, entryPoints: { main: 'src/cli/entry.ts' }, outdir: 'dist', metafile: true };
const graph = await build({ ...cli, write: false });
const { plugin, core } = coreChunk(graph.metafile, { root: process.cwd(), entry: 'src/cli/entry.ts' });
checkCoreChunk((await build({ ...cli, plugins: [...common.plugins, plugin] })).metafile, core);
await chunksToCommonJs(new URL('chunks/', dist));
entryWithoutChunks(new URL('main.js', dist));
await build({ ...common, entryPoints: { index: 'src/lib/index.ts' }, outdir: 'dist/lib' });

// The stub's seed beside the bundles' stub: dist/stub/seed.json, where loadSeed finds it
// (src/stub/seed.ts, seedFile) from dist/, its chunks and the library alike, and the
// standalone executable's build takes its asset from (scripts/package/sea.mjs).
mkdirSync(new URL('stub/', dist), { recursive: true });
copyFileSync(new URL('../src/stub/seed.json', import.meta.url), new URL('stub/seed.json', dist));

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
