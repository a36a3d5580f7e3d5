/**
 * `fixtures/` holds only what a person needs (issue 48, item 3;
 * docs/architecture.md, "Files, by who needs them"): every file under it is
 * named by a `--help` example in src/, the README or docs/, and those are the
 * files docs/architecture.md lists. The corpus the tests read lives under
 * test/fixtures/, the stub's seed beside the stub (src/stub/seed.json).
 * That the package ships only these: test/lib/pack.test.ts packs it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const filesUnder = (dir: string, ext = '') =>
  (readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => join(e.parentPath, e.name).slice(ROOT.length + 1).replaceAll('\\', '/'));

const FIXTURES = filesUnder('fixtures').map((f) => f.slice('fixtures/'.length)).sort();
const text = (files: string[]) => files.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
const SOURCES = text(filesUnder('src', '.ts'));
const DOCS = text(['README.md', ...filesUnder('docs', '.md')]);

describe('fixtures/', () => {
  it('holds the files docs/architecture.md lists, no more', () => {
    const section = /Files, by who needs them:([\s\S]*?)\n\n/.exec(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))?.[1] ?? '';
    const listed = /`fixtures\/` holds only[^(]*\(([^)]*)\)/.exec(section)?.[1] ?? '';
    expect([...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()).toEqual(FIXTURES);
  });

  it.each(FIXTURES)('%s is named by a --help example, the README or docs/', (f) => {
    const named = (t: string) => t.includes(`fixtures/${f}`) || t.includes(`fixtures\\${f.replaceAll('/', '\\')}`);
    expect(named(SOURCES) || named(DOCS), `fixtures/${f} is named nowhere a person reads: move it under test/fixtures/`).toBe(true);
  });

  it('keeps neither the seed nor the corpus', () => {
    expect(existsSync(join(ROOT, 'src/stub/seed.json'))).toBe(true);
    expect(FIXTURES.filter((f) => f.endsWith('seed.json'))).toEqual([]);
    expect(filesUnder('test/fixtures').length).toBeGreaterThan(FIXTURES.length);
  });
});
