// One platform's standalone executable: the CLI bundled into one CommonJS
// file (every package in it), then Node's own `--build-sea` puts it, with the
// assets, into that platform's official Node executable.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { bundlePlugins } from '../bundle-options.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

/** Modules the bundle leaves out: never reached in the executable (better-sqlite3: node:sqlite is there; pg's optional native and Cloudflare parts). */
const LEFT_OUT = ['better-sqlite3', 'pg-native', 'cloudflare:sockets'];

/**
 * Packages bundled apart, each an asset `packages/<name>.js` that sea-main.cjs
 * compiles the first time the program requires it: 3.1 MB of the 6.7 MB that
 * only workbooks and prompts use (exceljs with its dependencies, unzipper,
 * @inquirer/prompts), which every command would otherwise decode and set up
 * at start. Each is whole in itself (no state shared with the program).
 */
export const APART = ['exceljs', 'unzipper', '@inquirer/prompts'];

/** The CommonJS function of CommonJS's five arguments that sea-main.cjs compiles and calls, in ASCII. */
function wrapCommonJs(file) {
  writeFileSync(file, `(function (exports, require, module, __filename, __dirname) {${asciiOnly(readFileSync(file, 'utf8'))}`);
}

/** One package of APART as one CommonJS file (requiring only Node's built-ins). */
async function bundleApart(name, outfile) {
  await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: ROOT, loader: 'js' },
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node26',
    legalComments: 'none',
    logLevel: 'warning',
    footer: { js: '})' },
  });
  wrapCommonJs(outfile);
}

/**
 * The bundle, shared by every platform (asset `jobfit.js`, run by
 * sea-main.cjs): src/cli/sea-entry.ts and everything it reaches, with
 * src/core/packages.sea.ts in packages.ts's place, but the packages of APART
 * (written beside it, `packages/<name>.js`; returned as assets).
 * `import()` becomes a require (a SEA's main script can import only
 * built-ins), and import.meta.url the executable's own URL (__filename is
 * process.execPath in a SEA).
 */
export async function bundleMain(outfile, { version }) {
  const seaPackages = {
    name: 'sea-packages',
    setup(b) {
      const swapped = join(ROOT, 'src', 'core', 'packages.js');
      b.onResolve({ filter: /packages\.js$/ }, (args) => (join(args.resolveDir, args.path) === swapped ? { path: join(ROOT, 'src', 'core', 'packages.sea.ts') } : undefined));
    },
  };
  // The undici stand-ins of the npm bundle, not its lazy built-ins (one file, evaluated as needed by esbuild's own
  // wrappers; our own code loads a costly built-in with process.getBuiltinModule() where it uses it).
  const plugins = bundlePlugins().filter((p) => p.name !== 'builtins-by-require');
  const commanderSpawn = {
    name: 'commander-child-process',
    setup(b) {
      b.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: join(ROOT, 'scripts/commander-child-process.mjs') } : undefined,
      );
    },
  };
  await build({
    entryPoints: [join(ROOT, 'src/cli/sea-entry.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node26',
    external: [...LEFT_OUT, ...APART],
    alias: { undici: join(ROOT, 'scripts/undici-slim.cjs') },
    plugins: [seaPackages, commanderSpawn, ...plugins],
    supported: { 'dynamic-import': false },
    define: { __JOBFIT_VERSION__: JSON.stringify(version), 'import.meta.url': '__jfUrl' },
    banner: { js: 'var __jfUrl = require("node:url").pathToFileURL(__filename).href;' },
    legalComments: 'none',
    logLevel: 'warning',
    // Compiled by sea-main.cjs as a function of CommonJS's five arguments.
    footer: { js: '})' },
  });
  wrapCommonJs(outfile);
  const assets = {};
  for (const name of APART) {
    const file = join(dirname(outfile), 'packages', `${name.replace('/', '+')}.js`);
    await bundleApart(name, file);
    assets[`packages/${name}.js`] = file;
  }
  return assets;
}

/**
 * The bundle with every character outside ASCII written as a \u escape.
 * esbuild's output is ASCII except in comments, regular expressions and
 * template literals (where an escape would change a template's raw text); one
 * such character makes V8 hold the whole 6 MB source as a two-byte string,
 * which the executable decodes at every start. A \u escape means the same
 * character in a string, a regular expression (with or without the u flag; an
 * astral character as its surrogate pair), an identifier and a template's
 * cooked text, which is what our html tag reads (src/format/html/html.ts).
 * Only a template's raw text differs (String.raw, the style tag): the build
 * fails if one holds such a character.
 */
export function asciiOnly(code) {
  const raw = /(?:String\.raw|\bstyle)`(?:[^`\\]|\\.)*`/gs;
  for (const m of code.matchAll(raw)) if (/[^\x00-\x7f]/.test(m[0])) throw new Error(`a raw template holds a character outside ASCII: ${m[0].slice(0, 80)}`);
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The main script of the executable: sea-main.cjs with the version and commit. */
export function writeMain(file, { version, commit }) {
  const text = readFileSync(join(ROOT, 'scripts/package/sea-main.cjs'), 'utf8').replace("'%VERSION%'", JSON.stringify(version)).replace("'%COMMIT%'", JSON.stringify(commit));
  writeFileSync(file, text);
}

/**
 * V8's code cache of the bundle, made by `builder` (the Node and V8 of the
 * executables, on this platform) as sea-main.cjs compiles it: only for this
 * platform's executable (V8 rejects another platform's cache). This one holds
 * the top level; trainCodeCache replaces it with one made after a run.
 */
function writeCodeCache(builder, bundle, out) {
  const make = `const { Script } = require('node:vm'); const fs = require('node:fs');
fs.writeFileSync(process.argv[2], new Script(fs.readFileSync(process.argv[1], 'utf8'), { filename: 'jobfit.js' }).createCachedData());`;
  execFileSync(builder, ['-e', make, bundle, out], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * The code cache as the executable itself writes it after an embedded `teams -o json`
 * (a fresh HOME): V8 then keeps every function that ran compiled, which a
 * cache made before running lacks (a command compiles them all again).
 */
function trainCodeCache(exe, out, work) {
  const home = join(work, 'train-home');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const env = { PATH: process.env.PATH ?? '', HOME: home, JOBFIT_CONFIG_DIR: join(home, 'config') };
  // The first run seeds the stub's database; the cache is the second's, the run a user repeats (none of the seeding's code).
  execFileSync(exe, ['teams', '-o', 'json'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync(exe, ['teams', '-o', 'json'], { env: { ...env, JOBFIT_SEA_CODE_CACHE_OUT: out }, stdio: ['ignore', 'ignore', 'pipe'] });
  rmSync(home, { recursive: true, force: true });
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Builds `target`'s executable at `output` with the builder node (`builder`:
 * the same Node version, this machine's platform). `nodeDir` and `keyringDir`
 * are the unpacked registry packages; `main` the small main script
 * (writeMain), `bundle` the bundle and `packages` the assets of the packages
 * apart (bundleMain); `codeCache` only for this
 * machine's own platform (V8 rejects another platform's cache, and for the
 * SEA's own useCodeCache prints a warning at every run).
 */
export function buildExecutable({ builder, target, nodeDir, keyringDir, main, bundle, packages, work, output, codeCache }) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const [addon] = readdirSync(keyringDir).filter((f) => f.endsWith('.node'));
  if (!addon) throw new Error(`${keyringDir}: no .node addon`);
  const keyring = join(work, 'keyring.node');
  copyFileSync(join(keyringDir, addon), keyring);
  writeFileSync(`${keyring}.sha256`, `${sha256(keyring)}\n`);
  const assets = { 'jobfit.js': bundle, ...packages };
  if (codeCache) {
    writeCodeCache(builder, bundle, join(work, 'jobfit.js.cache'));
    assets['jobfit.js.cache'] = join(work, 'jobfit.js.cache');
  }
  const config = {
    main,
    mainFormat: 'commonjs',
    executable: join(nodeDir, target.exe),
    output,
    disableExperimentalSEAWarning: true,
    useCodeCache: codeCache,
    // exceljs's dependencies call Buffer() (DEP0005), which node reports for any caller outside node_modules: all of them, in one file.
    // --min-semi-space-size: V8's young generation starts at 8 MB, not 1 MB growing, so a short command runs
    // without the three scavenges (~5-10 ms of an embedded `teams`) its start-up allocations caused
    // (docs/performance.md). Set here, before the heap exists: node's own V8 option, documented by `node --v8-options`.
    execArgv: ['--disable-warning=DEP0005', '--min-semi-space-size=8'],
    // NODE_OPTIONS is not read: the executable behaves the same on every machine.
    execArgvExtension: 'none',
    assets: {
      ...assets,
      'stub/seed.json': join(ROOT, 'dist/stub/seed.json'),
      'root-help.txt': join(ROOT, 'dist/root-help.txt'),
      'keyring.node': keyring,
      'keyring.node.sha256': `${keyring}.sha256`,
    },
  };
  const configFile = join(work, 'sea-config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const buildSea = () => {
    rmSync(output, { force: true });
    execFileSync(builder, ['--build-sea', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  buildSea();
  if (codeCache) {
    trainCodeCache(output, assets['jobfit.js.cache'], work);
    buildSea();
  }
}
