/**
 * The independent server under faults: 429 with Retry-After: 1 on one request
 * in five, the connection dropped after the response is computed on about one
 * in eight, 200-800 ms latency on one in seven (a schedule fixed per request
 * and per command, see server.py). A second of Retry-After on a fifth of all
 * requests makes 10,000 test takers take about six minutes per command, so the
 * suite runs 400, split over two files to keep each under ~3 minutes;
 * JOBFIT_INDEPENDENT_FULL=1 runs 10,000 (about an hour in all).
 */
import type { SuiteOptions } from './harness.js';

const full = process.env.JOBFIT_INDEPENDENT_FULL === '1';

export function faultOptions(only: string[]): SuiteOptions {
  const base = full ? { testTakers: 10_000, idsFrom: 4097, timeout: 1_800_000 } : { testTakers: 400, idsFrom: 400, timeout: 120_000 };
  return {
    ...base,
    faults: true,
    only,
  };
}
