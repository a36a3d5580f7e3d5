#!/usr/bin/env node
// The CLI's bundle (dist/main.js, built by scripts/build.mjs). Its code caches
// (V8's compiled code kept between runs) are set up there: src/cli/code-cache.ts.
await import('../dist/main.js');
