/** The webhook listen --sync suite on PostgreSQL (see sync-pg.test.ts). */
import { describe, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { webhookSuite } from './webhook-suite.js';

if (postgresBin() || process.env.CI) webhookSuite(postgresBackend());
else describe.skipIf(skipBecause('webhook listen --sync on PostgreSQL needs the PostgreSQL server binaries (apt-get install postgresql)'))('webhook listen --sync on PostgreSQL', () => it('runs', () => {}));
