/** The webhook listen --sync suite on PostgreSQL (see sync-pg.test.ts). */
import { describe, it } from 'vitest';
import { postgresBackend } from './helpers.js';
import { postgresBin } from './pg-server.js';
import { webhookSuite } from './webhook-suite.js';

if (postgresBin() || process.env.CI) webhookSuite(postgresBackend());
else describe.skip('webhook listen --sync on PostgreSQL: no server binaries (apt-get install postgresql)', () => it('is skipped', () => {}));
