// The bundle's entry point. `--version` is answered before anything else is
// loaded so that it costs no more than starting node.
import { VERSION } from './version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { runMain } = await import('./main.js');
  await runMain(argv);
}
