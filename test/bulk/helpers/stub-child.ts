/**
 * Runs the stub in its own process (as `jobfit stub serve` would), so a bulk
 * run and the server do not share one event loop. Prints one JSON line
 * `{ url, keys }` on stdout when listening; stops on SIGTERM or stdin close.
 * Given a config directory, it leaves the note `stub serve` leaves there, by
 * which a bulk run using that directory knows it for our stub.
 * Usage: node --import tsx test/bulk/helpers/stub-child.ts DATA_DIR [FAULTS] [CONFIG_DIR]
 */
import { noteServedStub } from '../../../src/config/served-stubs.js';
import { startStubServer } from '../../../src/stub/index.js';

const [dataDir, faults, configDir] = process.argv.slice(2);
const stub = await startStubServer({ dataDir, port: 0, host: '127.0.0.1', faults: faults || undefined });
const unnote = configDir ? noteServedStub({ JOBFIT_CONFIG_DIR: configDir }, stub.origin, dataDir, stub.instance) : () => {};
process.stdout.write(`${JSON.stringify({ url: stub.url, keys: stub.keys })}\n`);
const stop = async () => {
  unnote();
  await stub.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
