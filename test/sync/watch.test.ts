/** The sync --watch suite on SQLite. */
import { sqliteBackend } from './helpers.js';
import { watchSuite } from './watch-suite.js';

watchSuite(sqliteBackend);
