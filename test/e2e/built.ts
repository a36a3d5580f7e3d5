/**
 * The built CLI as a user gets it: built once by test/global-setup.ts, then bin/, dist/,
 * fixtures/ and package.json copied into a temporary directory (node_modules
 * linked), so other builds in the working tree cannot change it mid-test.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** The working folder (default: this process's). */
  cwd?: string;
}
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The command the e2e tests spawn for `jobfit`, as a user would run it:
 * - JOBFIT_E2E_EXE: a standalone executable (`npm run package`), spawned alone, no node;
 * - JOBFIT_E2E_NODE: another node to run bin/jobfit.js with (e.g. `wine-node`, Windows
 *   node.exe under Wine);
 * - neither: this process's node runs bin/jobfit.js.
 * `command` and `prefix` are what spawn takes: spawn(command, [...prefix, ...args]).
 */
export function jobfitCommand(bin: string): { command: string; prefix: string[] } {
  const exe = process.env.JOBFIT_E2E_EXE;
  if (exe) return { command: exe, prefix: [] };
  return { command: process.env.JOBFIT_E2E_NODE || process.execPath, prefix: [bin] };
}

/** The spawned jobfit is a Windows program (under Wine): no file modes, the keyring is the Credential Manager. */
export const spawnedOnWindows = process.env.JOBFIT_E2E_WINE === '1';

/**
 * A path as the spawned jobfit takes it. JOBFIT_E2E_WINE=1 says it is a Windows
 * program under Wine (JOBFIT_E2E_NODE=wine-node): it gets Windows paths, drive
 * letter and backslashes (Wine's Z: is /), as a user on Windows types them.
 */
export function pathForJobfit(p: string): string {
  return spawnedOnWindows ? `Z:${p.replace(/\//g, '\\')}` : p;
}

/** Programs that are node or start one: none of them is on the PATH a standalone executable is spawned with. */
const NODE_PROGRAMS = /^(node|nodejs|npm|npx|corepack)(\.exe|\.cmd)?$/i;
let nodeFreePath: string | undefined;

/**
 * The PATH the built CLI is spawned with: this process's, except that with
 * JOBFIT_E2E_EXE no folder on it has a node. A folder that holds one (/usr/bin
 * too) stands in as a folder of links to all its other programs.
 */
export function spawnPath(): string {
  const path = process.env.PATH ?? '';
  if (!process.env.JOBFIT_E2E_EXE) return path;
  if (nodeFreePath !== undefined) return nodeFreePath;
  const shadows = mkdtempSync(join(tmpdir(), 'jobfit-path-without-node-'));
  nodeFreePath = path
    .split(delimiter)
    .filter(Boolean)
    .map((dir, i) => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return dir;
      }
      if (!names.some((n) => NODE_PROGRAMS.test(n))) return dir;
      const shadow = join(shadows, String(i));
      mkdirSync(shadow);
      for (const n of names) if (!NODE_PROGRAMS.test(n) && !existsSync(join(shadow, n))) symlinkSync(join(dir, n), join(shadow, n));
      return shadow;
    })
    .join(delimiter);
  return nodeFreePath;
}

export interface BuiltCli {
  dir: string;
  bin: string;
  /** What to spawn for `jobfit` (see jobfitCommand). */
  command: string;
  prefix: string[];
  /** The PATH it is spawned with (spawnPath). */
  path: string;
  run(args: string[], opts?: RunOptions): RunResult;
  /** Like run, without blocking this process (for a stub running in it). */
  runAsync(args: string[], opts?: RunOptions): Promise<RunResult>;
  close(): void;
}

/** A copy of dist/ as test/global-setup.ts built it (once, before every test file). */
export function buildCli(): BuiltCli {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-built-'));
  // Other test files run `invite --csv fixtures/...` at the same time, and their
  // results files and locks come and go beside the fixtures: not part of the app.
  const ours = (src: string) => !/\.(results\.csv|lock|journal)$|\.results\.csv\./.test(src);
  for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true, filter: ours });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'home'));
  const bin = join(dir, 'bin/jobfit.js');
  const { command, prefix } = jobfitCommand(bin);
  const path = spawnPath();
  const envOf = (opts: RunOptions) => {
    // A clean environment: nothing of the developer's configuration leaks in.
    const env: Record<string, string> = { PATH: path, HOME: join(dir, 'home'), NO_COLOR: '1' };
    for (const [k, v] of Object.entries(opts.env ?? {})) if (v !== undefined) env[k] = v;
    return env;
  };
  return {
    dir,
    bin,
    command,
    prefix,
    path,
    run(args, opts = {}) {
      const r: SpawnSyncReturns<string> = spawnSync(command, [...prefix, ...args], { env: envOf(opts), input: opts.input ?? '', encoding: 'utf8', timeout: 30_000, cwd: opts.cwd });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
    runAsync(args, opts = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(command, [...prefix, ...args], { env: envOf(opts), stdio: ['pipe', 'pipe', 'pipe'], cwd: opts.cwd });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
        child.stdin.end(opts.input ?? '');
      });
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
