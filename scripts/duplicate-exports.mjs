#!/usr/bin/env node
/**
 * Lists every name that two files of src/ export as their own declaration
 * (function, class, interface, type, enum, const/let/var), so that a name
 * says which thing it is (issue 48). Re-exports (`export { x } from`) are
 * the same thing under its one name and are not counted, and neither is a
 * `NAME.sea.ts`, which the single-executable build puts in place of
 * `NAME.ts` (the same functions, another way). Exits 1 when a name is
 * declared in two files. test/lint/one-name.test.ts runs the same check
 * in-process (exportedNamesIn).
 *
 *   node scripts/duplicate-exports.mjs [--list]   (--list: every exported name, with its file)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const isExported = (node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file declares and exports, with `export` on the declaration. */
function exportedNames(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names = [];
  for (const node of source.statements) {
    if (!isExported(node)) continue;
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) && node.name) {
      names.push(node.name.text);
    }
  }
  // An overloaded function is one name.
  return [...new Set(names)];
}

/**
 * Every name the .ts files under `dir` export as their own declaration, with
 * the files (relative to `root`, with forward slashes) that declare it.
 */
export function exportedNamesIn(root, dir = 'src') {
  const where = new Map();
  for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const file = relative(root, path).split('\\').join('/');
    if (file.endsWith('.sea.ts')) continue;
    for (const name of exportedNames(file, readFileSync(path, 'utf8'))) {
      if (!where.has(name)) where.set(name, []);
      where.get(name).push(file);
    }
  }
  return where;
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const where = exportedNamesIn(root);
  const names = [...where.keys()].sort((a, b) => a.localeCompare(b));
  if (process.argv.includes('--list')) for (const n of names) console.log(`${n}  ${where.get(n).join(', ')}`);
  const twice = names.filter((n) => where.get(n).length > 1);
  for (const n of twice) console.log(`${n}: ${where.get(n).join(', ')}`);
  if (twice.length > 0) {
    console.log(`${twice.length} name${twice.length === 1 ? '' : 's'} exported by two or more files of src/.`);
    process.exit(1);
  }
  console.log(`No two files of src/ export the same name (${names.length} names).`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
