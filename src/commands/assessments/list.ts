import { Assessment } from '../../api/schemas/assessments.js';
import { simpleList } from '../shared/simple-list.js';

const command = simpleList({
  description: 'List the assessment catalog (GET /assessments); the ids are the test ids of `invite --assessments`',
  noun: 'assessments',
  columns: [
    { key: 'id', header: 'TEST ID', align: 'right' },
    { key: 'display_name', header: 'NAME', whole: true },
    { key: 'short_name', header: 'SHORT NAME' },
  ],
  item: Assessment,
  fetch: (c) => c.listAssessments(),
  examples: ['jobfit assessments', 'jobfit assessments -o csv'],
});

export default command;
