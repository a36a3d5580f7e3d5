/** Sync against a server of our own with faults (faults-suite.ts), on SQLite. */
import { sqliteBackend } from './helpers.js';
import { faultsSuite } from './faults-suite.js';

faultsSuite(sqliteBackend);
