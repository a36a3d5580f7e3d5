/** The sync suite on SQLite (the default backend). */
import { sqliteBackend } from './helpers.js';
import { syncSuite } from './sync-suite.js';

syncSuite(sqliteBackend);
