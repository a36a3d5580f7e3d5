/**
 * Runs the CLI in-process like a person or a script would, with captured
 * streams and a throw-away config directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/main.js';
import { type MemoryIOOptions, memoryIO } from './io.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The config directory used (removed afterwards unless it was given). */
  configDir: string;
}

export interface RunCliOptions extends MemoryIOOptions {
  /** Reuse a config directory across runs (the caller removes it). */
  configDir?: string;
}

export async function runCli(argv: string[], opts: RunCliOptions = {}): Promise<RunResult> {
  const own = opts.configDir === undefined;
  const configDir = opts.configDir ?? mkdtempSync(join(tmpdir(), 'jobfit-test-'));
  const m = memoryIO({ ...opts, env: { JOBFIT_CONFIG_DIR: configDir, ...(opts.env ?? {}) } });
  try {
    const code = await run(argv, m.io);
    return { code, stdout: m.stdout(), stderr: m.stderr(), configDir };
  } finally {
    if (own) rmSync(configDir, { recursive: true, force: true });
  }
}
