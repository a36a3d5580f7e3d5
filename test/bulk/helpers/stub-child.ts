/**
 * Runs the stub in its own process (as `jobfit stub serve` would), so a bulk
 * run and the server do not share one event loop. Prints one JSON line
 * `{ url, keys }` on stdout when listening; stops on SIGTERM or stdin close.
 * Usage: node --import tsx test/bulk/helpers/stub-child.ts DATA_DIR [FAULTS]
 */
import { startStub } from '../../../src/stub/index.js';

const [dataDir, faults] = process.argv.slice(2);
const stub = await startStub({ dataDir, port: 0, host: '127.0.0.1', faults: faults || undefined });
process.stdout.write(`${JSON.stringify({ url: stub.url, keys: stub.keys })}\n`);
const stop = async () => {
  await stub.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
