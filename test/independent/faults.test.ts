/**
 * Exports against the independent server under faults: 429 with Retry-After: 1
 * on one request in five, dropped connections after the response is computed
 * on about one in eight, 200-800 ms latency on one in seven (a schedule fixed
 * per request, see server.py). A second of Retry-After on a fifth of all
 * requests makes 10,000 test takers take minutes per command, so the suite
 * runs 400; JOBFIT_INDEPENDENT_FULL=1 runs the whole 10,000 (slow: several
 * minutes per command).
 */
import { independentSuite } from './suite.js';

const full = process.env.JOBFIT_INDEPENDENT_FULL === '1';
independentSuite(full ? { testTakers: 10_000, faults: true, idsFrom: 4097, timeout: 1_800_000 } : { testTakers: 400, faults: true, idsFrom: 400, timeout: 120_000 });
