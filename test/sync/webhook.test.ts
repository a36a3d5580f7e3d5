/** The webhook listen --sync suite on SQLite. */
import { sqliteBackend } from './helpers.js';
import { webhookSuite } from './webhook-suite.js';

webhookSuite(sqliteBackend);
