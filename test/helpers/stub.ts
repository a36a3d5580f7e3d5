/**
 * The one way tests start a stub (issue 48, item 4): in this process
 * (`startStubServer` on a loopback port), in a process of its own (a real
 * process boundary: the stub and the run under test do not share one event
 * loop), or as `jobfit stub serve` from source (the command a person runs:
 * its output, its signals, its delivery loop); on a throw-away data directory
 * unless one is given, with or without faults. Every stub starts from the
 * seed (src/stub/seed.json); `seed` adds people with `jobfit stub seed` first
 * (10,000 for the exports' exactness tests), and a test that needs a few more
 * adds them through the API or the store. Each file's own helpers
 * (test/stub/helpers.ts, test/commands/stub-env.ts, test/bulk/harness.ts,
 * test/bulk/helpers/stub-process.ts, test/webhook/helpers.ts) are thin shapes
 * over this one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { type RunningStub, type StartStubOptions, startStubServer } from '../../src/stub/index.js';
import { runCli } from './cli.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface StubOptions {
  /**
   * 'here' (default): in this process; 'process': test/bulk/helpers/stub-child.ts in a child process
   * (it stops when this process goes); 'serve': `jobfit stub serve --port 0` from source.
   */
  where?: 'here' | 'process' | 'serve';
  faults?: string;
  /** People added to the data directory with `jobfit stub seed` before the stub starts. */
  seed?: { testTakers: number; teams: number };
  /** 'serve' only: its environment (default: this process's), and what it writes on stderr. */
  env?: Record<string, string | undefined>;
  onStderr?: (text: string) => void;
  /** A data directory to use (and keep); by default a fresh one, removed by stop(). */
  dataDir?: string;
  /** 'process' only: the JOBFIT_CONFIG_DIR where it notes itself as `stub serve` does. */
  configDir?: string;
  /** 'here' only: the rest of startStubServer's options. */
  server?: Omit<StartStubOptions, 'dataDir' | 'port' | 'faults'>;
}

export interface StartedStub {
  /** Base URL of API v2. */
  url: string;
  /** The seed's accounts and their keys. */
  keys: RunningStub['keys'];
  /** The first account's live key. */
  liveKey: string;
  dataDir: string;
  /** JOBFIT_BASE_URL and JOBFIT_API_KEY (live) for a run against it. */
  env: Record<string, string>;
  /** 'here': the running server itself. */
  server?: RunningStub;
  /** 'process' and 'serve': the child. */
  child?: ChildProcess;
  /** Stops the server and keeps its data (to look into the database). */
  kill(): Promise<void>;
  /** Stops the server and removes its data directory when it made it. */
  stop(): Promise<void>;
}

export async function startStub(o: StubOptions = {}): Promise<StartedStub> {
  const own = o.dataDir === undefined;
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'jobfit-stub-'));
  if (o.seed) {
    const seeded = await runCli(['stub', 'seed', '--test-takers', String(o.seed.testTakers), '--teams', String(o.seed.teams), '--data', dataDir]);
    expect(seeded.code, seeded.stderr).toBe(0);
  }
  const start = { here, process: inProcess, serve }[o.where ?? 'here'];
  const started = await start(dataDir, o);
  const { url, keys, kill } = started;
  return {
    ...started,
    liveKey: keys[0].live_key,
    dataDir,
    env: { JOBFIT_BASE_URL: url, JOBFIT_API_KEY: keys[0].live_key },
    async stop() {
      await kill();
      if (own) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Started = Pick<StartedStub, 'url' | 'keys' | 'server' | 'child' | 'kill'>;

async function here(dataDir: string, o: StubOptions): Promise<Started> {
  const server = await startStubServer({ host: '127.0.0.1', ...o.server, dataDir, port: 0, faults: o.faults });
  let closed: Promise<void> | undefined;
  return { url: server.url, keys: server.keys, server, kill: () => (closed ??= server.close()) };
}

async function inProcess(dataDir: string, o: StubOptions): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/bulk/helpers/stub-child.ts'), dataDir, o.faults ?? '', o.configDir ?? ''], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const rl = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((res, rej) => {
    rl.once('line', res);
    child.once('exit', (code) => rej(new Error(`stub child exited with ${code}`)));
  });
  rl.close();
  const info = JSON.parse(first) as { url: string; keys: RunningStub['keys'] };
  return { url: info.url, keys: info.keys, child, kill: () => terminate(child) };
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await done;
  }
}

/** The seed's accounts: `stub serve` is ready once it has printed a key pair for each. */
const ACCOUNTS = (JSON.parse(readFileSync(join(ROOT, 'src/stub/seed.json'), 'utf8')) as { accounts: unknown[] }).accounts.length;

/** `jobfit stub serve --port 0 --data DIR` from source, ready once it has printed its URL and every account's keys. */
async function serve(dataDir: string, o: StubOptions): Promise<Started> {
  const args = ['--import', 'tsx', join(ROOT, 'src/cli/entry.ts'), 'stub', 'serve', '--port', '0', '--data', dataDir, ...(o.faults ? ['--faults', o.faults] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: o.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    o.onStderr?.(d);
  });
  let out = '';
  const { url, keys } = await new Promise<Pick<Started, 'url' | 'keys'>>((res, rej) => {
    child.once('exit', (code) => rej(new Error(`stub serve exited ${code}: ${stderr}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const listening = /Stub listening on (\S+\/v2)/.exec(out)?.[1];
      const pairs = [...out.matchAll(/account (\d+) \((.*)\)\n {4}live key: (\S+)\n {4}test key: (\S+)\n/g)];
      if (!listening || pairs.length < ACCOUNTS) return;
      res({ url: listening, keys: pairs.map(([, id, name, live, test]) => ({ account_id: Number(id), display_name: name, live_key: live, test_key: test })) });
    });
  });
  return { url, keys, child, kill: () => terminate(child) };
}
