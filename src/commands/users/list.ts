import { User } from '../../api/schemas/account.js';
import { simpleList } from '../shared/simple-list.js';

/**
 * The defaults `invite` falls back on when a flag is not given: a user who
 * lacks one cannot invite without that flag (the service says so, row by row).
 */
export function lackedDefaults(user: unknown): string {
  const u = (user ?? {}) as Record<string, unknown>;
  const lacks: string[] = [];
  if (!u.default_team) lacks.push('team (--team)');
  if (!Array.isArray(u.default_assessments) || u.default_assessments.length === 0) lacks.push('assessments (--assessments)');
  if (!u.default_invitation_email_template) lacks.push('invitation template (--template)');
  return lacks.length ? lacks.join(', ') : '—';
}

const command = simpleList({
  description: 'List the users of the account and their invitation defaults (GET /users)',
  noun: 'users',
  columns: [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'first_name', header: 'FIRST NAME', whole: true },
    { key: 'last_name', header: 'LAST NAME', whole: true },
    { key: 'email', header: 'EMAIL', whole: true },
    // On a narrow terminal, left out first: the assessments, the team, then what an invite lacks.
    { key: 'default_team', header: 'DEFAULT TEAM', drop: 2 },
    { key: 'default_assessments', header: 'DEFAULT ASSESSMENTS', drop: 1 },
    // Tables only: JSON and CSV keep the service's fields as they are.
    { key: 'default_invitation_email_template', header: 'LACKS (INVITE NEEDS)', format: (_v, row) => lackedDefaults(row), drop: 3 },
  ],
  item: User,
  fetch: (c) => c.listUsers(),
  examples: ['jobfit users', 'jobfit users -o json | jq -r ".data[].email"', 'jobfit users --fields email,default_team.id -o csv'],
});

export default command;
