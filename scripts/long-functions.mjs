#!/usr/bin/env node
/**
 * Lists every function in src/ longer than the limit (100 lines), read from the
 * TypeScript AST, so a newcomer meets named steps instead of one long closure
 * (issue 30). A function's lines are those of its whole node, from the line of
 * its name (or keyword) to its closing brace; a nested function counts inside
 * its parent and on its own. Exits 1 when any function is over the limit.
 *
 *   node scripts/long-functions.mjs [--max N]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const maxAt = process.argv.indexOf('--max');
const max = maxAt > 0 ? Number(process.argv[maxAt + 1]) : 100;
if (!Number.isInteger(max) || max < 1) {
  console.error('Error: --max takes a whole number of lines, such as 100.');
  process.exit(2);
}

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The name a reader would search for: the declaration's, or the variable/property/argument it is assigned to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

const found = [];
for (const file of tsFiles(join(root, 'src'))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ name: nameOf(node), file: relative(root, file), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(4)} lines  ${f.name}  ${f.file}:${f.line}`);
if (found.length > 0) {
  console.log(`${found.length} function${found.length === 1 ? '' : 's'} in src/ over ${max} lines.`);
  process.exit(1);
}
console.log(`No function in src/ is over ${max} lines.`);
