/**
 * Every `$ …` line of every command's --help runs as written (issue 30 item 5):
 * with the built binary on the PATH as `jobfit`, in bash, in a folder that holds
 * the repository's fixtures/, against the embedded stub of a fresh config
 * directory (no configuration: the seed of fixtures/seed.json). Each example
 * starts from the seed, so an id in an example is one the seed has.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/table.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { runCli } from '../helpers/cli.js';

/**
 * Examples that cannot run here, each with its reason. Kept short: anything
 * else that fails is a wrong example, to be fixed in src/commands/.
 */
const EXEMPT: Record<string, string> = {
  'jobfit login': 'interactive: asks for the base URL and keys on a terminal',
  'jobfit webhook listen': 'long-running: listens until stopped',
  'jobfit webhook listen --forward-to http://localhost:3000/webhooks': 'long-running, and forwards to an app of the reader',
  'jobfit webhook listen --events invitation.accepted,test_taker.created': 'long-running: listens until stopped',
  'jobfit webhook listen --forward-to http://localhost:3000/webhooks --log events.ndjson': 'long-running, and forwards to an app of the reader',
  'jobfit webhook listen -o ndjson | jq .type': 'long-running: listens until stopped',
  'jobfit webhook listen --sync results.sqlite': 'long-running: listens until stopped',
  'jobfit stub serve': 'long-running: serves until stopped',
  'jobfit stub serve --port 4010': 'long-running: serves until stopped',
  'jobfit stub serve --port 0 --data ./stub-data': 'long-running: serves until stopped',
  'jobfit stub serve --faults "429=0.1,seed=7"': 'long-running: serves until stopped',
  'jobfit stub serve --minimal-fields': 'long-running: serves until stopped',
  'jobfit sync --db results.sqlite --watch 15m': 'long-running: syncs every 15 minutes until stopped',
  'jobfit stub seed --test-takers 100000': 'long: writes 100,000 test takers (test/stub covers seeding)',
};

/** Every `$ ` line of the --help of the program, each command and each subcommand, with where it was found. */
async function allExamples(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const collect = async (path: string[]) => {
    const r = await runCli([...path, '--help']);
    expect(r.code, `${path.join(' ')} --help`).toBe(0);
    for (const m of r.stdout.matchAll(/^ {2}\$ (.+)$/gm)) if (!found.has(m[1])) found.set(m[1], ['jobfit', ...path, '--help'].join(' '));
    return r.stdout;
  };
  await collect([]);
  for (const entry of COMMANDS) {
    const help = await collect([entry.name]);
    const commands = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
    for (const m of commands.matchAll(/^ {2}([a-z][a-z-]*)/gm)) if (m[1] !== 'help') await collect([entry.name, m[1]]);
  }
  return found;
}

let cli: BuiltCli;
let pathDir: string;
let examples: Map<string, string>;
beforeAll(async () => {
  cli = buildCli();
  pathDir = join(cli.dir, 'path');
  mkdirSync(pathDir);
  writeFileSync(join(pathDir, 'jobfit'), `#!/bin/sh\nexec "${process.execPath}" "${cli.bin}" "$@"\n`);
  chmodSync(join(pathDir, 'jobfit'), 0o755);
  examples = await allExamples();
}, 120_000);
afterAll(() => cli?.close());

describe('--help examples', () => {
  it('there are examples, and every exemption names one that exists', () => {
    expect(examples.size).toBeGreaterThan(100);
    expect(Object.keys(EXEMPT).filter((e) => !examples.has(e))).toEqual([]);
  });

  it('every example runs as written on the embedded stub', () => {
    const failed: string[] = [];
    for (const [example, where] of examples) {
      if (Object.hasOwn(EXEMPT, example)) {
        console.log(`not run: ${example} (${EXEMPT[example]})`);
        continue;
      }
      const work = mkdtempSync(join(cli.dir, 'run-'));
      try {
        // The repository's fixtures/, where an example finds the files it names.
        spawnSync('cp', ['-R', join(cli.dir, 'fixtures'), join(work, 'fixtures')]);
        const r = spawnSync('bash', ['-o', 'pipefail', '-c', example], {
          cwd: work,
          encoding: 'utf8',
          timeout: 60_000,
          env: { PATH: `${pathDir}:${process.env.PATH ?? ''}`, HOME: join(work, 'home'), JOBFIT_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1', CI: '1' },
        });
        if (r.status !== 0) failed.push(`${example}\n    (from ${where}) exit ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().split('\n').slice(0, 3).join(' / ')}`);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }
    expect(failed.join('\n')).toBe('');
  }, 600_000);
});
