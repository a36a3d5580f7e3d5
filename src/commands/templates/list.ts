import { EmailTemplate } from '../../api/schemas/account.js';
import { simpleList } from '../shared/simple-list.js';

const command = simpleList({
  description: 'List the email templates of the account and the teams they are assigned to (GET /email-templates)',
  noun: 'email templates',
  columns: [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'display_name', header: 'NAME', whole: true },
    { key: 'template_type', header: 'TYPE', drop: 2 },
    { key: 'teams', header: 'TEAMS', drop: 1 },
  ],
  item: EmailTemplate,
  fetch: (c) => c.listEmailTemplates(),
  examples: ['jobfit templates', 'jobfit templates -o json | jq ".data[] | select(.template_type == \\"invitation\\")"'],
});

export default command;
