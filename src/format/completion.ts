/**
 * Shell completion scripts for bash, zsh and fish (PowerShell's, from the same
 * spec: completion-powershell.ts). The lists of commands,
 * subcommands and flags are written into the script from the commander tree
 * when `jobfit completion <shell>` runs, so completing them never starts node.
 * Only values that live in the service (after --sp, --team, --template,
 * --created-by) ask `jobfit completion --values KIND`, which caches them for a
 * few minutes. Files are offered only after a flag that takes a file (its
 * placeholder says <file>) and folders after <dir>; nothing after other flags.
 */

export interface FlagSpec {
  /** `--team`, plus `-o` style short forms. */
  names: string[];
  takesValue: boolean;
  choices?: string[];
  description: string;
  /** What its value completes to: a file, a folder, or words from the service. */
  values?: 'file' | 'dir' | ValueKind;
}

export const VALUE_KINDS = ['score-profiles', 'teams', 'templates', 'users'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** Flags whose values come from the service. */
export const FLAG_VALUE_KINDS: Readonly<Record<string, ValueKind>> = {
  '--sp': 'score-profiles',
  '--team': 'teams',
  '--template': 'templates',
  '--congrats-template': 'templates',
  '--created-by': 'users',
};


export interface CompletionCommand {
  name: string;
  description: string;
  flags: FlagSpec[];
  subcommands: CompletionCommand[];
  /** Fixed values of the first argument (e.g. `completion bash|zsh|fish`). */
  argChoices?: string[];
}

export interface CompletionSpec {
  globals: FlagSpec[];
  commands: CompletionCommand[];
}


const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function allValueFlags(spec: CompletionSpec): string[] {
  const out = new Set<string>();
  const walk = (flags: FlagSpec[]) => {
    for (const f of flags) if (f.takesValue) for (const n of f.names) out.add(n);
  };
  walk(spec.globals);
  const rec = (c: CompletionCommand) => {
    walk(c.flags);
    c.subcommands.forEach(rec);
  };
  spec.commands.forEach(rec);
  return [...out].sort();
}

const words = (xs: string[]) => xs.join(' ');

/** Flag names by what their value completes to (a name used two ways keeps the first). */
export function flagsByValues(spec: CompletionSpec): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const seen = new Set<string>();
  const add = (f: FlagSpec) => {
    if (!f.takesValue || f.choices) return;
    for (const n of f.names) {
      if (seen.has(n)) continue;
      seen.add(n);
      const k = f.values ?? 'none';
      out.set(k, [...(out.get(k) ?? []), n]);
    }
  };
  spec.globals.forEach(add);
  const rec = (c: CompletionCommand) => {
    c.flags.forEach(add);
    c.subcommands.forEach(rec);
  };
  spec.commands.forEach(rec);
  return out;
}
/** The long names of `flags`, and --help: what a command's flags complete to. */
export const flagNames = (flags: FlagSpec[]) => flags.flatMap((f) => f.names.filter((n) => n.startsWith('--'))).concat('--help');
const flagWords = (flags: FlagSpec[]) => words(flagNames(flags));

export function choiceFlags(spec: CompletionSpec): Array<{ names: string[]; choices: string[] }> {
  const out: Array<{ names: string[]; choices: string[] }> = [];
  const seen = new Set<string>();
  const add = (f: FlagSpec) => {
    if (!f.choices) return;
    const key = f.names.join('|');
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ names: f.names, choices: f.choices });
  };
  spec.globals.forEach(add);
  const rec = (c: CompletionCommand) => {
    c.flags.forEach(add);
    c.subcommands.forEach(rec);
  };
  spec.commands.forEach(rec);
  return out;
}

/**
 * The shell loop (bash and zsh alike) that finds the command and subcommand
 * among the words typed so far: the words from `first` to before `$count` of
 * the array `words`, skipping flags and the value after a flag that takes one.
 */
function commandWordsLoop(first: string, count: string, words: string, valueFlags: string[]): string {
  return `  for ((i = ${first}; i < ${count}; i++)); do
    w="\${${words}[i]}"
    case "$w" in
      ${valueFlags.join('|')}) ((i++)); continue ;;
      -*) continue ;;
    esac
    if [[ -z "$cmd" ]]; then cmd="$w"; elif [[ -z "$sub" ]]; then sub="$w"; fi
  done`;
}

export function bashScript(spec: CompletionSpec): string {
  const valueFlags = allValueFlags(spec);
  const byValues = flagsByValues(spec);
  const valueCases = [...byValues.entries()]
    .map(([k, names]) => {
      const pat = names.join('|');
      if (k === 'file') return `    ${pat}) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;`;
      if (k === 'dir') return `    ${pat}) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return ;;`;
      if (k === 'none') return `    ${pat}) return ;;`;
      return `    ${pat}) _jobfit_values ${k}; return ;;`;
    })
    .join('\n');
  const cases: string[] = [];
  for (const c of spec.commands) {
    if (c.subcommands.length > 0) {
      const subs = c.subcommands
        .map((s) => `        ${s.name}) opts=${q(flagWords(s.flags))} ;;`)
        .join('\n');
      cases.push(
        `    ${c.name})\n      case "$sub" in\n        '') opts=${q(words(c.subcommands.map((s) => s.name)))}; [[ "$cur" == -* ]] && opts=${q(flagWords(c.flags))} ;;\n${subs}\n      esac ;;`,
      );
    } else {
      const args = c.argChoices ? `; [[ -z "$sub" && "$cur" != -* ]] && opts=${q(words(c.argChoices))}` : '';
      cases.push(`    ${c.name}) opts=${q(flagWords(c.flags))}${args} ;;`);
    }
  }
  const choiceCases = choiceFlags(spec)
    .map((f) => `    ${f.names.join('|')}) COMPREPLY=($(compgen -W ${q(words(f.choices))} -- "$cur")); return ;;`)
    .join('\n');
  return `# bash completion for jobfit. Load it now:   source <(jobfit completion bash)
# or for every shell:  jobfit completion bash > ~/.local/share/bash-completion/completions/jobfit
# Values from the service, matched here and quoted (never passed to compgen -W, which would expand them).
_jobfit_values() {
  local v
  COMPREPLY=()
  while IFS= read -r v; do
    [[ -n "$v" && "$v" == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$v")")
  done < <("\${COMP_WORDS[0]}" completion --values "$1" 2>/dev/null)
}
_jobfit() {
  local cur prev cmd="" sub="" opts="" i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${choiceCases}
${valueCases}
  esac
${commandWordsLoop('1', 'COMP_CWORD', 'COMP_WORDS', valueFlags)}
  case "$cmd" in
    '') opts=${q(words(spec.commands.map((c) => c.name)))} ;;
${cases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then opts="$opts ${flagWords(spec.globals)}"; fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _jobfit jobfit
`;
}

/** zsh: the same walk as bash, with descriptions for commands and subcommands. */
export function zshScript(spec: CompletionSpec): string {
  const valueFlags = allValueFlags(spec);
  const valueCases = [...flagsByValues(spec).entries()]
    .map(([k, names]) => {
      const pat = names.join('|');
      if (k === 'file') return `    ${pat}) _files; return ;;`;
      if (k === 'dir') return `    ${pat}) _files -/; return ;;`;
      if (k === 'none') return `    ${pat}) return ;;`;
      return `    ${pat}) compadd -- \${(f)"$(\${words[1]} completion --values ${k} 2>/dev/null)"}; return ;;`;
    })
    .join('\n');
  const desc = (c: CompletionCommand) => q(`${c.name}:${c.description.replace(/:/g, '\\:')}`);
  const cases: string[] = [];
  for (const c of spec.commands) {
    if (c.subcommands.length > 0) {
      const subs = c.subcommands.map((s) => `        ${s.name}) flags=(${flagWords(s.flags)}) ;;`).join('\n');
      cases.push(
        `    ${c.name})\n      case "$sub" in\n        '') items=(${c.subcommands.map(desc).join(' ')}); flags=(${flagWords(c.flags)}) ;;\n${subs}\n      esac ;;`,
      );
    } else {
      const args = c.argChoices ? ` items=(${c.argChoices.map((a) => q(a)).join(' ')})` : '';
      cases.push(`    ${c.name}) flags=(${flagWords(c.flags)});${args} ;;`);
    }
  }
  const choiceCases = choiceFlags(spec)
    .map((f) => `    ${f.names.join('|')}) compadd -- ${words(f.choices)}; return ;;`)
    .join('\n');
  return `#compdef jobfit
# zsh completion for jobfit. Load it now:   source <(jobfit completion zsh)
# or for every shell:  jobfit completion zsh > "\${fpath[1]}/_jobfit"
_jobfit() {
  local cmd="" sub="" i w
  local -a items flags
  local prev="\${words[CURRENT-1]}" cur="\${words[CURRENT]}"
  case "$prev" in
${choiceCases}
${valueCases}
  esac
${commandWordsLoop('2', 'CURRENT', 'words', valueFlags)}
  case "$cmd" in
    '') items=(${spec.commands.map(desc).join(' ')}) ;;
${cases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    compadd -- \${flags[@]} ${flagWords(spec.globals)}
  elif (( \${#items} )); then
    _describe -t commands 'jobfit command' items
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then _jobfit "$@"; else compdef _jobfit jobfit; fi
`;
}

function fishFlag(f: FlagSpec, condition?: string): string {
  const parts = ['complete -c jobfit'];
  if (condition) parts.push(`-n ${q(condition)}`);
  for (const n of f.names) parts.push(n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`);
  if (f.choices) parts.push(`-x -a ${q(words(f.choices))}`);
  else if (f.values === 'file' || f.values === 'dir') parts.push('-r -F');
  else if (f.values) parts.push(`-x -a ${q(`(jobfit completion --values ${f.values} 2>/dev/null)`)}`);
  else if (f.takesValue) parts.push('-x');
  if (f.description) parts.push(`-d ${q(f.description)}`);
  return parts.join(' ');
}

export function fishScript(spec: CompletionSpec): string {
  const names = spec.commands.map((c) => c.name);
  const lines = [
    '# fish completion for jobfit. Load it now:   jobfit completion fish | source',
    '# or for every shell:  jobfit completion fish > ~/.config/fish/completions/jobfit.fish',
    'complete -c jobfit -f',
    ...spec.globals.map((f) => fishFlag(f)),
  ];
  for (const c of spec.commands) {
    lines.push(`complete -c jobfit -n '__fish_use_subcommand' -a ${c.name} -d ${q(c.description)}`);
    const seen = `__fish_seen_subcommand_from ${c.name}`;
    if (c.subcommands.length > 0) {
      const subNames = words(c.subcommands.map((s) => s.name));
      for (const s of c.subcommands) {
        lines.push(`complete -c jobfit -n ${q(`${seen}; and not __fish_seen_subcommand_from ${subNames}`)} -a ${s.name} -d ${q(s.description)}`);
        for (const f of s.flags) lines.push(fishFlag(f, `${seen}; and __fish_seen_subcommand_from ${s.name}`));
      }
    }
    if (c.argChoices) lines.push(`complete -c jobfit -n ${q(`${seen}; and not __fish_seen_subcommand_from ${words(c.argChoices)}`)} -a ${q(words(c.argChoices))}`);
    for (const f of c.flags) lines.push(fishFlag(f, seen));
  }
  lines.push(`# commands: ${names.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Exclude<Shell, 'powershell'>, spec: CompletionSpec): string {
  if (shell === 'bash') return bashScript(spec);
  if (shell === 'zsh') return zshScript(spec);
  return fishScript(spec);
}
