// The standalone executable's main script (the SEA's "main"; scripts/package/
// sea.mjs fills in VERSION and COMMIT). It is kept small because Node compiles
// (or reads the code cache of) the whole main script before it runs a line:
// the 6 MB bundle there made `--version` cost twice a `node -e 0`. So
// `--version` and `--help` answer here, and anything else compiles the bundle
// (asset `jobfit.js`, src/cli/sea-entry.ts and all it reaches) with V8's code
// cache of it (asset `jobfit.js.cache`, made by the build on this platform
// only: another platform's would be rejected) and runs it; the packages only
// workbooks and prompts use are assets of their own, run when first required.
/* global exports, __filename -- CommonJS's own, handed to the bundle */
'use strict';
const sea = require('node:sea');

const VERSION = '%VERSION%';
const COMMIT = '%COMMIT%';
const argv = process.argv.slice(2);
const one = argv.length === 1 ? argv[0] : undefined;
const helper = process.env.JOBFIT_KEYRING_HELPER === '1';

if (!helper && (one === '--version' || one === '-V')) {
  process.stdout.write(`${VERSION} (commit ${COMMIT}, Node ${process.version}, standalone ${process.platform}-${process.arch})\n`);
} else if (!helper && (one === '--help' || one === '-h') && !(process.stdout.isTTY && (process.stdout.columns ?? 80) < 80)) {
  // The root help as the build rendered it (wrapped at 80 columns), as bin/jobfit.js prints it.
  process.stdout.write(sea.getAsset('root-help.txt', 'utf8'));
} else {
  const { Script } = require('node:vm');
  let cachedData;
  if (sea.getAssetKeys().includes('jobfit.js.cache')) cachedData = Buffer.from(sea.getRawAsset('jobfit.js.cache'));
  const script = new Script(sea.getAsset('jobfit.js', 'utf8'), { filename: 'jobfit.js', cachedData });
  // The build runs this executable once with JOBFIT_SEA_CODE_CACHE_OUT set and embeds the cache it writes at
  // exit: it holds the functions that run compiled, not only the top level (scripts/package/sea.mjs).
  const out = process.env.JOBFIT_SEA_CODE_CACHE_OUT;
  if (out) process.once('exit', () => require('node:fs').writeFileSync(out, script.createCachedData()));
  script.runInThisContext()(exports, requireInSea, module, __filename, __dirname);
}

/**
 * The bundle's require: Node's built-ins, and the packages bundled apart
 * (scripts/package/sea.mjs APART: asset `packages/<name>.js`), each compiled
 * and run once, the first time it is required.
 */
function requireInSea(id) {
  const asset = `packages/${id}.js`;
  if (!sea.getAssetKeys().includes(asset)) return require(id);
  requireInSea.loaded ??= new Map();
  let m = requireInSea.loaded.get(id);
  if (!m) {
    m = { exports: {} };
    requireInSea.loaded.set(id, m);
    const { Script } = require('node:vm');
    new Script(sea.getAsset(asset, 'utf8'), { filename: asset }).runInThisContext()(m.exports, require, m, __filename, __dirname);
  }
  return m.exports;
}
