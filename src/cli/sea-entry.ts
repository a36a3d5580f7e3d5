// The standalone executable's program (scripts/package.mjs bundles it, with
// everything it reaches, into one CommonJS file, run by the SEA's small main
// script scripts/package/sea-main.cjs, which answers `--version` and `--help`
// itself). The npm install starts at entry.ts instead. The keyring helper is
// this same executable started with KEYRING_HELPER_ENV set (config/keyring.ts).
import { KEYRING_HELPER_ENV, runKeyringHelper } from '../config/keyring.js';

if (process.env[KEYRING_HELPER_ENV] === '1') {
  runKeyringHelper();
} else {
  // Loaded here, not at the top: the keyring helper evaluates none of the commands' code.
  void import('./main.js').then(({ runMain }) => runMain(process.argv.slice(2)));
}
