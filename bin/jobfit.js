#!/usr/bin/env node
// V8 keeps the compiled code of dist/ between runs (module.enableCompileCache,
// Node >= 22.1), in the user's own cache folder rather than a shared /tmp one.
// It is skipped when NODE_COMPILE_CACHE already decides, and it never stops a run.
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

if (!process.env.NODE_COMPILE_CACHE && module.enableCompileCache) {
  try {
    module.enableCompileCache(join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'jobfit', 'compile-cache'));
  } catch {
    // No cache folder (read-only HOME): start without it.
  }
}
await import('../dist/main.js');
