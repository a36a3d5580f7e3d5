/** Complete lists and the group report against the independent server, with faults (see faults.ts). */
import { faultOptions } from './faults.js';
import { independentSuite } from './suite.js';

independentSuite(faultOptions(['test-takers', 'invitations', 'profiles', 'report']));
