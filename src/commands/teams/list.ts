import { TeamListItem } from '../../api/schemas/teams.js';
import { simpleList } from '../shared/simple-list.js';

const command = simpleList({
  description: 'List the teams of the account (GET /teams)',
  noun: 'teams',
  columns: [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'display_name', header: 'NAME', whole: true },
    { key: 'users_count', header: 'USERS', align: 'right' },
    { key: 'invitations_count', header: 'INVITATIONS', align: 'right' },
    { key: 'test_takers_count', header: 'TEST TAKERS', align: 'right' },
  ],
  item: TeamListItem,
  fetch: (c) => c.listTeams(),
  examples: ['jobfit teams', 'jobfit teams -o json | jq ".data[].id"', 'jobfit teams --fields id,display_name -o csv'],
});

export default command;
