/** Starts test/bulk/helpers/stub-child.ts in a child process and waits for its URL. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface StubProcess {
  url: string;
  liveKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Stops the server, keeps its data (to look into the database). */
  kill(): Promise<void>;
  /** Stops the server and removes its data directory (when it made it). */
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../../..');

/** configDir: the JOBFIT_CONFIG_DIR of the runs against it, where it notes itself as `stub serve` does (so they know it for our stub). */
export async function startStubProcess(opts: { faults?: string; dataDir?: string; configDir?: string } = {}): Promise<StubProcess> {
  const own = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'jobfit-stub-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/bulk/helpers/stub-child.ts'), dataDir, opts.faults ?? '', opts.configDir ?? ''], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const rl = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((res, rej) => {
    rl.once('line', res);
    child.once('exit', (code) => rej(new Error(`stub child exited with ${code}`)));
  });
  rl.close();
  const info = JSON.parse(first) as { url: string; keys: Array<{ live_key: string }> };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    }
  };
  return {
    url: info.url,
    liveKey: info.keys[0].live_key,
    dataDir,
    child,
    kill,
    async stop() {
      await kill();
      if (own) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
