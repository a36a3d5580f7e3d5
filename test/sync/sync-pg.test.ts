/** The sync suite on PostgreSQL: a private server from Debian's postgresql binaries (.ci/run installs them). */
import { describe, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { syncSuite } from './sync-suite.js';

// CI installs the server (.ci/run): there, missing binaries are a failure, not a skip.
if (postgresBin() || process.env.CI) syncSuite(postgresBackend());
else describe.skipIf(skipBecause('sync on PostgreSQL needs the PostgreSQL server binaries (apt-get install postgresql)'))('sync on PostgreSQL', () => it('runs', () => {}));
