/**
 * Every `$ …` line of every command's --help runs as written (issue 30 item 5):
 * with the built binary on the PATH as `jobfit`, in bash, in a folder that holds
 * the repository's fixtures/, against the embedded stub of a fresh config
 * directory (no configuration: the seed of src/stub/seed.json). Each help page
 * runs top to bottom from a fresh seed, as a reader would follow it, so an id in
 * an example is one the seed has, or one an example before it made.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/table.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { runCli } from '../helpers/cli.js';

/**
 * Examples that cannot run here, by the reason. Kept short: anything else that
 * fails is a wrong example, to be fixed in src/commands/.
 */
const EXEMPT: Array<[RegExp, string]> = [
  [/^jobfit login\b|\| jobfit login\b|^JOBFIT_API_KEY=\S+ jobfit login\b/, 'logs in to a real service (or asks on a terminal)'],
  [/^jobfit logout\b|^jobfit config get\b|\$KEY|^jobfit -p work whoami\b|^jobfit config list --profile work\b/, 'needs a profile `jobfit login` saved; with one, the embedded stub is not used'],
  [/^jobfit health --base-url https:\/\/api\.example\.com/, 'asks a real service'],
  [/^jobfit stub serve\b|^jobfit webhook listen(?! --print-secret$)|--watch /, 'long-running: serves, listens or watches until stopped'],
  [/postgres:\/\//, 'needs a PostgreSQL server'],
  [/\$SIG\b|--resend evt_|--signature "v1,K5oZ…"/, 'needs a delivery (its headers, its event id) the embedded stub has not made'],
  [/\$PROFILE\b/, "PowerShell's profile (test/commands/completion/powershell.test.ts holds the script)"],
  [/^jobfit stub seed --test-takers 100000$/, 'long: writes 100,000 test takers (test/stub covers seeding)'],
];
const exemption = (example: string) => EXEMPT.find(([re]) => re.test(example))?.[1];

/** The `$ ` lines of the --help of the program, each command and each subcommand: one list per page, in its order. */
async function allExamples(): Promise<Map<string, string[]>> {
  const pages = new Map<string, string[]>();
  const collect = async (path: string[]) => {
    const r = await runCli([...path, '--help']);
    expect(r.code, `${path.join(' ')} --help`).toBe(0);
    pages.set(['jobfit', ...path, '--help'].join(' '), [...r.stdout.matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1]));
    return r.stdout;
  };
  await collect([]);
  for (const entry of COMMANDS) {
    const help = await collect([entry.name]);
    const commands = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
    for (const m of commands.matchAll(/^ {2}([a-z][a-z-]*)/gm)) if (m[1] !== 'help') await collect([entry.name, m[1]]);
  }
  return pages;
}

function bash(example: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', example], {
      cwd,
      env: { PATH: `${pathDir}:${process.env.PATH ?? ''}`, HOME: join(cwd, 'home'), JOBFIT_CONFIG_DIR: join(cwd, 'config'), NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output = d.toString() + output));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

let cli: BuiltCli;
let pathDir: string;
let pages: Map<string, string[]>;
beforeAll(async () => {
  cli = buildCli();
  pathDir = join(cli.dir, 'path');
  mkdirSync(pathDir);
  writeFileSync(join(pathDir, 'jobfit'), `#!/bin/sh\nexec "${process.execPath}" "${cli.bin}" "$@"\n`);
  chmodSync(join(pathDir, 'jobfit'), 0o755);
  pages = await allExamples();
}, 120_000);
afterAll(() => cli?.close());

describe('--help examples', () => {
  it('there are examples, and every exemption is of one that exists', () => {
    const all = [...pages.values()].flat();
    expect(new Set(all).size).toBeGreaterThan(100);
    expect(EXEMPT.filter(([re]) => !all.some((e) => re.test(e))).map(([re]) => String(re))).toEqual([]);
  });

  it('every example runs as written on the embedded stub, each page top to bottom from a fresh seed', async () => {
    const failed: string[] = [];
    const notRun: string[] = [];
    const runPage = async ([page, lines]: [string, string[]]) => {
      // A folder of its own, holding the repository's fixtures/ (where examples find the files they name).
      const work = mkdtempSync(join(cli.dir, 'run-'));
      cpSync(join(cli.dir, 'fixtures'), join(work, 'fixtures'), { recursive: true });
      try {
        for (const example of lines) {
          const why = exemption(example);
          if (why) {
            notRun.push(`  ${example}  (${why})`);
            continue;
          }
          const r = await bash(example, work);
          if (r.code !== 0) failed.push(`${example}\n    (${page}) exit ${r.code}: ${r.output.trim().split('\n').slice(0, 3).join(' / ')}`);
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    };
    // Two pages at a time: the machine is shared.
    const queue = [...pages.entries()].filter(([, lines]) => lines.length > 0);
    await Promise.all([0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await runPage(next);
    }));
    console.log(`Not run (EXEMPT):\n${[...new Set(notRun)].join('\n')}`);
    expect(failed.join('\n')).toBe('');
  }, 600_000);
});
