/**
 * A real stub on a loopback port for command tests (test/helpers/stub.ts, startStub), and a Context pointed at
 * it through JOBFIT_BASE_URL + JOBFIT_API_KEY, with in-memory streams.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../src/commands/kit/context.js';
import type { GlobalOptions, Prompter } from '../../src/core/session.js';
import { createContext } from '../../src/cli/create-context.js';
import type { RunningStub } from '../../src/stub/index.js';
import { type MemoryIOOptions, memoryIO } from '../helpers/io.js';
import { perFile } from '../helpers/per-file.js';
import { startStub } from '../helpers/stub.js';

export interface StubEnv {
  stub: RunningStub;
  live: string;
  test: string;
  /** JOBFIT_BASE_URL and JOBFIT_API_KEY (live) for runCli. */
  env: Record<string, string>;
  tmp(prefix?: string): string;
  close(): Promise<void>;
}

export async function startStubEnv(): Promise<StubEnv> {
  const dirs: string[] = [];
  const tmp = (prefix = 'jobfit-cmd-') => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  const started = await startStub({ dataDir: tmp('jobfit-stub-') });
  const account = started.keys[0];
  return {
    stub: started.server!,
    live: account.live_key,
    test: account.test_key,
    env: started.env,
    tmp,
    async close() {
      await started.stop();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

export interface FakeContext {
  ctx: Context;
  stdout(): string;
  stderr(): string;
}

/** A Context as main() would build it, on memory streams; `prompter` scripts the answers. */
export function fakeContext(
  o: MemoryIOOptions & { globals?: Partial<GlobalOptions>; prompter?: Prompter; configDir: string },
): FakeContext {
  const m = memoryIO({ ...o, env: { JOBFIT_CONFIG_DIR: o.configDir, ...(o.env ?? {}) } });
  const globals: GlobalOptions = { color: false, quiet: false, verbose: false, ...o.globals };
  const ctx = createContext(m.io, globals, { prompter: o.prompter });
  return { ctx, stdout: m.stdout, stderr: m.stderr };
}

/** A prompter that answers from a script, by prompt message, and records what was asked. */
export function scriptedPrompter(answers: Array<[RegExp, unknown]>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (message: string) => {
    asked.push(message);
    const i = answers.findIndex(([re]) => re.test(message));
    if (i < 0) throw new Error(`unexpected prompt: ${message}`);
    const [, value] = answers.splice(i, 1)[0];
    return value;
  };
  return {
    asked,
    input: async (m) => next(m) as string,
    password: async (m) => next(m) as string,
    confirm: async (m) => next(m) as boolean,
    select: async <T>(m: string) => next(m) as T,
    // A choice the prompt's validate refuses is asked again, as on a terminal.
    checkbox: async <T>(m: string, _c: unknown, opts?: { validate?: (v: T[]) => true | string }) => {
      let v = next(m) as T[];
      while (opts?.validate && opts.validate(v) !== true) v = next(m) as T[];
      return v;
    },
  };
}

/**
 * One stub for the tests of a file: started before them, closed after, handed
 * to `started`; returns `ctxFor`, a Context pointed at it (its env first, then
 * the test's own).
 */
export function stubForTests(started: (s: StubEnv) => void): (o?: Partial<Parameters<typeof fakeContext>[0]>) => FakeContext {
  let s: StubEnv | undefined;
  perFile(startStubEnv, (env) => env.close(), (env) => {
    s = env;
    started(env);
  });
  return (o = {}) => fakeContext({ configDir: s!.tmp(), ...o, env: { ...s!.env, ...(o.env ?? {}) } });
}
