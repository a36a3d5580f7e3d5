/** Exports against the independent server (server.py) at 10,000 test takers over 3 teams, no faults. */
import { independentSuite } from './suite.js';

independentSuite({ testTakers: 10_000, faults: false, idsFrom: 4097, timeout: 120_000 });
