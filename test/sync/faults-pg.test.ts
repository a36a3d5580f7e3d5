/** Sync against a server of our own with faults (faults-suite.ts), on PostgreSQL (a private server, see pg-server.ts). */
import { describe, it } from 'vitest';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { faultsSuite } from './faults-suite.js';

// CI installs the server (.ci/run): there, missing binaries are a failure, not a skip.
if (postgresBin() || process.env.CI) faultsSuite(postgresBackend());
else describe.skip('sync faults on PostgreSQL: no server binaries (apt-get install postgresql)', () => it('is skipped', () => {}));
