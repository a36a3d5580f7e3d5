/**
 * The one way tests start a stub (issue 48, item 4): in this process
 * (`startStubServer` on a loopback port) or in a process of its own (a real
 * process boundary: the stub and the run under test do not share one event
 * loop), on a throw-away data directory unless one is given, with or without
 * faults. Every stub starts from the seed (src/stub/seed.json); a test that
 * needs more people adds them through the API or a data directory of its own.
 * Each file's own helpers (test/stub/helpers.ts, test/commands/stub-env.ts,
 * test/bulk/helpers/stub-process.ts) are thin shapes over this one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type RunningStub, type StartStubOptions, startStubServer } from '../../src/stub/index.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface StubOptions {
  /** 'here' (default): in this process; 'process': test/bulk/helpers/stub-child.ts in a child process. */
  where?: 'here' | 'process';
  faults?: string;
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
  /** 'process': the child. */
  child?: ChildProcess;
  /** Stops the server and keeps its data (to look into the database). */
  kill(): Promise<void>;
  /** Stops the server and removes its data directory when it made it. */
  stop(): Promise<void>;
}

export async function startStub(o: StubOptions = {}): Promise<StartedStub> {
  const own = o.dataDir === undefined;
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'jobfit-stub-'));
  const started = o.where === 'process' ? await inProcess(dataDir, o) : await here(dataDir, o);
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
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    }
  };
  return { url: info.url, keys: info.keys, child, kill };
}
