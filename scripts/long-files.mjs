#!/usr/bin/env node
/**
 * Lists every file in src/ longer than the limit (400 lines), longest first,
 * so that a file stays a room a person can hold (issue 48; the functions'
 * check is long-functions.mjs). Exits 1 when any file is over the limit.
 *
 *   node scripts/long-files.mjs [--max N]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const maxAt = process.argv.indexOf('--max');
const max = maxAt > 0 ? Number(process.argv[maxAt + 1]) : 400;
if (!Number.isInteger(max) || max < 1) {
  console.error('Error: --max takes a whole number of lines, such as 400.');
  process.exit(2);
}

const found = [];
for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
  const path = join(entry.parentPath, entry.name);
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > max) found.push({ file: relative(root, path).split('\\').join('/'), lines });
}

found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(5)} lines  ${f.file}`);
if (found.length > 0) {
  console.log(`${found.length} file${found.length === 1 ? '' : 's'} in src/ over ${max} lines.`);
  process.exit(1);
}
console.log(`No file in src/ is over ${max} lines.`);
