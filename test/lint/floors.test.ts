/**
 * The floors of src/ are enforced by `npm run lint` (eslint.config.js): an
 * import that runs back up a floor is an error, static or lazy, and so is a
 * kit file that imports a noun (the rooms of commands/). Linted here
 * as text at a path inside src/, the way eslint sees a real file there.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../../', import.meta.url).pathname });

async function floorErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('npm run lint fails on an import that runs back up a floor', () => {
  it.each([
    ['src/core/upward.ts', "import { JobfitClient } from '../client/client.js';\nexport const c = JobfitClient;\n"],
    ['src/format/upward.ts', "import type { Context } from '../commands/kit/context.js';\nexport type C = Context;\n"],
    ['src/export/upward.ts', "export const load = () => import('../cli/main.js');\n"],
    ['src/bulk/upward.ts', "import { COMMANDS } from '../commands/table.js';\nexport const n = COMMANDS.length;\n"],
    ['src/stub/http/upward.ts', "import { forPerson } from '../../format/person-text.js';\nexport const f = forPerson;\n"],
    ['src/stub/upward.ts', "import { configDir } from '../config/paths.js';\nexport const d = configDir;\n"],
    ['src/commands/kit/upward.ts', "import { run } from '../../cli/main.js';\nexport const r = run;\n"],
  ])('%s', async (path, code) => {
    const errors = await floorErrors(path, code);
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(/may import only .*docs\/architecture\.md/);
  });

  it.each([
    ['src/commands/kit/noun.ts', "import { simpleList } from '../shared/simple-list.js';\nexport const s = simpleList;\n", /kit\/ is the toolkit/],
    ['src/commands/kit/lazy-noun.ts', "export const load = () => import('../invitations/list.js');\n", /kit\/ is the toolkit/],
    ['src/commands/shared/noun.ts', "import { run } from '../teams/list.js';\nexport const r = run;\n", /shared\/ may import the kit, never a noun/],
  ])('and the rooms of commands/: %s', async (path, code, message) => {
    const errors = await floorErrors(path, code);
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    ['src/commands/shared/ok.ts', "import { flag } from '../kit/flags.js';\nimport { printList } from '../../format/output.js';\nexport const x = [flag, printList];\n"],
    ['src/stub/ok.ts', "import { ROUTES } from '../api/routes.js';\nimport { UsageError } from '../core/errors.js';\nexport const x = [ROUTES, UsageError];\n"],
    ['src/commands/teams/ok.ts', "import { simpleList } from '../shared/simple-list.js';\nimport { printList } from '../../format/output.js';\nexport const x = [simpleList, printList];\n"],
    ['src/cli/ok.ts', "import { COMMANDS } from '../commands/table.js';\nexport const n = COMMANDS.length;\n"],
  ])('but not on one that runs down: %s', async (path, code) => {
    expect(await floorErrors(path, code)).toEqual([]);
  });
});
