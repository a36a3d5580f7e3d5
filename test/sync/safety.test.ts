/** The safety suite on SQLite (the default backend), with its file checks. */
import { sqliteBackend } from './helpers.js';
import { safetySuite } from './safety-suite.js';

safetySuite(sqliteBackend);
