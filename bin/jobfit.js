#!/usr/bin/env node
// The CLI's bundle (dist/main.js, built by scripts/build.mjs). Its code caches
// (V8's compiled code kept between runs) are set up there: src/cli/code-cache.ts.
//
// Checked first, in syntax every Node reads: the bundle needs Node 22.12 or
// later (package.json "engines", which npm only warns about), and Node 20 does
// not refuse it but crashes in it.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`jobfit needs Node.js 22.12 or later; this is Node.js ${process.versions.node}. Install a current Node.js (https://nodejs.org), or use jobfit's standalone executable, which needs no Node.\n`);
  process.exit(1);
}
await import('../dist/main.js');
