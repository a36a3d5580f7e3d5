// Stands in for commander's `import childProcess from 'node:child_process'` in
// the standalone executable's bundle (scripts/package/sea.mjs): commander
// spawns a process only for a subcommand that is an executable file, which
// jobfit never declares, yet its import loaded node:child_process (and with it
// node:net, node:dgram and node's stream modules, ~4.5 ms) on every command.
// Here node:child_process is loaded by process.getBuiltinModule() at the call.
// commander 15 calls only childProcess.spawn: test/lint/commander-spawn.test.ts
// fails if it calls anything else.
export default {
  spawn: (...args) => process.getBuiltinModule('node:child_process').spawn(...args),
};
