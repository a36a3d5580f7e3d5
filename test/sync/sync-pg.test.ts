/** The sync suite on PostgreSQL: a private server from Debian's postgresql binaries (.ci/run installs them). */
import { describe, it } from 'vitest';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { syncSuite } from './sync-suite.js';

// CI installs the server (.ci/run): there, missing binaries are a failure, not a skip.
if (postgresBin() || process.env.CI) syncSuite(postgresBackend());
else describe.skip('sync on PostgreSQL: no server binaries (apt-get install postgresql)', () => it('is skipped', () => {}));
