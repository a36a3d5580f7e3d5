/** The safety suite on PostgreSQL: a private server from Debian's postgresql binaries (.ci/run installs them). */
import { describe, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { safetySuite } from './safety-suite.js';

// CI installs the server (.ci/run): there, missing binaries are a failure, not a skip.
if (postgresBin() || process.env.CI) safetySuite(postgresBackend());
else describe.skipIf(skipBecause('sync safety on PostgreSQL needs the PostgreSQL server binaries (apt-get install postgresql)'))('sync safety on PostgreSQL', () => it('runs', () => {}));
