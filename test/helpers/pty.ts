/**
 * Drives a command through a pseudo-terminal as a person would: wait for a
 * prompt, type, press keys. Used for `login` and `invite` prompts, where only a
 * real terminal shows raw mode, masking and Ctrl-C behaviour.
 */
import { spawn as ptySpawn } from '@lydell/node-pty';

export const keys = {
  enter: '\r',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  space: ' ',
  tab: '\t',
  backspace: '\x7f',
  ctrlC: '\x03',
  ctrlD: '\x04',
} as const;

/** Output with terminal escape sequences removed, for matching and assertions. */
export function stripAnsi(s: string): string {
  return s
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07]*(\x07|\x1b\\)/g, '')
    .replace(/\x1b[78=>]/g, '');
}

export interface PtyOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
}

export interface PtySession {
  /** Waits until the output after the last match contains `pattern`; returns the text up to and including it. */
  expect(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Raw keys: '\r' Enter, keys.down, keys.ctrlC, ... */
  send(keys: string): void;
  /** Types text and presses Enter. */
  line(text: string): void;
  /** All output so far, escape sequences removed. */
  output(): string;
  /** All output so far, as the terminal received it. */
  raw(): string;
  /** Waits for the process to exit. */
  wait(timeoutMs?: number): Promise<{ code: number; signal?: number; output: string }>;
  kill(): void;
}

export function spawnPty(command: string, args: string[], opts: PtyOptions = {}): PtySession {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...(opts.env ?? {}) })) if (v !== undefined) env[k] = v;
  // The parent may run under CI or with NO_COLOR; the child decides for itself from the pty.
  for (const k of ['CI', 'JOBFIT_NO_PROMPT', 'VITEST', 'VITEST_WORKER_ID'] as const) if (!(opts.env && k in opts.env)) delete env[k];
  const p = ptySpawn(command, args, { name: 'xterm-256color', cols: opts.cols ?? 100, rows: opts.rows ?? 30, cwd: opts.cwd ?? process.cwd(), env });
  let raw = '';
  let cursor = 0;
  const waiters = new Set<() => void>();
  let exit: { code: number; signal?: number } | undefined;
  const exited = new Promise<{ code: number; signal?: number }>((resolve) => {
    p.onExit(({ exitCode, signal }) => {
      exit = { code: exitCode, signal };
      resolve(exit);
      for (const w of waiters) w();
    });
  });
  p.onData((d) => {
    raw += d;
    for (const w of waiters) w();
  });

  return {
    expect(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const text = stripAnsi(raw).slice(cursor);
          let end = -1;
          if (typeof pattern === 'string') {
            const i = text.indexOf(pattern);
            if (i >= 0) end = i + pattern.length;
          } else {
            const m = pattern.exec(text);
            if (m) end = m.index + m[0].length;
          }
          if (end >= 0) {
            done();
            const matched = text.slice(0, end);
            cursor += end;
            resolve(matched);
            return;
          }
          if (exit) {
            done();
            reject(new Error(`process exited (${exit.code}) before ${String(pattern)} appeared; output:\n${stripAnsi(raw)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out after ${timeoutMs}ms waiting for ${String(pattern)}; output:\n${stripAnsi(raw)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    send(k) {
      p.write(k);
    },
    line(text) {
      p.write(text);
      p.write('\r');
    },
    output: () => stripAnsi(raw),
    raw: () => raw,
    async wait(timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs}ms; output:\n${stripAnsi(raw)}`)), timeoutMs);
      });
      try {
        const r = await Promise.race([exited, timeout]);
        return { ...r, output: stripAnsi(raw) };
      } finally {
        clearTimeout(timer);
      }
    },
    kill() {
      if (!exit) p.kill();
    },
  };
}

/** Runs a TypeScript file under tsx in a pseudo-terminal. */
export function spawnTsPty(file: string, args: string[] = [], opts: PtyOptions = {}): PtySession {
  return spawnPty(process.execPath, ['--import', 'tsx', file, ...args], opts);
}

const ROOT = new URL('../../', import.meta.url);

/**
 * Runs `jobfit ARGS` in a pseudo-terminal: from source under tsx by default (no
 * build needed), or the built bin/jobfit.js with `built: true`. Pass
 * JOBFIT_CONFIG_DIR (a mkdtemp dir) in `env`.
 */
export function spawnJobfitPty(args: string[], opts: PtyOptions & { built?: boolean } = {}): PtySession {
  const entry = new URL(opts.built ? 'bin/jobfit.js' : 'src/cli/entry.ts', ROOT).pathname;
  const nodeArgs = opts.built ? [entry, ...args] : ['--import', 'tsx', entry, ...args];
  return spawnPty(process.execPath, nodeArgs, { cwd: new URL('.', ROOT).pathname, ...opts });
}
