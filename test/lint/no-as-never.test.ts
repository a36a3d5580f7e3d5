/**
 * No `as never` in src/ (issue 48, item 3): a cast to never silences the
 * type checker where two of our types do not fit (bulk's ports and
 * JobfitClient did); the fix is a type that says what fits. Checked over the
 * TypeScript AST, so a comment or a string that says "as never" is no cast,
 * and `<never>x` is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The `line: text` of every cast to never in a file's text. */
function castsToNever(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.kind === ts.SyntaxKind.NeverKeyword) {
      found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('casts to never', () => {
  it('src/ has none', () => {
    const casts: string[] = [];
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(200);
    for (const e of files) {
      const path = join(e.parentPath, e.name);
      for (const c of castsToNever(path, readFileSync(path, 'utf8'))) casts.push(`${relative(ROOT, path)}:${c}`);
    }
    expect(casts).toEqual([]);
  });

  it('finds `x as never` and `<never>x`, not the words in a comment or a string', () => {
    const text = "// x as never\nconst s = 'as never';\nexport const a = port(client as never);\nexport const b = <never>client;\n";
    expect(castsToNever('planted.ts', text)).toEqual(['3: client as never', '4: <never>client']);
  });
});
