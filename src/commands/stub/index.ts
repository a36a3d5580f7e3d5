import type { Command } from 'commander';
import type { CommandDeps } from '../../cli/commands.js';

export function register(program: Command, deps: CommandDeps): void {
  const stub = program.command('stub').description('Run and drive the embedded local stub of the service');
  stub.command('keys').description('Print the seeded accounts and their keys').action((_o, cmd: Command) => {
    const ctx = deps.context(cmd);
    ctx.io.stdout.write('not yet\n');
  });
}
