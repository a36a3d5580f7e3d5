/** The sync --watch suite on PostgreSQL (see sync-pg.test.ts). */
import { describe, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { watchSuite } from './watch-suite.js';

if (postgresBin() || process.env.CI) watchSuite(postgresBackend());
else describe.skipIf(skipBecause('sync --watch on PostgreSQL needs the PostgreSQL server binaries (apt-get install postgresql)'))('sync --watch on PostgreSQL', () => it('runs', () => {}));
