// The bundle's entry point. `--version` is answered before anything else is
// loaded so that it costs no more than starting node.
import { VERSION } from './version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  // undici parses HTTP with WebAssembly. V8 compiles it at once with its
  // baseline compiler, then optimises it again on background threads, and node
  // waits for those before it exits: 100 ms or more on every run that makes a
  // request. The baseline code is plenty for a command-line tool's requests.
  // (Help makes no request, so it skips loading node:v8.)
  const help = argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
  if (!help) (await import('node:v8')).setFlagsFromString('--liftoff-only');
  const { runMain } = await import('./main.js');
  await runMain(argv);
}
