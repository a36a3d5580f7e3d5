/**
 * The pages (src/format/html/) are escaped by construction (issue 42, item
 * 2): markup is written only inside the `html` tag, which escapes every value
 * put into it. `npm run lint` fails on markup anywhere else there (and in the
 * fairness page, src/fairness/html.ts): a string or an untagged template with
 * `<` and a letter, `/`, `!` or `?` (the way `rank` once reached the page raw). Linted as text at a path inside src/format/html/, as eslint sees a
 * real file there.
 */
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

async function errors(code: string, filePath = 'src/format/html/probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('npm run lint: markup in src/format/html/ only through the html tag', () => {
  it.each([
    ['an untagged template', 'export const row = (rank: number) => `<td>${rank}</td>`;\n'],
    ['a string joined around a value', "export const row = (rank: number) => '<td>' + rank + '</td>';\n"],
    ['another tag', 'export const row = (rank: number) => String.raw`<td>${rank}</td>`;\n'],
  ])('%s is an error', async (_what, code) => {
    const found = await errors(code);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatch(/only inside html`…`/);
  });

  it('the tag is not, nor a comparison, nor text without markup', async () => {
    const code = "import { html } from './html.js';\nexport const row = (rank: number) => (rank < 3 ? html`<td>${rank}</td>` : `#${rank} ↔ – <0.0001`);\n";
    expect(await errors(code)).toEqual([]);
  });

  it('the fairness page is held to it too', async () => {
    const found = await errors('export const row = (n: number) => `<td>${n}</td>`;\n', 'src/fairness/html.ts');
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) expect(m).toMatch(/only inside html`…`/);
  });

  it("the floor's own rule still holds there (the html rule adds to it)", async () => {
    expect(await errors("export const load = () => import('../../commands/table.js');\n")).toEqual([expect.stringMatching(/may import only/)]);
  });

  it('every page file lints clean', async () => {
    const dir = `${root}src/format/html/`;
    const results = await eslint.lintFiles([...readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => dir + f), `${root}src/fairness/html.ts`]);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  });
});
