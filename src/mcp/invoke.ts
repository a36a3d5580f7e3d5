/**
 * A tool call is the command run in this process (cli/main.ts `run`), as a
 * script would run it with `-o json`: its stdout is the answer, its exit code
 * and its JSON error line (core/error-code.ts) the failure. The call has
 * streams of its own and shares the server's connection: one client, one
 * embedded stub, one mode line, for every call.
 */
import { Readable } from 'node:stream';
import type { Context } from '../commands/kit/context.js';
import type { IOStreams, OutStream } from '../core/io.js';
import { createIO } from '../core/io.js';
import type { GlobalOptions } from '../core/session.js';
import { forPerson } from '../format/person-text.js';

class Captured implements OutStream {
  readonly isTTY = false;
  text = '';
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }
}

export interface Ran {
  code: number;
  stdout: string;
  /** Notices and warnings the command wrote, one per line. */
  notices: string[];
  /** The JSON error line, when the command failed. */
  error?: { code: string; message: string; hint: string | null; status: number | null };
}

/** The Context of one call: its own streams and options, the server's connection, config and profile. */
export function callContext(base: Context, io: IOStreams, globals: GlobalOptions): Context {
  return {
    io,
    globals,
    everyCommand: () => base.everyCommand(),
    info: (m) => {
      if (!globals.quiet) io.stderr.write(`${forPerson(m)}\n`);
    },
    warn: (m) => io.stderr.write(`Warning: ${forPerson(m)}\n`),
    debug: () => {},
    config: () => base.config(),
    // The mode line was said once, when the server started (its instructions say it).
    client: () => base.client({ announce: false }),
    // No terminal: a command that would ask says which input gives the answer.
    prompter: async () => (await import('../core/prompter.js')).createPrompter(io),
    profileName: () => base.profileName(),
    get connection() {
      return base.connection;
    },
    close: async () => {},
  };
}

function errorOf(lines: string[]): Ran['error'] {
  for (const line of [...lines].reverse()) {
    if (!line.startsWith('{"error":')) continue;
    try {
      return (JSON.parse(line) as { error: Ran['error'] }).error;
    } catch {
      // not our line
    }
  }
  return undefined;
}

/** Runs `argv` in this process on the server's connection. */
export async function runCommand(base: Context, argv: string[], signal: AbortSignal): Promise<Ran> {
  const stdout = new Captured();
  const stderr = new Captured();
  const stdin = Readable.from([]) as IOStreams['stdin'];
  // The JSON error line needs -o json on the command line; the per-call env keeps the server's.
  const io = createIO({ stdout, stderr, stdin, stdinIsTTY: false, env: { ...base.io.env, JOBFIT_NO_PROMPT: '1' }, signal, noColor: true });
  const { run } = await import('../cli/main.js');
  const code = await run(argv, io, (callIo, globals) => callContext(base, callIo, globals));
  const lines = stderr.text.split('\n').filter((l) => l.trim() !== '');
  const error = code === 0 ? undefined : errorOf(lines);
  return { code, stdout: stdout.text, notices: lines.filter((l) => !l.startsWith('{"error":')), error };
}
