/**
 * docs/architecture.md says what holds; the claims a program can check are
 * checked here (issue 48, item 5):
 * - every file and folder it names (in backticks) exists: from the
 *   repository's root, or as the end of a tracked path (`core/session.ts` is
 *   src/core/session.ts); dist/ is the build's and is left out;
 * - its table of floors is the rule npm run lint enforces: each floor's
 *   folders and what they may import, as eslint.config.js (FLOORS) says them
 *   in its messages;
 * - every folder of src/ is on the table, but `types/` (no floor) and `mcp/`
 *   (not on a floor yet: the doc says why), which it names as such.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
/** The repository's files (no child process in the unit tier: read, not asked of git). */
const TRACKED = ['src', 'test', 'scripts', 'bench', 'docs', 'fixtures', 'bin'].flatMap((top) =>
  (readdirSync(join(ROOT, top), { recursive: true }) as string[]).map((f) => `${top}/${f.replaceAll('\\', '/')}`),
);

/** The paths the doc names: backticked tokens with a slash or a file extension, no spaces, no call or glob. */
function namedPaths(): string[] {
  const names = new Set<string>();
  for (const m of DOC.matchAll(/`([A-Za-z0-9_.][A-Za-z0-9_./-]*)`/g)) {
    const t = m[1];
    if (!t.includes('/') && !/\.(ts|mjs|cjs|js|md|json|csv|xlsx)$/.test(t)) continue;
    if (t.startsWith('dist/') || t.includes('..')) continue;
    names.add(t);
  }
  return [...names];
}

function exists(name: string): boolean {
  if (existsSync(join(ROOT, name))) return true;
  const bare = name.replace(/\/$/, '');
  return TRACKED.some((f) => f.endsWith(`/${bare}`) || f.includes(`/${bare}/`) || f.startsWith(`${bare}/`));
}

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const names = namedPaths();
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((n) => !exists(n))).toEqual([]);
  });

  it('its table of floors is what npm run lint enforces (eslint.config.js, FLOORS)', async () => {
    const rows = floorRows();
    const floorOf = new Map<string, number>();
    for (const r of rows) for (const d of r.dirs) floorOf.set(d, r.floor);
    const eslint = new ESLint({ cwd: ROOT });
    for (const r of rows) {
      for (const dir of r.dirs) {
        const said = r.may === 'nothing' ? [] : r.may === 'below' ? [...floorOf].filter(([d, f]) => f < r.floor && !r.but.includes(d)).map(([d]) => d) : r.may;
        expect({ dir, may: [...said].sort() }).toEqual({ dir, may: (await linted(eslint, dir)).sort() });
      }
    }
  });

  it('every folder of src/ is on the table, or the doc says why not (types/, mcp/)', () => {
    const rows = floorRows().flatMap((r) => r.dirs);
    const dirs = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const offTable = dirs.filter((d) => !rows.includes(d));
    expect(offTable.sort()).toEqual(['mcp', 'types']);
    expect(DOC).toMatch(/`src\/types\/` is no floor/);
    expect(DOC).toMatch(/`src\/mcp\/`[^]*is not on a floor yet/);
  });
});

interface FloorRow {
  floor: number;
  dirs: string[];
  /** The folders named, 'below' (every folder of a lower floor, but those in `but`), or 'nothing'. */
  may: string[] | 'below' | 'nothing';
  but: string[];
}

/** The rows of the table under "## The floors": | floor | folder | may import | owns |. */
function floorRows(): FloorRow[] {
  const section = DOC.slice(DOC.indexOf('## The floors'), DOC.indexOf('## The rooms'));
  const rows: FloorRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!/^\d+$/.test(cells[1] ?? '')) continue;
    const dirs = [...cells[2].matchAll(/`src\/([a-z]+)\/`/g)].map((m) => m[1]);
    const text = cells[3].replaceAll('*', '');
    const but = [...text.matchAll(/`([a-z]+)\/`/g)].map((m) => m[1]);
    const may: FloorRow['may'] = /^nothing/.test(text) ? 'nothing' : /^every folder/.test(text) ? 'below' : text.replace(/ only$/, '').split(/,\s*|\s+and\s+/).map((s) => s.trim());
    rows.push({ floor: Number(cells[1]), dirs, may, but });
  }
  expect(rows.length).toBeGreaterThan(10);
  return rows;
}

/** What the lint lets src/<dir>/ import, read from its floor rule's message. */
async function linted(eslint: ESLint, dir: string): Promise<string[]> {
  const config = await eslint.calculateConfigForFile(join(ROOT, 'src', dir, 'any.ts'));
  const rule = config.rules?.['no-restricted-imports'] as [unknown, { patterns: Array<{ message: string }> }] | undefined;
  const message = rule?.[1].patterns.map((p) => p.message).find((m) => m.startsWith(`src/${dir}/ may import only`));
  if (!message) throw new Error(`no floor rule for src/${dir}/ in eslint.config.js`);
  return message.includes('nothing of ours') ? [] : [...message.matchAll(/src\/([a-z]+)\//g)].map((m) => m[1]).slice(1);
}
