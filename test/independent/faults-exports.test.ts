/** Scorecard and job-fit exports against the independent server, with faults (see faults.ts). */
import { faultOptions } from './faults.js';
import { independentSuite } from './suite.js';

independentSuite(faultOptions(['scorecard-ndjson', 'scorecard-csv', 'job-fit', 'ids-from']));
