import { simpleList } from '../shared/simple-list.js';

export const { run, register } = simpleList({
  name: 'users',
  description: 'List the users of the account and their invitation defaults (GET /users)',
  noun: 'users',
  columns: [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'first_name', header: 'FIRST NAME' },
    { key: 'last_name', header: 'LAST NAME' },
    { key: 'email', header: 'EMAIL' },
    { key: 'default_team', header: 'DEFAULT TEAM' },
    { key: 'default_assessments', header: 'DEFAULT ASSESSMENTS' },
  ],
  fetch: (c) => c.listUsers(),
  examples: ['jobfit users', 'jobfit users -o json | jq -r ".data[].email"', 'jobfit users --fields email,default_team.id -o csv'],
});
