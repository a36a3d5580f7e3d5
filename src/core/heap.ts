/**
 * V8 grown for size, for the commands whose work grows with the people in an
 * account (exports of `--all`, the group report, sync): they allocate fast (a
 * JSON body per request) and keep little, and on Node 24 V8 let the young
 * generation grow to 128 MB for them (a `scorecard --all` peaked at 234 MB at
 * 10,000 test takers, 349 MB at 100,000). `--optimize-for-size` keeps it at a
 * few MB and collects sooner: flat memory (issue 47, docs/performance.md,
 * "At scale") for some CPU. Set when such a command starts, not by the
 * library, whose V8 flags are its host's; `invite --dry-run` and `webhook
 * listen` set it too. A V8 flag is the process's: in the MCP server, which
 * runs commands in-process, it stays set after the first such command.
 */
let set = false;
export function heapForSize(): void {
  if (set) return;
  set = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--optimize-for-size');
}
