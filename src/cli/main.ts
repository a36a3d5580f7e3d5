import { Command, CommanderError, Help } from 'commander';
import { COMMANDS } from '../commands/table.js';
import { type WireDeps, wireEntry } from '../commands/kit/wire.js';
import { globalOptions } from '../commands/kit/globals.js';
import type { Context } from '../commands/kit/context.js';
import type { GlobalOptions, OutputFormat } from '../core/session.js';
import type { IOStreams } from '../core/io.js';
import { createContext } from './create-context.js';
import { AuthError, ExitCode, interruptedExit, JobfitError } from '../core/errors.js';
import { createProcessIO } from '../core/io.js';
import { fileErrorCause } from '../core/files.js';
import { readlinkSync } from 'node:fs';
import { forPerson } from '../format/person-text.js';
import { safeText } from '../format/sanitize.js';
import { VERSION } from './version.js';
import { errorJson } from '../core/error-code.js';

/** Options of the root program that take a value (to find the command name in argv). */
const VALUE_OPTIONS = new Set(['-p', '--profile', '--base-url', '-o', '--output', '--fields']);

function commandNameOf(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return argv[i + 1];
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}

export function globalsOf(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  const fields = typeof o.fields === 'string' ? o.fields.split(',').map((f) => f.trim()).filter(Boolean) : undefined;
  return {
    profile: o.profile as string | undefined,
    mode: o.live ? 'live' : o.test ? 'test' : undefined,
    baseUrl: o.baseUrl as string | undefined,
    output: o.output as OutputFormat | undefined,
    fields,
    color: o.color !== false,
    quiet: Boolean(o.quiet),
    verbose: Boolean(o.verbose),
  };
}

/** `-o json` / `-o ndjson` among the arguments: errors are then one JSON line on stderr (core/error-code.ts). */
export function jsonErrorsOf(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    const value = a === '-o' || a === '--output' ? argv[i + 1] : /^(?:-o=?|--output=)(.+)$/.exec(a)?.[1];
    if (value === 'json' || value === 'ndjson') return true;
  }
  return false;
}

function buildProgram(io: IOStreams, jsonErrors = false): Command {
  const program = new Command('jobfit');
  program
    .description('Administer invitations and pull results from the Assessment and Job-Fit Service API v2.\nWith no configuration, every command runs against the embedded local stub.')
    .version(VERSION, '-V, --version');
  for (const option of globalOptions()) program.addOption(option);
  program
    .showHelpAfterError(jsonErrors ? false : '(add --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      // commander quotes what was typed ("unknown command", "invalid -o"): a stranger's text, sanitised.
      writeErr: (s) => io.stderr.write(safeText(s)),
      // One style for every error, commander's own included: "Error: …" (or the JSON line).
      outputError: (s, write) => write(jsonErrors ? usageJson(s) : s.replace(/^error:/, 'Error:')),
    })
    .exitOverride()
    .addHelpText('after', `\nEnvironment: JOBFIT_PROFILE, JOBFIT_API_KEY, JOBFIT_BASE_URL, JOBFIT_CONFIG_DIR, NO_COLOR, HTTPS_PROXY\nHelp topics: \`jobfit help exit-codes\`, \`jobfit help environment\`, \`jobfit help output\`, \`jobfit help modes\`.`);
  program.configureHelp({
    sortSubcommands: false,
    // commander's "(default: [])" is noise: a default that matters is in the option's own line ("(default 16)").
    optionDescription(option) {
      return Help.prototype.optionDescription.call(this, Object.assign(Object.create(option) as typeof option, { defaultValue: undefined }));
    },
  });
  return program;
}

/**
 * Runs the CLI with the given arguments and streams and returns the exit code.
 * Never calls process.exit, so tests run it in-process.
 */
export async function run(argv: string[], io: IOStreams, makeContext: typeof createContext = createContext): Promise<number> {
  const jsonErrors = jsonErrorsOf(argv);
  const program = buildProgram(io, jsonErrors);
  let verbose = argv.includes('-v') || argv.includes('--verbose');
  const contexts: Context[] = [];
  const deps: WireDeps = {
    context: (cmd) => {
      const globals = globalsOf(cmd);
      verbose = globals.verbose;
      const ctx = makeContext(io, globals);
      contexts.push(ctx);
      return ctx;
    },
  };

  const name = commandNameOf(argv);
  if (name === 'help') {
    const { helpTopicOf, helpTopicText } = await import('./help.js');
    const topic = helpTopicOf(argv);
    if (topic) {
      io.stdout.write(helpTopicText(topic));
      return ExitCode.OK;
    }
    // `jobfit help teams` is `jobfit teams --help` (with the real module loaded).
    const rest = argv.slice(argv.indexOf('help') + 1);
    if (rest.length > 0 && COMMANDS.some((c) => c.name === rest[0] || c.aliases?.includes(rest[0]))) return run([...rest, '--help'], io);
    if (rest.length > 0) {
      const { HELP_TOPIC_NAMES } = await import('../commands/help-topics.js');
      io.stderr.write(`Error: ${forPerson(`"${rest[0]}" is neither a command nor a help topic (topics: ${HELP_TOPIC_NAMES.join(', ')}; commands: jobfit --help).`)}\n`);
      return ExitCode.USAGE;
    }
  }
  // The named command alone is wired; with none (help, a typo), every command is declared for commander's list and suggestions.
  const named = COMMANDS.find((entry) => entry.name === name || (name !== undefined && entry.aliases?.includes(name)));
  if (named) await wireEntry(program, named, deps);
  else {
    for (const entry of COMMANDS) {
      program.command(entry.name).aliases([...(entry.aliases ?? [])]).summary(entry.summary).description(entry.summary).allowUnknownOption().helpOption(false)
        .action(async () => {
          const fresh = buildProgram(io, jsonErrors);
          await wireEntry(fresh, entry, deps);
          await fresh.parseAsync(argv, { from: 'user' });
        });
    }
  }
  program.addHelpText('after', '');

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.OK;
  } catch (err) {
    // Stopped by SIGTERM or SIGHUP: 143 or 129, as a shell reports a process the signal ended.
    return interruptedExit(reportError(keyRefused(err, contexts), io, verbose, jsonErrors), io.signal);
  } finally {
    // Keep-alive sockets and the embedded stub would hold the process open.
    for (const ctx of contexts) await ctx.close();
  }
}

/**
 * The service refused the key it was given (its answer, "API key is required",
 * reads as if none was sent): say which key, from where, and what the service
 * answered, so a set JOBFIT_API_KEY is not taken for a missing one.
 */
function keyRefused(err: unknown, contexts: Context[]): unknown {
  if (!(err instanceof JobfitError) || err.exitCode !== ExitCode.AUTH) return err;
  const status = (err as { status?: unknown }).status;
  const c = contexts.find((x) => x.connection)?.connection;
  if (typeof status !== 'number' || !c || c.embedded || c.maskedKey === '(none)') return err;
  const answer = (err as { apiText?: string }).apiText ?? `HTTP ${status}`;
  const from = c.source === 'env' ? 'JOBFIT_API_KEY' : c.profileName ? `profile "${c.profileName}"` : c.source;
  const hint =
    c.source === 'env'
      ? 'check the key in JOBFIT_API_KEY (unset it to use the profile), or run `jobfit login`'
      : `run \`jobfit login${c.profileName && c.profileName !== 'default' ? ` --profile ${c.profileName}` : ''}\` to replace the key`;
  return new AuthError(`${c.baseUrl} did not accept the ${c.mode ? `${c.mode} ` : ''}key ${c.maskedKey} from ${from} (it answered ${status}: ${answer}).`, hint);
}

/** A usage error of commander's as the JSON line (its text without "error:"). */
function usageJson(text: string): string {
  const message = forPerson(text.replace(/^error:\s*/i, '').trim());
  return `${JSON.stringify({ error: { code: 'usage', message, hint: 'add --help for usage', status: null } })}\n`;
}

/** The JSON line of a failing command with -o json/ndjson. */
function errorLine(err: unknown): string {
  const e = err instanceof Error ? err : new Error(String(err));
  if (err instanceof JobfitError && !err.message) {
    // Already reported on stdout or stderr (SilentError): the code still reaches the script.
    return `${JSON.stringify(errorJson(err, 'The command failed; see its output.', undefined))}\n`;
  }
  const message = forPerson(err instanceof JobfitError ? err.message : e.message.split('\n')[0]);
  const hint = err instanceof JobfitError ? err.hint : undefined;
  return `${JSON.stringify(errorJson(err, message, hint === undefined ? undefined : forPerson(hint)))}\n`;
}

export function reportError(err: unknown, io: IOStreams, verbose: boolean, jsonErrors = false): number {
  if (jsonErrors && !(err instanceof CommanderError)) {
    io.stderr.write(errorLine(err));
    if (verbose && err instanceof Error && err.stack) io.stderr.write(`${forPerson(err.stack)}\n`);
    return err instanceof JobfitError ? err.exitCode : ExitCode.FAILURE;
  }
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return ExitCode.OK;
    if (err.code === 'commander.executeSubCommandAsync') return err.exitCode;
    // commander already printed its message
    return ExitCode.USAGE;
  }
  // Messages quote the service (its `error` string, an HTML title), a file or
  // a URL: every line passes the one sanitiser on its way to the terminal.
  const say = (text: string) => io.stderr.write(`${forPerson(text)}\n`);
  if (err instanceof JobfitError) {
    if (err.message) say(`Error: ${err.message}`);
    if (err.hint) say(`Hint: ${err.hint}`);
    if (verbose && err.stack && err.message) say(err.stack);
    return err.exitCode;
  }
  // Not one of our typed errors: an error of the system (a file, a socket) or a
  // bug. Still one sentence, the stack only with --verbose.
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  const systemCode = (err as NodeJS.ErrnoException | null)?.code;
  say(`Error: ${message}${/[.!?]$/.test(message) ? '' : '.'}`);
  if (verbose && err instanceof Error && err.stack) say(err.stack);
  else if (systemCode) io.stderr.write(`Hint: the system said ${systemCode}; run with --verbose for details\n`);
  else io.stderr.write('Hint: this looks like a bug in jobfit; run with --verbose and report what it prints\n');
  return ExitCode.FAILURE;
}

export async function runMain(argv: string[]): Promise<void> {
  const io = createProcessIO();
  let code = await run(argv, io);
  // A failed write to stdout (a full disk behind `> FILE`) is reported as an
  // event after the write when node's stream writes it: let it arrive, then
  // never end with 0 over it. (An event-loop turn also lets V8 run a pending
  // garbage collection, ~1.5 ms an offline command need not wait for.)
  await io.stdoutSettled?.();
  const failed = io.stdoutError?.();
  if (failed) {
    io.stderr.write(`${forPerson(`Error: could not write the output to ${stdoutName()}: ${fileErrorCause(failed)}; what it holds is incomplete.`)}\n`);
    if (code === ExitCode.OK || code === ExitCode.PARTIAL) code = ExitCode.FAILURE;
  }
  process.exitCode = code;
}

/** The file behind stdout, where the system says (Linux), for the sentence of a failed write. */
function stdoutName(): string {
  try {
    const target = readlinkSync('/proc/self/fd/1');
    if (target.startsWith('/')) return target;
  } catch {
    // not Linux, or not allowed
  }
  return 'standard output';
}
