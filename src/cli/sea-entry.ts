// The standalone executable's entry (scripts/package.mjs bundles it, with
// everything it reaches, into one CommonJS file: the SEA's main script). The
// npm install starts at entry.ts instead. `--version` and `--help` answer
// from what the build put in; the keyring helper is this same executable
// started with KEYRING_HELPER_ENV set (config/keyring.ts).
import { KEYRING_HELPER_ENV, runKeyringHelper } from '../config/keyring.js';
import { assetText } from '../core/standalone.js';

declare const __JOBFIT_VERSION__: string;
declare const __JOBFIT_COMMIT__: string;

const argv = process.argv.slice(2);
const one = argv.length === 1 ? argv[0] : undefined;

if (process.env[KEYRING_HELPER_ENV] === '1') {
  runKeyringHelper();
} else if (one === '--version' || one === '-V') {
  process.stdout.write(`${__JOBFIT_VERSION__} (commit ${__JOBFIT_COMMIT__}, Node ${process.version}, standalone ${process.platform}-${process.arch})\n`);
} else if ((one === '--help' || one === '-h') && !(process.stdout.isTTY && (process.stdout.columns ?? 80) < 80)) {
  process.stdout.write(assetText('root-help.txt') ?? '');
} else {
  // Loaded here, not at the top: --version and --help evaluate none of the commands' code.
  void import('./main.js').then(({ runMain }) => runMain(argv));
}
