/** The stub in a child process (test/helpers/stub.ts, startStub with where: 'process'), in the shape the bulk tests use. */
import type { ChildProcess } from 'node:child_process';
import { startStub } from '../../helpers/stub.js';

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

/** configDir: the JOBFIT_CONFIG_DIR of the runs against it, where it notes itself as `stub serve` does (so they know it for our stub). */
export async function startStubProcess(opts: { faults?: string; dataDir?: string; configDir?: string } = {}): Promise<StubProcess> {
  const s = await startStub({ where: 'process', ...opts });
  return { url: s.url, liveKey: s.liveKey, dataDir: s.dataDir, child: s.child!, kill: s.kill, stop: s.stop };
}
