/** The safety suite on PostgreSQL: a private server from Debian's postgresql binaries (.ci/run installs them). */
import { describe, it } from 'vitest';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { safetySuite } from './safety-suite.js';

// CI installs the server (.ci/run): there, missing binaries are a failure, not a skip.
if (postgresBin() || process.env.CI) safetySuite(postgresBackend());
else describe.skip('sync safety on PostgreSQL: no server binaries (apt-get install postgresql)', () => it('is skipped', () => {}));
