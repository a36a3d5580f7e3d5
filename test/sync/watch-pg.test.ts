/** The sync --watch suite on PostgreSQL (see sync-pg.test.ts). */
import { describe, it } from 'vitest';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { watchSuite } from './watch-suite.js';

if (postgresBin() || process.env.CI) watchSuite(postgresBackend());
else describe.skip('sync --watch on PostgreSQL: no server binaries (apt-get install postgresql)', () => it('is skipped', () => {}));
