// The standalone executable's bundle gives commander a stand-in for
// node:child_process with spawn alone (scripts/commander-child-process.mjs):
// this fails when commander calls anything else of it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const commanderDir = dirname(createRequire(import.meta.url).resolve('commander'));

describe("commander's use of node:child_process", () => {
  it('is childProcess.spawn only, which the stand-in provides', async () => {
    const standInFile = '../../scripts/commander-child-process.mjs';
    const { default: standIn } = (await import(standInFile)) as { default: Record<string, unknown> };
    const source = readFileSync(join(commanderDir, 'lib', 'command.js'), 'utf8');
    expect(source).toContain("import childProcess from 'node:child_process';");
    const used = new Set([...source.matchAll(/\bchildProcess\.(\w+)/g)].map((m) => m[1]));
    expect([...used]).toEqual(['spawn']);
    expect(Object.keys(standIn)).toEqual([...used]);
  });
});
