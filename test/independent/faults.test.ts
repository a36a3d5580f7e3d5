/**
 * Exports against the independent server under faults: 429 with Retry-After: 1
 * on every fifth request, dropped connections after the response is computed,
 * 200-800 ms latency. A second of Retry-After on a fifth of all requests makes
 * 10,000 test takers take minutes per command, so the suite runs 1,200;
 * JOBFIT_INDEPENDENT_FULL=1 runs the whole 10,000 (about 4 minutes per command).
 */
import { independentSuite } from './suite.js';

const full = process.env.JOBFIT_INDEPENDENT_FULL === '1';
independentSuite(full ? { testTakers: 10_000, faults: true, idsFrom: 4097, timeout: 900_000 } : { testTakers: 1_200, faults: true, idsFrom: 1_200, timeout: 120_000 });
