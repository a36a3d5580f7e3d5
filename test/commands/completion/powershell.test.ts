/**
 * `jobfit completion powershell`: a Register-ArgumentCompleter script from the
 * same spec as bash, zsh and fish. No PowerShell runs here, so the script is
 * held to the spec: the JSON it carries names, for every command and
 * subcommand, exactly the flags the bash script (which bash runs in
 * test/cli/main.test.ts) offers there, the same -o choices and the same value
 * kinds; and the JSON cannot end its here-string early, whatever a description says.
 */
import { describe, expect, it } from 'vitest';
import { type PowerShellSpec, powershellScript } from '../../../src/format/completion-powershell.js';
import { runCli } from '../../helpers/cli.js';

const HERE = /ConvertFrom-Json @'\n(.*)\n'@\n/;

async function scripts(): Promise<{ ps: string; spec: PowerShellSpec; bash: string }> {
  const ps = await runCli(['completion', 'powershell']);
  expect(ps.code, ps.stderr).toBe(0);
  const bash = await runCli(['completion', 'bash']);
  return { ps: ps.stdout, spec: JSON.parse(HERE.exec(ps.stdout)![1]) as PowerShellSpec, bash: bash.stdout };
}

/** bash's `opts='…'` for a command (`    name) opts='…'`) or a subcommand (`        sub) opts='…'`), after its command's case. */
function bashFlags(bash: string, command: string, sub?: string): string[] {
  const from = bash.indexOf(`\n    ${command})`);
  expect(from, command).toBeGreaterThan(0);
  const rest = bash.slice(from);
  const m = sub ? new RegExp(`\\n        ${sub}\\) opts='([^']*)'`).exec(rest) : new RegExp(`^\\n    ${command}\\) opts='([^']*)'`).exec(rest);
  expect(m, `${command} ${sub ?? ''}`).not.toBeNull();
  return m![1].split(' ');
}

describe('completion powershell', () => {
  it('registers one native completer for jobfit, the npm shims and the executable', async () => {
    const { ps } = await scripts();
    expect(ps).toMatch(/^# PowerShell completion for jobfit\. Load it now: {3}jobfit completion powershell \| Out-String \| Invoke-Expression\n/);
    expect(ps).toContain("Register-ArgumentCompleter -Native -CommandName 'jobfit', 'jobfit.exe', 'jobfit.cmd', 'jobfit.ps1' -ScriptBlock {");
    expect(ps).toContain('param($wordToComplete, $commandAst, $cursorPosition)');
    expect(ps).toContain('[System.Management.Automation.CompletionResult]::new($text, $_, ');
    // Values from the service are asked of jobfit itself, as bash does.
    expect(ps).toContain('completion --values');
  });

  it('every command and subcommand offers the flags bash offers there; every command is named', async () => {
    const { spec, bash } = await scripts();
    const names = Object.keys(spec.commands);
    expect(names).toEqual(expect.arrayContaining(['invite', 'invitations', 'scorecard', 'job-fit', 'report', 'sync', 'stub', 'webhook', 'login', 'completion']));
    expect(bash).toContain(`'') opts='${names.join(' ')}'`);
    for (const [name, c] of Object.entries(spec.commands)) {
      if (c.s) {
        expect(bash).toContain(`'') opts='${Object.keys(c.s).join(' ')}'; [[ "$cur" == -* ]] && opts='${c.f.join(' ')}'`);
        for (const [sub, s] of Object.entries(c.s)) expect([name, sub, s.f]).toEqual([name, sub, bashFlags(bash, name, sub)]);
      } else {
        expect([name, c.f]).toEqual([name, bashFlags(bash, name)]);
      }
    }
    expect(spec.commands.completion.a).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect(bash).toContain(`opts="$opts ${spec.globals.join(' ')}"`);
  });

  it('the -o choices, the flags whose values come from the service, and the flags that take a file', async () => {
    const { spec } = await scripts();
    expect(spec.choices['-o']).toEqual(['table', 'json', 'ndjson', 'csv', 'xlsx', 'html']);
    expect(spec.choices['--output']).toEqual(spec.choices['-o']);
    expect(spec.values).toMatchObject({ '--sp': 'score-profiles', '--team': 'teams', '--template': 'templates', '--created-by': 'users' });
    expect(spec.paths).toEqual(expect.arrayContaining(['--csv', '--out']));
    for (const f of [...Object.keys(spec.values), ...spec.paths, '-o', '--profile']) expect(spec.valueFlags, f).toContain(f);
  });

  it("a description cannot end the here-string or run code: the JSON stays on one line", () => {
    const evil = "x\n'@\nRemove-Item -Recurse C:\\ # '@";
    const ps = powershellScript({ globals: [], commands: [{ name: 'teams', description: evil, flags: [], subcommands: [] }] });
    expect(ps.split('\n').filter((l) => l.startsWith("'@"))).toEqual(["'@"]);
    expect((JSON.parse(HERE.exec(ps)![1]) as PowerShellSpec).commands.teams.d).toBe(evil);
  });
});
