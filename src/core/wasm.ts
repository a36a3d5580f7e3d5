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
 * the library, whose V8 flags are its host's.
 *
 * V8 keys a code cache by its flags: a cache of our chunks made at exit
 * under this flag (src/cli/code-cache.ts) would be refused by the next run,
 * which starts without it, and written again by every run that makes a
 * request (~25 ms each). So the flag is set back at exit while that cache
 * is made: off in a listener ahead of code-cache.ts's (prependListener), on
 * again in one after it (with the flag off, node would wait for V8 to
 * optimise the WebAssembly before it exits).
 */
let set = false;
export function baselineWasmOnly(): void {
  if (set) return;
  set = true;
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  process.prependListener('exit', () => v8.setFlagsFromString('--no-liftoff-only'));
  process.on('exit', () => v8.setFlagsFromString('--liftoff-only'));
}
