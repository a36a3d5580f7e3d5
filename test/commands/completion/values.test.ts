/**
 * Issue 14 item 15: TAB after --sp offers the service's score profiles (not
 * file names), team names come quoted, files only where a file is asked for.
 * bash runs the generated script; `jobfit` on its PATH is this source tree.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { ROOT } from '../../e2e/built.js';
import { type StubEnv, startStubEnv } from '../stub-env.js';

const run = promisify(execFile);
let s: StubEnv;
let dir: string;
let script: string;
let configDir: string;

beforeAll(async () => {
  s = await startStubEnv();
  dir = s.tmp('jobfit-completion-');
  configDir = join(dir, 'config');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'cwd'));
  // Files that would match what is typed, were files offered.
  writeFileSync(join(dir, 'cwd', 'sales-notes.txt'), '');
  writeFileSync(join(dir, 'cwd', 'people.csv'), '');
  writeFileSync(join(dir, 'bin', 'jobfit'), `#!/bin/sh\ncd "${ROOT}" && exec "${process.execPath}" --import tsx "${join(ROOT, 'src/cli/entry.ts')}" "$@"\n`);
  chmodSync(join(dir, 'bin', 'jobfit'), 0o755);
  script = join(dir, 'jobfit.bash');
  writeFileSync(script, (await runCli(['completion', 'bash'])).stdout);
  // A profile, as after `jobfit login`.
  await runCli(['config', 'set', 'base_url', s.stub.url], { configDir });
  await runCli(['config', 'set', 'live_key', s.live], { configDir });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function complete(words: string[]): Promise<string[]> {
  const line = words.map((w) => `'${w}'`).join(' ');
  const r = await run('bash', ['-c', `source "$1"; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _jobfit; printf '%s\\n' "\${COMPREPLY[@]}"`, 'x', script], {
    cwd: join(dir, 'cwd'),
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, HOME: dir, JOBFIT_CONFIG_DIR: configDir },
    encoding: 'utf8',
  });
  return r.stdout.split('\n').filter(Boolean);
}

describe('15. completion from the service, files only where a file is asked for', () => {
  it('--sp offers the score profiles of the service, never file names', async () => {
    const got = await complete(['jobfit', 'scorecard', '12', '--sp', 'sa']);
    expect(got).toContain('sales-rep');
    expect(got).not.toContain('sales-notes.txt');
    const all = await complete(['jobfit', 'scorecard', '12', '--sp', '']);
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((w) => !w.includes('.'))).toBe(true);
  }, 30_000);

  it('--team offers team names, quoted for the shell, and ids', async () => {
    const got = await complete(['jobfit', 'invitations', 'list', '--team', 'Head']);
    expect(got).toContain('Head\\ Office\\ Recruiting');
  }, 30_000);

  it('a file where a file is asked for, nothing for other values', async () => {
    expect(await complete(['jobfit', 'invite', '--csv', 'peo'])).toEqual(['people.csv']);
    expect(await complete(['jobfit', 'invite', '--first-name', 'sa'])).toEqual([]);
    expect(await complete(['jobfit', 'invitations', 'get', 'sa'])).toEqual([]);
  }, 30_000);

  it('the answers are cached briefly, owner-only', async () => {
    await complete(['jobfit', 'scorecard', '1', '--sp', '']);
    const cache = join(configDir, 'cache', 'completion.json');
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    const r = await runCli(['completion', '--values', 'score-profiles'], { configDir });
    expect(r.stdout.split('\n')).toContain('sales-rep');
    expect((await runCli(['completion', '--values', 'nope'], { configDir })).code).toBe(2);
  }, 30_000);
});
