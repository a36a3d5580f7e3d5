/**
 * `jobfit completion bash|zsh|fish|powershell`: the script, written from the commands'
 * own declarations (kit/completion-spec.ts, format/completion.ts). The hidden
 * `--values KIND` is what the scripts call for values that live in the service
 * (completion/shared/values.ts); not for people.
 */
import * as z from 'zod';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { completionScript, SHELLS, type Shell } from '../../format/completion.js';
import { powershellScript } from '../../format/completion-powershell.js';
import { buildSpec } from '../kit/completion-spec.js';

const CompletionOptions = z
  .object({
    shell: z.string().optional(),
    values: flag(z.string().optional(), { flag: '--values <kind>', description: '', hidden: true }),
  })
  .superRefine((o, zctx) => {
    // With --values (the kind is checked by printValues), the shell is not looked at.
    if (o.values !== undefined) return;
    if (o.shell === undefined) zctx.addIssue({ code: 'custom', message: `Name the shell: jobfit completion ${SHELLS.join('|')}.` });
    else if (!(SHELLS as readonly string[]).includes(o.shell)) zctx.addIssue({ code: 'custom', message: `No completion for "${o.shell}": choose one of ${SHELLS.join(', ')}.` });
  });
export type CompletionOptions = z.output<typeof CompletionOptions>;

async function run(opts: CompletionOptions, ctx: Context): Promise<void> {
  if (opts.values !== undefined) {
    const { printValues } = await import('./shared/values.js');
    await printValues(ctx, opts.values);
    return;
  }
  const shell = opts.shell as Shell;
  const spec = buildSpec(await ctx.everyCommand());
  ctx.io.stdout.write(shell === 'powershell' ? powershellScript(spec) : completionScript(shell, spec));
}

export default defineCommand({
  description: 'Print a shell completion script for bash, zsh, fish or PowerShell',
  args: [{ name: 'shell', description: SHELLS.join(', '), optional: true }],
  options: CompletionOptions,
  examples: [
    'source <(jobfit completion bash)',
    'mkdir -p ~/.local/share/bash-completion/completions && jobfit completion bash > ~/.local/share/bash-completion/completions/jobfit',
    'mkdir -p ~/.zfunc && jobfit completion zsh > ~/.zfunc/_jobfit   # with fpath+=(~/.zfunc) in .zshrc',
    'mkdir -p ~/.config/fish/completions && jobfit completion fish > ~/.config/fish/completions/jobfit.fish',
    'jobfit completion powershell >> $PROFILE   # PowerShell (Windows, macOS, Linux)',
  ],
  run,
});
