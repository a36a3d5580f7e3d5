/**
 * Prompts for a person at a terminal, on @inquirer/prompts. Prompts are
 * written to stderr so that stdout keeps only data (`jobfit invite > out.json`
 * still asks its questions). Without a terminal nothing is asked: the method
 * throws a usage error naming the flag that gives the answer instead.
 */
import { Writable } from 'node:stream';
import type { IOStreams, OutStream } from './io.js';
import type { FlagHint, Prompter } from './session.js';
import { CancelError, UsageError } from './errors.js';

/**
 * Why nothing can be asked, in a few words: on a terminal with
 * JOBFIT_NO_PROMPT (or CI) set, "no terminal" would be untrue.
 */
export function noPromptReason(io: IOStreams): string {
  if (!(io.stdin.isTTY && io.stderrIsTTY)) return 'no terminal to ask on';
  if (io.env.JOBFIT_NO_PROMPT) return 'prompts are off: JOBFIT_NO_PROMPT is set';
  return 'prompts are off: CI is set';
}

function cannotPrompt(io: IOStreams, message: string, hint?: FlagHint): never {
  const what = message.replace(/[:?\s]+$/, '');
  const why = noPromptReason(io);
  throw new UsageError(
    hint?.flag ? `${what}: ${why}; give it with ${hint.flag}.` : `${what}: ${why}.`,
    'Prompts need stdin and stderr to be a terminal (and JOBFIT_NO_PROMPT and CI unset).',
  );
}

/** Ctrl-C inside a prompt (or our own abort signal) is a cancellation, not a crash. */
function isCancel(err: unknown): boolean {
  const name = err instanceof Error ? err.name : '';
  return name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError';
}

/** Inquirer pipes into its output, so an OutStream that is not a real stream (tests) gets wrapped. */
function asWritable(out: OutStream): NodeJS.WritableStream {
  if (typeof (out as { on?: unknown }).on === 'function') return out as unknown as NodeJS.WritableStream;
  const w = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      out.write(chunk.toString());
      cb();
    },
  });
  return Object.assign(w, { isTTY: out.isTTY, columns: out.columns });
}

export function createPrompter(io: IOStreams): Prompter {
  // Loaded on first use: most runs never prompt, and @inquirer/prompts costs start-up time.
  const lib = () => import('@inquirer/prompts');
  const context = () => ({
    input: io.stdin as NodeJS.ReadableStream,
    output: asWritable(io.stderr),
    signal: io.signal,
    clearPromptOnDone: false,
  });
  async function guard<T>(p: () => Promise<T>): Promise<T> {
    try {
      return await p();
    } catch (err) {
      if (isCancel(err)) throw new CancelError();
      throw err;
    }
  }

  return {
    async input(message, opts = {}) {
      if (!io.canPrompt) cannotPrompt(io, message, opts);
      const { input } = await lib();
      return guard(() => input({ message, default: opts.default, validate: opts.validate }, context()));
    },
    async password(message, opts = {}) {
      if (!io.canPrompt) cannotPrompt(io, message, opts);
      const { password } = await lib();
      return guard(() => password({ message, mask: '*', validate: opts.validate }, context()));
    },
    async confirm(message, opts = {}) {
      if (!io.canPrompt) cannotPrompt(io, message, opts);
      const { confirm } = await lib();
      return guard(() => confirm({ message, default: opts.default }, context()));
    },
    async select<T>(message: string, choices: Array<{ name: string; value: T; description?: string }>, opts: { default?: T } & FlagHint = {}) {
      if (!io.canPrompt) cannotPrompt(io, message, opts);
      const { select } = await lib();
      return guard(() => select<T>({ message, choices, default: opts.default, pageSize: 12 }, context()));
    },
    async checkbox<T>(
      message: string,
      choices: Array<{ name: string; value: T; checked?: boolean }>,
      opts: { required?: boolean; validate?: (values: T[]) => true | string } & FlagHint = {},
    ) {
      if (!io.canPrompt) cannotPrompt(io, message, opts);
      const { checkbox } = await lib();
      const check = opts.validate;
      const validate = check ? (picked: ReadonlyArray<{ value: T }>) => check(picked.map((c) => c.value)) : undefined;
      return guard(() => checkbox<T>({ message, choices, required: opts.required, validate, pageSize: 12 }, context()));
    },
  };
}
