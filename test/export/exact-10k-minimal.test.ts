/** Exports exact at 10,000 test takers against the minimal stub (the suite: exact-10k.ts). */
import { exactSuite } from './exact-10k.js';

exactSuite(true);
