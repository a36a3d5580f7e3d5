/**
 * HTTP is parsed with WebAssembly (llhttp, in undici and in node's fetch).
 * V8 compiles it at once with its baseline compiler, then optimises it again
 * on background threads, and node waits for those before it exits: 100 ms or
 * more on every run that makes a request. The baseline code is plenty for a
 * command-line tool's requests.
 *
 * Set by the CLI before its first request over the network (cli/create-context.ts,
 * login, and the servers that deliver webhooks): not at start, as node:v8
 * costs an offline command ~2 ms (it loads node's stream modules), nor by
 * the library, whose V8 flags are its host's. V8's code cache takes code
 * made before the flag changed (src/cli/code-cache.ts).
 */
let set = false;
export function baselineWasmOnly(): void {
  if (set) return;
  set = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
}
