import { Command, Option } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import type { Context } from '../kit/context.js';
import { HELP_TOPIC_NAMES } from '../../cli/help.js';
import { type CompletionSpec, commandSpecOf, completionScript, SHELLS, type Shell } from '../../cli/completion.js';
import { UsageError } from '../../core/errors.js';
import { examples } from '../kit/help.js';

/**
 * Every command of the table, registered on a scratch program (never run)
 * so the script lists the flags each module really declares.
 */
export async function buildSpec(root: Command): Promise<CompletionSpec> {
  const { COMMANDS, wireEntry } = await import('../table.js');
  const scratch = new Command('jobfit');
  const noDeps: CommandDeps = {
    context: () => {
      throw new Error('completion never runs commands');
    },
  };
  for (const entry of COMMANDS) await wireEntry(scratch, entry, noDeps);
  const argChoices = { completion: [...SHELLS], help: [...HELP_TOPIC_NAMES, ...COMMANDS.map((c) => c.name)] };
  const commands = scratch.commands.map((c) => commandSpecOf(c, argChoices));
  commands.push({ name: 'help', description: 'Help on a command or a topic', flags: [], subcommands: [], argChoices: argChoices.help });
  return { globals: root.options.filter((o) => !o.hidden).map((o) => commandSpecOf(new Command().addOption(o)).flags[0]), commands };
}

export async function run(opts: { shell: string; root: Command }, ctx: Context): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(opts.shell)) {
    throw new UsageError(`No completion for "${opts.shell}": choose one of ${SHELLS.join(', ')}.`);
  }
  const spec = await buildSpec(opts.root);
  ctx.io.stdout.write(completionScript(opts.shell as Shell, spec));
}

export function register(program: Command, deps: CommandDeps): void {
  program
    .command('completion')
    .argument('[shell]', SHELLS.join(', '))
    // What the scripts call for values that live in the service; not for people.
    .addOption(new Option('--values <kind>').hideHelp())
    .description('Print a shell completion script for bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'source <(jobfit completion bash)',
        'jobfit completion bash > ~/.local/share/bash-completion/completions/jobfit',
        'jobfit completion zsh > ~/.zfunc/_jobfit   # with fpath+=(~/.zfunc) in .zshrc',
        'jobfit completion fish > ~/.config/fish/completions/jobfit.fish',
      ),
    )
    .action(async (shell: string | undefined, o: { values?: string }, cmd: Command) => {
      const ctx = deps.context(cmd);
      if (o.values !== undefined) {
        const { printValues } = await import('./values.js');
        await printValues(ctx, o.values);
        return;
      }
      if (shell === undefined) throw new UsageError(`Name the shell: jobfit completion ${SHELLS.join('|')}.`);
      await run({ shell, root: cmd.parent ?? program }, ctx);
    });
}
