// The bundle's entry point. `--version` is answered before anything else is
// loaded so that it costs no more than starting node: the version is the one
// the build put in (src/cli/version.ts reads the same), so this file imports no
// chunk of the bundle, and `--version` and `--help` load none.
import { startCodeCaches } from './code-cache.js';

declare const __JOBFIT_VERSION__: string;

const argv = process.argv.slice(2);

/**
 * The root help as the build rendered it (scripts/build.mjs, wrapped at 80
 * columns), so `jobfit --help` need not load commander. Only into a pipe or a
 * terminal at least 80 wide; absent when running from source.
 */
function prerenderedHelp(): string | undefined {
  if (!(argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h'))) return undefined;
  if (process.stdout.isTTY && (process.stdout.columns ?? 80) < 80) return undefined;
  // Node's own module as it is, not its ES module face (import() of node:fs builds that: 3 ms).
  const { readFileSync } = process.getBuiltinModule('node:fs');
  try {
    return readFileSync(new URL('./root-help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

const help = prerenderedHelp();
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__JOBFIT_VERSION__}\n`);
} else if (help !== undefined) {
  process.stdout.write(help);
} else {
  // V8's flag for WebAssembly is set before the first request over the network (core/wasm.ts).
  startCodeCaches(process.getBuiltinModule('node:url').fileURLToPath(new URL('./chunks/', import.meta.url)));
  const { runMain } = await import('./main.js');
  await runMain(argv);
}
