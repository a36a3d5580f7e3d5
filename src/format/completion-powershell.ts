/**
 * PowerShell completion (Windows PowerShell 5.1 and PowerShell 7 on any
 * platform), from the same spec as bash, zsh and fish (completion.ts): the
 * commands, subcommands, flags, choices and value kinds go into the script as
 * one JSON document, and one native argument completer walks the words typed
 * so far the way the bash script does. Values that live in the service come
 * from `jobfit completion --values KIND`; they are a stranger's text, so they
 * are offered quoted (single quotes, a quote doubled) unless plainly a word, and
 * never with a control character. After a flag that takes a file or a folder
 * the completer offers nothing, and PowerShell completes paths itself.
 */
import { allValueFlags, type CompletionCommand, type CompletionSpec, choiceFlags, flagNames, flagsByValues } from './completion.js';

/** The data the PowerShell completer reads (`c`ommands: `d`escription, `f`lags, `a`rgument choices, `s`ubcommands). */
export interface PowerShellSpec {
  globals: string[];
  commands: Record<string, { d: string; f: string[]; a?: string[]; s?: Record<string, { d: string; f: string[] }> }>;
  /** Flags that take a value: the word after one is not a command. */
  valueFlags: string[];
  choices: Record<string, string[]>;
  /** Flags whose values come from the service: the kind to ask `completion --values` for. */
  values: Record<string, string>;
  /** Flags that take a file or a folder: PowerShell's own path completion. */
  paths: string[];
}

function commandData(c: CompletionCommand): PowerShellSpec['commands'][string] {
  const out: PowerShellSpec['commands'][string] = { d: c.description, f: flagNames(c.flags) };
  if (c.argChoices?.length) out.a = c.argChoices;
  if (c.subcommands.length) out.s = Object.fromEntries(c.subcommands.map((s) => [s.name, { d: s.description, f: flagNames(s.flags) }]));
  return out;
}

export function powerShellSpec(spec: CompletionSpec): PowerShellSpec {
  const byValues = flagsByValues(spec);
  const values: Record<string, string> = {};
  for (const [kind, names] of byValues) if (!['file', 'dir', 'none'].includes(kind)) for (const n of names) values[n] = kind;
  const choices: Record<string, string[]> = {};
  for (const f of choiceFlags(spec)) for (const n of f.names) choices[n] ??= f.choices;
  return {
    globals: flagNames(spec.globals),
    commands: Object.fromEntries(spec.commands.map((c) => [c.name, commandData(c)])),
    valueFlags: allValueFlags(spec),
    choices,
    values,
    paths: [...(byValues.get('file') ?? []), ...(byValues.get('dir') ?? [])],
  };
}

const COMPLETER = String.raw`
  $prop = { param($o, $k) if ($k -and $o -and $o.PSObject.Properties[$k]) { $o.PSObject.Properties[$k].Value } }
  $before = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -le $cursorPosition } | ForEach-Object {
    if ($_ -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $_.Value } else { $_.Extent.Text } })
  if ($wordToComplete -and $before.Count -gt 1) { $before = @($before | Select-Object -SkipLast 1) }
  $prev = if ($before.Count -gt 1) { $before[-1] } else { '' }
  $candidates = @()
  if (& $prop $spec.choices $prev) { $candidates = @(& $prop $spec.choices $prev) }
  elseif ($spec.paths -contains $prev) { return }
  elseif (& $prop $spec.values $prev) { $candidates = @(& $before[0] completion --values (& $prop $spec.values $prev) 2>$null) }
  elseif ($spec.valueFlags -contains $prev) { return }
  else {
    $cmd = ''; $sub = ''
    for ($i = 1; $i -lt $before.Count; $i++) {
      $w = [string]$before[$i]
      if ($spec.valueFlags -contains $w) { $i++; continue }
      if ($w.StartsWith('-')) { continue }
      if (-not $cmd) { $cmd = $w } elseif (-not $sub) { $sub = $w }
    }
    $c = & $prop $spec.commands $cmd
    $dash = $wordToComplete.StartsWith('-')
    if (-not $cmd) { $candidates = @($spec.commands.PSObject.Properties.Name) }
    elseif (-not $c) { return }
    elseif (& $prop $c.s $sub) { $candidates = @((& $prop $c.s $sub).f) }
    elseif ($c.s -and -not $sub -and -not $dash) { $candidates = @($c.s.PSObject.Properties.Name) }
    elseif ($c.a -and -not $sub -and -not $dash) { $candidates = @($c.a) }
    else { $candidates = @($c.f) }
    if ($dash) { $candidates += @($spec.globals) }
  }
  $candidates | Where-Object { $_ -is [string] -and $_.StartsWith($wordToComplete, [System.StringComparison]::OrdinalIgnoreCase) -and $_ -notmatch '[\p{Cc}\p{Cf}]' } | ForEach-Object {
    $text = if ($_ -match '^[\w.:/+-][\w@.:/+-]*$') { $_ } else { "'" + ($_ -replace "'", "''") + "'" }
    [System.Management.Automation.CompletionResult]::new($text, $_, 'ParameterValue', $_)
  }
`;

/**
 * The script: one Register-ArgumentCompleter for jobfit (and jobfit.exe, .cmd,
 * .ps1: the npm shims and the standalone executable). The JSON sits in a
 * single-quoted here-string, literal to PowerShell; JSON.stringify writes it on
 * one line (a line break inside a string is `\n`), so no line of it can be the
 * here-string's end.
 */
export function powershellScript(spec: CompletionSpec): string {
  return `# PowerShell completion for jobfit. Load it now:   jobfit completion powershell | Out-String | Invoke-Expression
# or for every session:  jobfit completion powershell >> $PROFILE
Register-ArgumentCompleter -Native -CommandName 'jobfit', 'jobfit.exe', 'jobfit.cmd', 'jobfit.ps1' -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $spec = ConvertFrom-Json @'
${JSON.stringify(powerShellSpec(spec))}
'@
${COMPLETER.trim().replace(/^/gm, '  ')}
}
`;
}
