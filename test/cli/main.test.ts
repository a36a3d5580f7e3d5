/**
 * Depth 2: the whole CLI in-process (argv in, exit code and captured streams
 * out) against the stub on a loopback port.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { wireEntry } from '../../src/commands/kit/wire.js';
import { COMMANDS } from '../../src/commands/table.js';
import { runCli } from '../helpers/cli.js';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';

/** The commands of this part (others' commands have their own tests). */
const MINE = [
  'login', 'logout', 'config', 'whoami', 'health', 'accounts', 'users', 'teams', 'templates', 'assessments',
  'score-profiles', 'invitations', 'test-takers', 'profiles', 'api', 'completion',
];

let s: StubEnv;
beforeAll(async () => {
  s = await startStubEnv();
});
afterAll(async () => {
  await s?.close();
});

describe('jobfit in-process', () => {
  it('teams -o json: the envelope on stdout, nothing else anywhere', async () => {
    const r = await runCli(['teams', '-o', 'json'], { env: s.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).object).toBe('list');
    expect(r.stderr).toBe('');
  });

  it('the aliases --help names work: scorecards and jobfit, as commands and after help', async () => {
    for (const [alias, usage] of [['scorecards', 'scorecard|scorecards'], ['jobfit', 'job-fit|jobfit']]) {
      const h = await runCli([alias, '--help'], { env: s.env });
      expect(h.code, h.stderr).toBe(0);
      expect(h.stdout).toContain(`Usage: jobfit ${usage} [options] [ids...]`);
      expect((await runCli(['help', alias], { env: s.env })).stdout).toBe(h.stdout);
    }
    const r = await runCli(['scorecards', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThan(0);
  });

  it('global options after the command, --fields and csv', async () => {
    const r = await runCli(['teams', '--fields', 'id,display_name', '-o', 'csv'], { env: s.env });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('id,display_name');
  });

  it('-v: the mode line and a masked trace on stderr, stdout unchanged', async () => {
    const r = await runCli(['-v', 'accounts', '-o', 'json'], { env: s.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).object).toBe('account');
    expect(r.stderr).toMatch(/^\[live mode\] JOBFIT_API_KEY · /m);
    expect(r.stderr).toContain('→ GET /v2/accounts');
    expect(r.stderr).not.toContain(s.live);
  });

  it('-q on a terminal: no mode line', async () => {
    const r = await runCli(['-q', 'teams'], { env: s.env, tty: true, noColor: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('--test picks the test mode (the env key must agree)', async () => {
    const r = await runCli(['--test', 'teams'], { env: { ...s.env, JOBFIT_API_KEY: s.test } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).mode).toBe('test');
    const clash = await runCli(['--test', 'teams'], { env: s.env });
    expect(clash.code).toBe(4);
  });

  it.each([
    // --team takes a name too (issue 14 item 9): one that matches none is the usage error.
    [['invitations', 'list', '--team', 'Nowhere Team'], /^Error: No team named "Nowhere Team" in the account\.$/m],
    [['invitations', 'get', 'x1'], /^Error: ID: ID must be a positive integer\.$/m],
    [['invitations', 'update', '12'], /^Error: Nothing to update: give at least one field flag\.$/m],
    [['invitations', 'update', '12', '--email', 'not-an-email'], /^Error: --email: not a valid email address\.$/m],
    [['api', 'GET', '/teams', '--data', '{}'], /^Error: --data cannot be sent with GET\.$/m],
    [['completion', 'tcsh'], /^Error: No completion for "tcsh"/m],
    [['teams', '--nope'], /unknown option '--nope'/],
  ])('usage errors exit 2 in one sentence: %j', async (argv, message) => {
    const r = await runCli(argv, { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('the service refusing: exit 1 with the API message', async () => {
    const r = await runCli(['invitations', 'get', '999999'], { env: s.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: Invitation not found \(400 from GET \/invitations\/999999\)$/m);
  });

  it('a key the service does not know: exit 4', async () => {
    const r = await runCli(['teams'], { env: { ...s.env, JOBFIT_API_KEY: 'sk_live_unknownunknownunknown' } });
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('unknownunknownunknown');
  });

  it('api prints the raw body and exits 1 on a 400', async () => {
    const ok = await runCli(['api', 'GET', '/invitations', '--query', 'email=@gmail.com'], { env: s.env });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).data.every((i: { email: string }) => /@gmail\.com$/i.test(i.email))).toBe(true);
    const bad = await runCli(['api', 'GET', '/test-takers/1/scorecard'], { env: s.env });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toHaveProperty('error');
    expect(bad.stderr).toMatch(/^Error: .*\(400 from GET \/test-takers\/1\/scorecard\)$/m);
  });

  it('api --data @file', async () => {
    const list = JSON.parse((await runCli(['invitations', 'list', '-o', 'json'], { env: s.env })).stdout);
    const file = join(s.tmp(), 'body.json');
    writeFileSync(file, JSON.stringify({ custom_id: 'FROM-FILE' }));
    const r = await runCli(['api', 'PUT', `/invitations/${list.data[0].id}`, '--data', `@${file}`], { env: s.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).custom_id).toBe('FROM-FILE');
  });

  it('config round trip through the CLI, with a config dir kept across runs', async () => {
    const configDir = s.tmp();
    expect((await runCli(['config', 'set', 'base_url', s.stub.url, '-p', 'local'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'set', 'live_key', '-', '-p', 'local'], { configDir, stdin: s.live })).code).toBe(0);
    const who = await runCli(['whoami', '-o', 'json'], { configDir });
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ profile: 'local', key_source: expect.stringContaining('profile "local"') });
    const path = await runCli(['config', 'path'], { configDir });
    expect(path.stdout.trim()).toBe(join(configDir, 'config.json'));
    expect((await runCli(['logout'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'list', '-o', 'json'], { configDir })).stdout.trim()).toBe('[]');
  });
});

describe('--all', () => {
  const total = async (path: string) => JSON.parse((await runCli(['api', 'GET', path], { env: s.env })).stdout).total_count as number;
  const ids = (ndjson: string) => ndjson.trim().split('\n').map((l) => JSON.parse(l).id);

  it.each([
    ['invitations', '/invitations'],
    ['test-takers', '/test-takers'],
    ['profiles', '/career-navigation-profiles'],
  ])('%s list --all returns every item once, past the cap', async (noun, path) => {
    const want = await total(path);
    expect(want).toBeGreaterThan(50);
    const r = await runCli([noun, 'list', '--all', '-o', 'ndjson'], { env: s.env });
    expect(r.code).toBe(0);
    const got = ids(r.stdout);
    expect(got).toHaveLength(want);
    expect(new Set(got).size).toBe(want);
    expect(r.stderr).not.toMatch(/Showing \d+ of/);
  });

  it('--all as JSON is one valid list envelope', async () => {
    const r = await runCli(['invitations', 'list', '--all', '--team', '12', '-o', 'json'], { env: s.env });
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env).toMatchObject({ object: 'list', has_more: false, mode: 'live' });
    expect(env.data.every((i: { team: { id: number } }) => i.team.id === 12)).toBe(true);
    expect(env.total_count).toBe(env.data.length);
  });

  it('--all with an email filter keeps only matches', async () => {
    const r = await runCli(['test-takers', 'list', '--all', '--email', 'GMAIL', '-o', 'ndjson'], { env: s.env });
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.email.toLowerCase()).toContain('gmail');
  });
});

describe('help', () => {
  it.each(['exit-codes', 'environment', 'output', 'modes'])('jobfit help %s', async (topic) => {
    const r = await runCli(['help', topic]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(100);
  });

  it('help exit-codes lists every code', async () => {
    const r = await runCli(['help', 'exit-codes']);
    for (const code of ['0', '1', '2', '3', '4', '5', '129', '130', '143']) expect(r.stdout).toMatch(new RegExp(`^  ${code}\\s`, 'm'));
  });

  it('help environment names every JOBFIT_* variable the code reads', async () => {
    const r = await runCli(['help', 'environment']);
    const read = new Set(
      execFileSync('git', ['grep', '-hoE', 'env(\\.|\\[.)JOBFIT_[A-Z_]+|\'JOBFIT_[A-Z_]+\'', '--', 'src'], { encoding: 'utf8' })
        .match(/JOBFIT_[A-Z_]+/g),
    );
    // Error codes the client gives its own failures, not variables.
    for (const code of ['JOBFIT_TOTAL_TIMEOUT', 'JOBFIT_TOO_LARGE', 'JOBFIT_UNKNOWN_ENCODING', 'JOBFIT_PROXY_CLOSED', 'JOBFIT_PROXY_REFUSED']) read.delete(code);
    for (const name of ['JOBFIT_TIMEOUT', 'JOBFIT_MAX_RETRIES', 'JOBFIT_BREAKER_SECONDS']) expect(read).toContain(name);
    expect([...read].filter((name) => !new RegExp(`\\b${name}\\b`).test(r.stdout))).toEqual([]);
  });

  it('help nonsense: exit 2, one sentence on stderr, nothing on stdout', async () => {
    const r = await runCli(['help', 'nonsense']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: "nonsense" is neither a command nor a help topic \(topics: exit-codes, environment, output, modes; commands: jobfit --help\)\.\n$/);
  });

  it("commander's own errors read Error: like ours", async () => {
    for (const argv of [['teams', '--nope'], ['nonsense'], ['invitations', 'show']]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(/^Error: /);
    }
  });

  it('--help prints no commander defaults such as (default: [])', async () => {
    for (const argv of [['api', '--help'], ['stub', 'serve', '--help'], ['webhook', 'listen', '--help'], ['stub', 'complete', '--help']]) {
      const r = await runCli(argv);
      expect(r.code).toBe(0);
      expect(r.stdout, argv.join(' ')).not.toMatch(/\(default: [["\d]/);
    }
    expect((await runCli(['stub', 'serve', '--help'])).stdout).toMatch(/--port <port> +port to listen on \(default 4010; 0 picks a free one\)/);
  });

  it('jobfit help teams is jobfit teams --help', async () => {
    const r = await runCli(['help', 'teams']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: jobfit teams');
    expect(r.stdout).toContain('$ jobfit teams -o json');
  });

  it('every command and subcommand of this part has examples in --help', async () => {
    const missing: string[] = [];
    for (const entry of COMMANDS.filter((c) => MINE.includes(c.name))) {
      const scratch = new Command('jobfit');
      await wireEntry(scratch, entry, { context: () => { throw new Error('not run'); } });
      const walk = async (path: string[]) => {
        const r = await runCli([...path, '--help']);
        if (r.code !== 0 || !/\nExamples:\n {2}\$ .*jobfit /.test(r.stdout)) missing.push(path.join(' '));
      };
      for (const c of scratch.commands) {
        await walk([c.name()]);
        for (const sub of c.commands) await walk([c.name(), sub.name()]);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('completion', () => {
  const complete = (script: string, line: string[]) =>
    execFileSync(
      'bash',
      ['-c', `source "$1"; COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _jobfit; printf '%s\\n' "\${COMPREPLY[@]}"`, 'x', script],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n');

  it('bash: commands, subcommands, flags and -o values', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.code).toBe(0);
    const file = join(s.tmp(), 'jobfit.bash');
    writeFileSync(file, r.stdout);
    execFileSync('bash', ['-n', file]);
    expect(complete(file, ['jobfit', 'inv'])).toEqual(expect.arrayContaining(['invitations']));
    expect(complete(file, ['jobfit', 'invitations', ''])).toEqual(expect.arrayContaining(['list', 'get', 'update']));
    expect(complete(file, ['jobfit', 'invitations', 'update', '12', '--send-'])).toEqual(
      expect.arrayContaining(['--send-via-email', '--send-via-sms', '--send-congrats']),
    );
    expect(complete(file, ['jobfit', '-p', 'work', 'invitations', 'list', '--a'])).toEqual(['--all']);
    expect(complete(file, ['jobfit', 'teams', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv', 'xlsx', 'html']);
    expect(complete(file, ['jobfit', 'completion', ''])).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    // Other parts' commands come from the same table.
    expect(complete(file, ['jobfit', 'st'])).toEqual(expect.arrayContaining(['stub']));
  });

  const which = (shell: string) => {
    try {
      execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  it.skipIf(skipBecause(!which('zsh') && 'the zsh completion test needs zsh'))('zsh: the script runs, and completes commands, subcommands, flags and values', async () => {
    const file = join(s.tmp(), '_jobfit');
    writeFileSync(file, (await runCli(['completion', 'zsh'])).stdout);
    execFileSync('zsh', ['-n', file]);
    // zsh's completion builtins, replaced by ones that print what they are given.
    const harness = `compdef() { :; }
compadd() { shift $(( \${@[(i)--]} )); print -l -- "$@"; }
_describe() { print -l -- \${(P)4}; }
_files() { print FILES; }
source "$1"; shift; words=("$@"); CURRENT=$#; _jobfit`;
    const complete = (...w: string[]) => execFileSync('zsh', ['-c', harness, 'x', file, ...w], { encoding: 'utf8' }).trim().split('\n');
    expect(complete('jobfit', 'inv')).toEqual(expect.arrayContaining([expect.stringMatching(/^invitations:List, show and update/)]));
    expect(complete('jobfit', 'invitations', '')).toEqual(expect.arrayContaining([expect.stringMatching(/^update:/)]));
    expect(complete('jobfit', '-p', 'work', 'invitations', 'list', '--a')).toContain('--all');
    expect(complete('jobfit', 'teams', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv', 'xlsx', 'html']);
  });

  it.skipIf(skipBecause(!which('fish') && 'the fish completion test needs fish'))('fish: the script loads and completes', async () => {
    const file = join(s.tmp(), 'jobfit.fish');
    writeFileSync(file, (await runCli(['completion', 'fish'])).stdout);
    execFileSync('fish', ['-n', file]);
    const complete = (line: string) =>
      execFileSync('fish', ['-c', `source ${file}; complete -C "${line}"`], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]);
    expect(complete('jobfit invitations ')).toEqual(expect.arrayContaining(['list', 'get', 'update']));
    expect(complete('jobfit invitations update 1 --send')).toEqual(expect.arrayContaining(['--send-via-email', '--send-via-sms', '--send-congrats']));
    expect(complete('jobfit -o ')).toEqual(expect.arrayContaining(['table', 'json', 'ndjson', 'csv']));
    expect(complete('jobfit completion ')).toEqual(['bash', 'fish', 'powershell', 'zsh']);
  });

  it('zsh and fish scripts name every command', async () => {
    const zsh = (await runCli(['completion', 'zsh'])).stdout;
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(zsh.startsWith('#compdef jobfit')).toBe(true);
    for (const name of MINE) {
      expect(zsh).toContain(`'${name}:`);
      expect(fish).toContain(`-a ${name} -d`);
    }
    expect(fish).toContain("complete -c jobfit -s o -l output -x -a 'table json ndjson csv xlsx html'");
  });
});
